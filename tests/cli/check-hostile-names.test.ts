import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { CLI, openSession, textOf } from '../helpers/mcp.js';
import { round, sandbox } from '../helpers/sandbox.js';
import { runCheck, checkText } from '../../server/src/steps/check.js';
import { checkOutput } from '../../server/src/cli/check.js';
import { showText } from '../../server/src/show/untrusted.js';

/**
 * Issue 37: every path `check` prints is escaped, in every format and in onboarding_check's text. A
 * committed folder whose name holds a newline and `::error ...` must not put a line into a CI log
 * that the runner reads as a workflow command (`::error`, `::add-mask`, or the older `##[error]`).
 */

const FORMATS = ['text', 'json', 'sarif', 'markdown'] as const;
/** What a CI runner may take for a line break: a name holding one must never start a line of output. */
const LINE_BREAKS = /\r\n|\r|\n|\u2028|\u2029|\u0085/;
/** A line the runner reads as a command. */
const COMMAND = /^\s*(::|##\[)/;

function cli(args: string[]) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env });
}

function commandLines(output: string): string[] {
  return output.split(LINE_BREAKS).filter((l) => COMMAND.test(l));
}

const FORGED = 'docs/\n::error file=src/auth.ts,line=1,title=Secret committed::A key was committed';

function hostileRepo(t: Parameters<typeof sandbox>[0], folder: string): string {
  const repo = sandbox(t, { 'AGENTS.md': '# Rules\n\n- Use npm for packages.\n' });
  fs.mkdirSync(path.join(repo, folder), { recursive: true });
  fs.writeFileSync(path.join(repo, folder, 'AGENTS.md'), '# Rules\n\n- Use pnpm for packages.\n');
  // A file check cannot read, in the same folder: its finding names the path too.
  fs.writeFileSync(path.join(repo, folder, 'CLAUDE.md'), Buffer.from([0x2d, 0x20, 0xff, 0x0a]));
  execFileSync('git', ['-C', repo, 'add', '-A']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x']);
  return repo;
}

test('a committed folder named "docs/\\n::error ..." forges no annotation: no line of any format starts a runner command', (t) => {
  const repo = hostileRepo(t, FORGED);
  for (const format of FORMATS) {
    const r = cli(['check', '--repo', repo, '--format', format]);
    assert.equal(r.status, 1, `${format}: ${r.stderr}`);
    assert.deepEqual(commandLines(r.stdout), [], format);
    assert.deepEqual(commandLines(r.stderr), [], `${format} stderr`);
  }
  // The text names the folder, quoted, its newline escaped.
  const text = cli(['check', '--repo', repo]).stdout;
  assert.ok(text.includes('"docs/\\n::error file=src/auth.ts,line=1,title=Secret committed::A key was committed/AGENTS.md":3'), text);
  // JSON and SARIF still carry the exact path, as data.
  const report = JSON.parse(cli(['check', '--repo', repo, '--format', 'json']).stdout);
  assert.ok(report.findings.some((f: any) => f.locations.some((l: any) => l.path === `${FORGED}/AGENTS.md`)));
});

test('onboarding_check: its text forges no runner command either', async (t) => {
  const repo = hostileRepo(t, FORGED);
  const s = await openSession(t, { repo });
  const r = await s.call('onboarding_check');
  assert.deepEqual(commandLines(textOf(r)), []);
  assert.ok((r.structuredContent as any).findings.length > 0);
});

test('SARIF message texts escape bidi controls, line separators and C1 controls of a name', (t) => {
  const repo = hostileRepo(t, 'a\u202Eevil\u2028::error x\u0085::warning y');
  const r = cli(['check', '--repo', repo, '--format', 'sarif']);
  assert.doesNotMatch(r.stdout, /[\u202E\u2028\u0085]/);
  const sarif = JSON.parse(r.stdout);
  assert.ok(sarif.runs[0].results.length > 0);
  assert.deepEqual(commandLines(r.stdout), []);
});

/** Pieces of a hostile folder name: line breaks of every kind, runner commands, controls, quotes. */
const PIECE = fc.oneof(
  fc.constantFrom(
    '\n',
    '\r',
    '\r\n',
    '\u2028',
    '\u2029',
    '\u0085',
    '\u202E',
    '\u200B',
    '\x1b[2K',
    '\t',
    ' ',
    '::error file=x,line=1::forged',
    '::add-mask::x',
    '##[error]forged',
    '::',
    '"',
    '\\',
    '`',
    '|',
    '*',
    '[x]',
    '{a,b}',
    '%0A',
    'docs',
  ),
  fc.string({ minLength: 1, maxLength: 4 }).filter((s) => !s.includes('/') && !s.includes('\0')),
);
/** How each format's own lines start: a line a name's line break started would not. */
const OWN_LINE: Record<string, RegExp> = {
  text: /^((\(baseline\) )?(contradiction|duplicate|drift|would-change|ambiguity|unread) \[|No findings|\d+ contradiction)/,
  json: /^\s*([{}[\]]|"(?:[^"\\]|\\.)*"(:|,|$)|-?\d|true|false|null)/,
  markdown: /^(##+ |\||\d+\. |\*\*|<sub>|No findings|\d+ findings?|$)/,
};
OWN_LINE.sarif = OWN_LINE.json!;
OWN_LINE.mcp = OWN_LINE.text!;

const NAME = fc
  .array(PIECE, { minLength: 1, maxLength: 6 })
  .map((p) => p.join(''))
  .filter((n) => n !== '.' && n !== '..' && n !== '.git' && Buffer.byteLength(n) < 200);

test('property: for any hostile folder name, no output line of any format starts with :: or ##[, and no raw line break of the name is printed', async () => {
  await fc.assert(
    fc.asyncProperty(NAME, async (name) => {
      const r = round();
      try {
        const repo = hostileRepo(r, name);
        const report = await runCheck(repo, 'contradiction');
        const outputs: Record<string, string> = { mcp: showText(checkText(report)) };
        for (const f of FORMATS) outputs[f] = await checkOutput(report, f);
        for (const [format, out] of Object.entries(outputs)) {
          assert.deepEqual(commandLines(out), [], `${format}: ${JSON.stringify(name)}`);
          // The only line breaks are the format's own: every one is a `\n`, and none came from the name.
          assert.doesNotMatch(out, /\r|\u2028|\u2029|\u0085/, `${format}: ${JSON.stringify(name)}`);
          for (const line of out.replace(/\n$/, '').split('\n'))
            assert.match(line, OWN_LINE[format]!, `${format}: a line not of the format's own: ${JSON.stringify(line)}`);
        }
      } finally {
        await r.done();
      }
    }),
    { numRuns: 25 },
  );
});
