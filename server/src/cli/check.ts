import { baselineOf, checkText, parseBaseline, runCheck, type CheckReport, type FailOn } from '../steps/check.js';
import { BadInputError } from '../common/errors.js';
import { showJson, showPath, showText } from '../show/untrusted.js';
import { readNamedFile, writeNamedFile } from '../repo/named-file.js';
import { toSarif } from '../reports/sarif.js';

export interface CheckArgs {
  format: 'text' | 'json' | 'sarif' | 'markdown';
  failOn: FailOn;
  baseline?: string;
  writeBaseline?: string;
}

/**
 * `copilot-onboard check`: prints the report and returns the exit code (0 passed, 1 failed; bad
 * usage throws a BadInputError, exit 2). Writes nothing, except the baseline file the person names
 * with --write-baseline, which must lie under the working directory or the repository. Both
 * baseline files are read and written through cli/named-file.ts: no link, a regular file, bounded.
 */
export async function checkCommand(root: string, args: CheckArgs): Promise<number> {
  const baseline = args.baseline === undefined ? new Set<string>() : await readBaseline(args.baseline, root);
  const report = await runCheck(root, args.failOn, baseline);
  if (args.writeBaseline !== undefined) {
    await writeNamedFile('--write-baseline', args.writeBaseline, root, `${JSON.stringify(baselineOf(report), null, 2)}\n`);
    process.stderr.write(
      `Wrote the baseline ${showPath(args.writeBaseline)}: ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}.\n`,
    );
    for (const f of report.findings) f.inBaseline = true;
    report.failed = false;
  }
  process.stdout.write(await checkOutput(report, args.format));
  return report.failed ? 1 : 0;
}

/**
 * The report as printed in each format. No line of any of them can be read by a CI runner as a
 * command (`::error`, `##[error]`): text shows each path and message on one line (checkText),
 * Markdown as code spans, JSON and SARIF with every line break and hidden character of a name as a
 * `\u` escape (showJson), so a name never starts a line.
 */
export async function checkOutput(report: CheckReport, format: CheckArgs['format']): Promise<string> {
  if (format === 'markdown') return (await import('../reports/check-markdown.js')).checkMarkdown(report);
  if (format === 'sarif') return `${showJson(toSarif(report))}\n`;
  // The repository names itself, for `fleet` (which merges many results): COPILOT_ONBOARD_REPOSITORY_NAME
  // (set by action.yml, whose matrix jobs check other repositories than their own), else GITHUB_REPOSITORY.
  if (format === 'json') {
    const repository = process.env.COPILOT_ONBOARD_REPOSITORY_NAME || process.env.GITHUB_REPOSITORY;
    return `${showJson(repository ? { repository, ...report } : report)}\n`;
  }
  return `${showText(checkText(report))}\n`;
}

/** The fingerprints of the baseline named with --baseline; what is wrong with it is said without quoting it. */
async function readBaseline(file: string, root: string): Promise<Set<string>> {
  const bytes = await readNamedFile('--baseline', file, root);
  try {
    return parseBaseline(bytes.toString('utf8'));
  } catch (err) {
    throw new BadInputError(`--baseline ${showPath(file)} ${(err as Error).message}`);
  }
}
