import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { applyAndReplan, plannedSandbox, planRepo, sandbox, tempDir, writeFile } from '../helpers/sandbox.js';

const COPILOT = '.github/copilot-instructions.md';

const count = (text: string, line: string) => text.split('\n').filter((l) => l === line).length;

test('CLAUDE.md importing AGENTS.md and a README: AGENTS.md rules land once, the README text is placed, no @ line is copied', async (t) => {
  const { repo, plan, content, scan } = await plannedSandbox(t, {
    'AGENTS.md': '# Agents\n\n- Run pnpm test before pushing.\n- Keep commits small.\n',
    'CLAUDE.md': '@./AGENTS.md\n@./README.md\n\n- Claude-only rule: answer briefly.\n',
    'README.md': '# Widget\n\nWidget renders charts from CSV files.\n',
  });
  const out = content(COPILOT)!;
  assert.equal(count(out, '- Run pnpm test before pushing.'), 1, out);
  assert.equal(count(out, 'Widget renders charts from CSV files.'), 1, out);
  assert.equal(count(out, '- Claude-only rule: answer briefly.'), 1, out);
  assert.doesNotMatch(out, /^@/m, 'no import line is copied as text');
  assert.deepEqual(
    scan.imports.map((r) => `${r.from}:${r.line} ${r.status} ${r.target}`),
    ['CLAUDE.md:1 source AGENTS.md', 'CLAUDE.md:2 followed README.md'],
  );
  assert.ok(
    plan.notes.some((n) => n.startsWith('CLAUDE.md:2 imports @./README.md: its text is placed once')),
    plan.notes.join('\n'),
  );
  assert.ok(!plan.legacy.some((l) => l.path === 'README.md'), 'an imported README is not offered for removal');
  assert.ok(
    scan.sources.some((s) => s.path === 'README.md' && s.kind === 'imported' && s.sha256 !== null),
    'the README is a source the plan binds to',
  );
  const { plan: again } = await applyAndReplan(repo, plan);
  assert.deepEqual(
    again.operations.map((o) => `${o.op} ${o.path}`),
    [],
    'the next plan is a no-op',
  );
});

test('a file imported from two places is placed once', async (t) => {
  const { content, scan } = await plannedSandbox(t, {
    'CLAUDE.md': '- Claude rule one.\n\n@docs/style.md\n',
    'GEMINI.md': '- Gemini rule one.\n\n@docs/style.md\n',
    'docs/style.md': '- Use tabs for indentation in Go files.\n',
  });
  const out = content(COPILOT)!;
  assert.equal(count(out, '- Use tabs for indentation in Go files.'), 1, out);
  assert.deepEqual(
    scan.imports.map((r) => r.status),
    ['followed', 'placed'],
  );
});

test('imports outside the repository are reported and never read or copied: ~/, absolute, ../ past the root, a link out', async (t) => {
  const outside = tempDir(t, 'co-outside-');
  fs.writeFileSync(path.join(outside, 'secret.md'), '- SECRET personal rule.\n');
  const repo = sandbox(t);
  writeFile(
    repo,
    'CLAUDE.md',
    [
      '# Project',
      '',
      '- Shared rule for all.',
      '',
      '- @~/.claude/my-project-instructions.md',
      `@${path.join(outside, 'secret.md')}`,
      '@../../secret.md',
      '@linked/secret.md',
      '',
    ].join('\n'),
  );
  fs.symlinkSync(outside, path.join(repo, 'linked'));
  const { scan, plan } = await planRepo(repo);
  const out = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.match(out, /Shared rule for all/);
  assert.doesNotMatch(out, /SECRET|@~|my-project-instructions|secret\.md/, out);
  assert.deepEqual(
    scan.imports.map((r) => r.status),
    ['outside', 'outside', 'outside', 'outside'],
  );
  assert.equal(plan.notes.filter((n) => /outside the repository: it is never read or copied/.test(n)).length, 4, plan.notes.join('\n'));
  assert.ok(!scan.files.has('linked/secret.md'));
});

test('import cycles end: two files that only import each other, and an imported file importing its importer', async (t) => {
  const { content, scan } = await plannedSandbox(t, {
    'CLAUDE.md': '@GEMINI.md\n',
    'GEMINI.md': '@CLAUDE.md\n',
    'pkg/CLAUDE.md': '- Pkg rule.\n\n@notes.md\n',
    'pkg/notes.md': '- Note rule.\n\n@./more.md\n',
    'pkg/more.md': '- More rule.\n\n@notes.md\n',
  });
  assert.deepEqual(
    scan.sources.filter((s) => s.aliasOf).map((s) => s.path),
    [],
  );
  const out = content('.github/instructions/pkg.instructions.md')!;
  for (const l of ['- Pkg rule.', '- Note rule.', '- More rule.']) assert.equal(count(out, l), 1, out);
  assert.doesNotMatch(out, /^@/m);
  assert.deepEqual(
    scan.imports.filter((r) => r.from.startsWith('pkg/')).map((r) => `${r.from} ${r.status}`),
    ['pkg/CLAUDE.md followed', 'pkg/notes.md followed', 'pkg/more.md cycle'],
  );
});

test('@ in AGENTS.md, inside a sentence or in a code block is text, not an import', async (t) => {
  const { content, scan } = await plannedSandbox(t, {
    'AGENTS.md': '@README.md\n',
    'CLAUDE.md': '- See @README.md for the overview.\n\n```python\n@pytest.fixture\n```\n\n@Override\n',
    'README.md': '# Readme\n',
  });
  const out = content(COPILOT)!;
  // Not followed: an `@path` naming a repository file becomes a link that leads to it from the new file (issue 40).
  assert.match(out, /^\[README\.md\]\(\.\.\/README\.md\)$/m);
  assert.match(out, /See \[README\.md\]\(\.\.\/README\.md\) for the overview/);
  assert.match(out, /^@pytest\.fixture$/m);
  assert.match(out, /^@Override$/m);
  assert.deepEqual(scan.imports, []);
});

test('a CLAUDE.md of several imports, one of them AGENTS.md, points at AGENTS.md: it is not offered for removal, and AGENTS.md cannot be removed', async (t) => {
  const { scan, plan } = await plannedSandbox(t, {
    'AGENTS.md': '- Run pnpm test before pushing.\n',
    'CLAUDE.md': '@./AGENTS.md\n@./README.md\n',
  });
  assert.equal(scan.sources.find((s) => s.path === 'CLAUDE.md')!.aliasOf, 'AGENTS.md');
  assert.ok(!plan.legacy.some((l) => l.path === 'CLAUDE.md'));
  assert.deepEqual(plan.legacy.find((l) => l.path === 'AGENTS.md')!.fates, ['keep']);
  assert.ok(plan.notes.some((n) => n.startsWith('CLAUDE.md:2 imports @./README.md, which does not exist in the repository')));
});

test("an imported file's lines land where the import is placed, and what repeats word for word in that one section is written once and named (issue 40)", async (t) => {
  const { repo, content, plan } = await plannedSandbox(t, {
    'pkg/CLAUDE.md': '- Run the tests.\n\n@style.md\n',
    'pkg/style.md': '- Run the tests.\n- Use tabs.\n- Run the tests.\n',
  });
  const out = content('.github/instructions/pkg.instructions.md')!;
  assert.match(out, /^applyTo: "pkg\/\*\*"$/m, 'placed with the scope of the file that imports it');
  assert.equal(count(out, '- Run the tests.'), 1, out);
  assert.equal(count(out, '- Use tabs.'), 1, out);
  // Every line not written is named in merged, with the line it repeats.
  assert.deepEqual(plan.merged.filter((m) => m.text === '- Run the tests.').length, 2, JSON.stringify(plan.merged));
  assert.doesNotMatch(out, /^@/m);
  const { plan: again } = await applyAndReplan(repo, plan);
  assert.deepEqual(
    again.operations.map((o) => `${o.op} ${o.path}`),
    [],
  );
});

test("an import of a file git ignores, or of a file under .git, is never read into Copilot's files", async (t) => {
  const repo = sandbox(t);
  writeFile(repo, '.gitignore', 'CLAUDE.local.md\n');
  writeFile(repo, 'CLAUDE.local.md', '- PERSONAL note: my token lives in ~/.secrets.\n');
  writeFile(repo, '.git/info/notes.md', '- GIT internal text.\n');
  writeFile(repo, 'CLAUDE.md', '- Shared rule.\n\n@CLAUDE.local.md\n@.git/info/notes.md\n@.git/config\n');
  const { scan, plan } = await planRepo(repo);
  const out = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.match(out, /Shared rule/);
  assert.doesNotMatch(out, /PERSONAL|GIT internal|repositoryformatversion|@/);
  assert.deepEqual(
    scan.imports.map((r) => r.status),
    ['ignored', 'ignored', 'not_text'],
  );
  assert.ok(plan.notes.some((n) => n.startsWith('CLAUDE.md:3 imports @CLAUDE.local.md, which git ignores')));
});
