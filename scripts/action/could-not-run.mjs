// When copilot-onboard exits 2 (bad usage: a baseline that cannot be read, a fail-on it does not know,
// a repo folder that does not exist), the action says so where people look, and last: the job summary
// says what went wrong, and the job's final error names the cause and the input to fix. No SARIF is
// uploaded then (an empty one would be the last error instead, and say nothing).
//
// Reads: argv[2] the file holding what the tool wrote to stderr, argv[3] the command (check, fleet);
// GITHUB_STEP_SUMMARY, GITHUB_OUTPUT. Writes the output `cause` (one line).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Which input of the action a message of the tool is about. */
export function inputOf(said) {
  if (/--baseline\b/.test(said)) return 'baseline';
  if (/--write-baseline\b/.test(said)) return 'baseline';
  if (/\bfail-on\b/.test(said)) return 'fail-on';
  if (/--repo\b|COPILOT_ONBOARD_REPO\b/.test(said)) return 'repo';
  if (/\bfleet\b/.test(said)) return 'files';
  return null;
}

/** The cause in one line: what the tool said, without its name, the help hint or blank lines. */
export function causeOf(stderr) {
  return (
    stderr
      .split('\n')
      .map((l) => l.replace(/^copilot-onboard: /, '').trim())
      .filter((l) => l && !/^Run .* --help for/.test(l))
      .join(' ')
      .replace(/\s+/g, ' ')
      .slice(0, 1000) || 'it said nothing on stderr'
  );
}

function main() {
  const [file, command = 'check'] = process.argv.slice(2);
  const stderr = file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const cause = causeOf(stderr);
  const input = inputOf(cause);
  const said = /[.!?]$/.test(cause) ? cause : `${cause}.`;
  const words = `copilot-onboard ${command} could not run (exit 2): ${said}${input ? ` Check the input \`${input}\`.` : ''}`;
  if (process.env.GITHUB_STEP_SUMMARY) {
    const fence = '`'.repeat(Math.max(3, ...[...stderr.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    fs.appendFileSync(
      process.env.GITHUB_STEP_SUMMARY,
      `## copilot-onboard ${command}: could not run\n\n${input ? `The input \`${input}\` is the cause; the` : 'The'} tool said:\n\n${fence}text\n${stderr.trim()}\n${fence}\n\nNothing was checked, and no SARIF was uploaded.\n`,
    );
  }
  if (process.env.GITHUB_OUTPUT) fs.appendFileSync(process.env.GITHUB_OUTPUT, `cause=${words.replace(/[\r\n]/g, ' ')}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
