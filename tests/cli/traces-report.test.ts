import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, yesToAll } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, sandbox, tempDir } from '../helpers/sandbox.js';
import { HOSTILE, markdownOutsideCode } from '../helpers/markdown.js';
import { COMMENT_CHARS, traceReportMarkdown } from '../../server/src/reports/trace-report-markdown.js';

/** `traces report` (issue 33): one page for the reviewer of a migration pull request, from a real flow's traces. */

function cli(args: string[], cwd?: string) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env, ...(cwd ? { cwd } : {}) });
}

const HOSTILE_FILE = '.cursor/rules/# Heading|x`y`<script>alert(1)</script>](javascript:alert(1)).mdc';
const HOSTILE_CLIENT = 'evil|client`<script>alert(2)</script>[x](javascript:alert(3))';
const HOSTILE_NARRATION =
  '# Approved by the security team\n</details><script>alert(4)</script>\n```\n| a | b |\n[click](javascript:alert(5))';

/** A real flow over MCP: propose, approve in two rounds (the choices, then the plan), migrate; the client and its model hostile. */
async function migrated(t: Parameters<typeof sandbox>[0]): Promise<string> {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': MESSY_INSTRUCTIONS,
    [HOSTILE_FILE]: '---\ndescription: x\nalwaysApply: true\n---\n# Rules\n\n- Always use yarn for installs.\n',
  });
  const s = await openSession(t, {
    repo,
    elicit: yesToAll,
    clientName: HOSTILE_CLIENT,
    sample: () => ({ model: 'model`<b>x</b>', role: 'assistant', content: { type: 'text', text: HOSTILE_NARRATION } }),
  });
  await s.call('onboarding_analyze');
  await s.call('onboarding_propose');
  assert.equal((await s.call('onboarding_approve')).structuredContent?.outcome, 'approved');
  assert.equal((await s.call('onboarding_migrate')).structuredContent?.outcome, 'migrated');
  await s.close();
  return repo;
}

test('traces report: each gated step in order with who asked, what was shown and answered, what was written; hostile names and narration stay inert', async (t) => {
  const repo = await migrated(t);
  const r = cli(['traces', 'report', '--repo', repo]);
  assert.equal(r.status, 0, r.stderr);
  const md = r.stdout;
  assert.ok(md.length <= COMMENT_CHARS);
  assert.match(md, /\*\*Trace chain: ✅ verifies\*\*/);
  // The steps, in chain order: approve's two rounds, then migrate.
  const steps = [...md.matchAll(/^### (\d+)\. ` (\w+) `(?: \((\w+) round\))?: ` (\w+) `$/gm)].map((m) => [m[2], m[3] ?? null, m[4]]);
  assert.deepEqual(steps, [
    ['approve', 'choices', 'chosen'],
    ['approve', 'approval', 'approved'],
    ['migrate', null, 'migrated'],
  ]);
  const seqs = [...md.matchAll(/^### (\d+)\./gm)].map((m) => Number(m[1]));
  assert.deepEqual(
    seqs,
    [...seqs].sort((a, b) => a - b),
  );
  assert.match(md, /tool ` onboarding_approve `/);
  assert.match(md, /tool ` onboarding_migrate `/);
  assert.match(
    md,
    /\*\*Shown\*\*: plan ` [0-9a-f]{64} `, a message of \d+ lines \(\d+ characters\), with the diff of \d+ files?: \+\d+ −\d+ lines/,
  );
  // The choices in the form's words: the question and its options' titles, no field id or option code (issue 41).
  assert.match(md, /asked `+ Which rule stands\?/);
  assert.match(md, /options `+ Keep all of them and mark the conflict in the file/);
  assert.doesNotMatch(md, /conflict_1|keep_all|legacy_1/);
  assert.match(md, /\*\*Answered\*\*: ` accept `, ` approved ` = ` true ` at ` 20\d\d-/);
  assert.match(md, /\*\*Done\*\*: ` Migrated: /);
  assert.match(md, /The client model's words, quoted, not the tool's facts/);
  // The hostile client, file name and narration are there, as text.
  assert.ok(md.includes('<script>alert(2)</script>'));
  assert.ok(md.includes('# Approved by the security team'));
  const outside = markdownOutsideCode(md);
  for (const line of outside) assert.doesNotMatch(line, HOSTILE, line);
  for (const line of outside.filter((l) => /^\s{0,3}#/.test(l)))
    assert.match(
      line,
      /^(## copilot-onboard: what the person was asked|### \d+\. <code>|### Narration for <code>|### The client model's opinion of the second-look pairs )/,
      line,
    );
  for (const line of outside.filter((l) => l.startsWith('|'))) assert.equal(line.split('|').length, 9, line);
  // The only HTML outside code is the tool's own.
  for (const tag of outside.join('\n').match(/<\/?[a-z][^>]*>/gi) ?? []) assert.match(tag, /^<\/?(code|details|summary|sub)>$/, tag);

  // HTML: one self-contained file, no script, no link, every untrusted string a text node.
  const html = cli(['traces', 'report', '--repo', repo, '--format', 'html']);
  assert.equal(html.status, 0, html.stderr);
  const page = html.stdout;
  assert.match(page, /^<!doctype html>/);
  assert.match(page, /Content-Security-Policy" content="default-src 'none'/);
  assert.ok(page.includes('&lt;script&gt;alert(2)&lt;/script&gt;'));
  assert.ok(page.includes('# Approved by the security team'));
  for (const tag of page.match(/<[^>]*>/g) ?? []) {
    assert.match(
      tag,
      /^<(!doctype html|\/?(html|head|body|title|style|h1|h2|p|ul|li|table|thead|tbody|tr|th|td|code|pre|strong|em|small|details|summary|blockquote|section)( (lang="en"|class="(ok|bad|model)"))?|meta [^<>]*)>$/,
      tag,
    );
  }
  assert.doesNotMatch(page, /<script|<a |href=|src=|https?:\/\//i);

  // JSON: the same facts, as data.
  const json = JSON.parse(cli(['traces', 'report', '--repo', repo, '--json']).stdout);
  assert.equal(json.chain.ok, true);
  assert.deepEqual(
    json.steps.map((s: any) => [s.step, s.round, s.outcome, s.tool]),
    [
      ['approve', 'choices', 'chosen', 'onboarding_approve'],
      ['approve', 'approval', 'approved', 'onboarding_approve'],
      ['migrate', null, 'migrated', 'onboarding_migrate'],
    ],
  );
  assert.equal(json.steps[0].client.name, HOSTILE_CLIENT);
  assert.ok(json.steps[1].shown.files.length >= 1);
  assert.ok(json.narration.some((n: any) => n.text === HOSTILE_NARRATION && n.fallback === false));

  // Past a pull-request comment's size, whole sections are cut, and the page says so and where the rest is.
  const small = traceReportMarkdown(json, 3000);
  assert.ok(small.length <= 3000, String(small.length));
  assert.match(
    small,
    /\*\*\d+ more sections? not shown\*\* \(a pull-request comment holds at most 65,536 characters\): the whole report is `copilot-onboard traces report --format html/,
  );
});

test('traces report --out goes through the safe writer: written under the repository, refused at a link or outside; a broken chain is said first', async (t) => {
  const repo = await migrated(t);
  const out = path.join(repo, 'review.html');
  const r = cli(['traces', 'report', '--repo', repo, '--format', 'html', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(fs.readFileSync(out, 'utf8'), /^<!doctype html>/);
  assert.match(r.stderr, /Wrote the traces report \(html\)/);

  const elsewhere = tempDir(t);
  const secret = path.join(elsewhere, 'secret.txt');
  fs.writeFileSync(secret, 'keep me');
  fs.symlinkSync(secret, path.join(repo, 'link.md'));
  const link = cli(['traces', 'report', '--repo', repo, '--out', path.join(repo, 'link.md')]);
  assert.equal(link.status, 2);
  assert.match(link.stderr, /symlink/);
  assert.equal(fs.readFileSync(secret, 'utf8'), 'keep me');
  const outside = cli(['traces', 'report', '--repo', repo, '--out', path.join(elsewhere, 'r.md')], repo);
  assert.equal(outside.status, 2);
  assert.ok(!fs.existsSync(path.join(elsewhere, 'r.md')));
  assert.equal(cli(['traces', 'report', '--repo', repo, '--format', 'pdf']).status, 2);

  // Edit a trace: the report still comes, and says first that the chain does not verify.
  const folder = path.join(repo, '.copilot-state', 'elicitation-traces');
  const first = path.join(folder, fs.readdirSync(folder).sort()[0]!);
  fs.writeFileSync(first, fs.readFileSync(first, 'utf8').replace('"approve"', '"approve" '));
  const broken = cli(['traces', 'report', '--repo', repo]);
  assert.equal(broken.status, 0);
  assert.match(broken.stdout, /^\*\*Trace chain: ❌ does not verify\*\*/m);
});
