import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from '../helpers/mcp.js';
import { sandbox, STRUCTURED_INSTRUCTIONS } from '../helpers/sandbox.js';
import { HOSTILE, markdownOutsideCode } from '../helpers/markdown.js';
import { checkMarkdown, JOB_SUMMARY_BYTES } from '../../server/src/reports/check-markdown.js';
import type { CheckReport } from '../../server/src/steps/check.js';

/** `check --format markdown` (issue 33): the job summary. */

function cli(args: string[]) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env });
}

const HOSTILE_RULE = '- Deploy `x` | <script>alert(1)</script> [a](javascript:alert(1)) <img src=x onerror=alert(1)>';
const HOSTILE_NAME = '.cursor/rules/# Heading|b`c`<script>](javascript:x).mdc';

test('check --format markdown: a table by rule and certainty, each finding with its locations; a hostile rule and file name stay inside code', (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': STRUCTURED_INSTRUCTIONS,
    'AGENTS.md': `# Agents\n\n${HOSTILE_RULE}\n`,
    [HOSTILE_NAME]: '---\ndescription: x\nalwaysApply: true\n---\n# Hi\n\n- Never force-push to main.\n',
  });
  const r = cli(['check', '--repo', repo, '--format', 'markdown', '--fail-on', 'drift']);
  assert.equal(r.status, 1, r.stderr);
  const md = r.stdout;
  assert.match(md, /^## copilot-onboard check: ❌ failed \(`--fail-on drift`\)$/m);
  assert.match(md, /^\| drift \| 2 \| 0 \| 0 \| 2 \|$/m);
  assert.match(md, /^\| \*\*total\*\* \|/m);
  // Each finding lists its locations.
  assert.match(md, /at ` AGENTS\.md:3 `/);
  assert.ok(md.includes('# Heading|b`c`<script>](javascript:x).mdc:7'), md);
  const outside = markdownOutsideCode(md);
  for (const line of outside) assert.doesNotMatch(line, HOSTILE, line);
  // The only headings are the tool's own; every table row has the table's five cells.
  assert.deepEqual(
    outside.filter((l) => /^\s{0,3}#/.test(l)),
    ['## copilot-onboard check: ❌ failed (<code>)', '### Findings'],
  );
  for (const line of outside.filter((l) => l.startsWith('|'))) assert.equal(line.split('|').length, 7, line);
  // Findings are list items, one a line: no text of a rule starts a line of its own.
  for (const line of outside.filter((l) => /^\d+\. /.test(l)))
    assert.match(line, /^\d+\. \*\*(drift|would-change|duplicate|contradiction|ambiguity)\*\*/);
  // Same input, same bytes.
  assert.equal(cli(['check', '--repo', repo, '--format', 'markdown', '--fail-on', 'drift']).stdout, md);
});

test('check --format markdown on a clean repository says so and passes', (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': STRUCTURED_INSTRUCTIONS });
  const r = cli(['check', '--repo', repo, '--format', 'markdown']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /✅ passed/);
  assert.match(r.stdout, /^No findings/m);
});

test('a job summary stays under GitHub’s 1 MiB, whole findings only, with a line saying how many were cut and where they are', () => {
  const n = 6000;
  const report: CheckReport = {
    tool: 'copilot-onboard',
    version: '0.1.0',
    files: 2,
    failOn: 'contradiction',
    failed: true,
    counts: { contradiction: 0, duplicate: n, drift: 0, 'would-change': 0, ambiguity: 0, unread: 0 },
    findings: Array.from({ length: n }, (_, i) => ({
      rule: 'duplicate' as const,
      kind: 'exact',
      certainty: 'high' as const,
      message: `The same rule twice: ${'é'.repeat(200)} ${i}`,
      locations: [
        { path: `docs/rules-${i}.md`, line: i + 1 },
        { path: 'AGENTS.md', line: 3 },
      ],
      fingerprint: String(i),
    })),
  };
  const md = checkMarkdown(report);
  assert.ok(Buffer.byteLength(md, 'utf8') <= JOB_SUMMARY_BYTES, String(Buffer.byteLength(md, 'utf8')));
  const shown = md.split('\n').filter((l) => /^\d+\. /.test(l)).length;
  assert.ok(shown > 1000 && shown < n, String(shown));
  assert.match(md, new RegExp(`\\*\\*${n - shown} findings not shown\\*\\*: a job summary holds at most 1 MiB\\. .*--format json`));
  // The table still counts them all.
  assert.match(md, new RegExp(`^\\| duplicate \\| ${n} \\| 0 \\| 0 \\| ${n} \\|$`, 'm'));
  // A small limit cuts the same way.
  const small = checkMarkdown(report, 4000);
  assert.ok(Buffer.byteLength(small, 'utf8') <= 4000);
  assert.match(small, /findings not shown/);
});

test('untrusted text in Markdown: a code span longer than any backtick run; in a table every pipe after an odd run of backslashes; a fence nothing closes', async () => {
  const { mdCode, mdFence, htmlText } = await import('../../server/src/show/markup.js');
  assert.equal(mdCode('a`b``c'), '``` a`b``c ```');
  assert.equal(mdCode(''), '*(empty)*');
  for (const text of ['a|b', 'a\\|b', 'a\\\\|b', '|', '\\\\\\|']) {
    const cell = mdCode(text, { inTable: true });
    for (const m of cell.matchAll(/(\\*)\|/g)) assert.equal(m[1]!.length % 2, 1, `${text} → ${cell}`);
  }
  assert.equal(mdCode('line\nbreak'), '` line\\nbreak `', 'a newline is shown escaped: the text cannot start a line');
  const fenced = mdFence('```\n# not a heading\n````');
  assert.match(fenced, /^`{5}text\n/);
  assert.match(fenced, /\n`{5}$/);
  assert.equal(htmlText(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});
