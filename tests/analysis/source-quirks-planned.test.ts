import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { analyze } from '../../server/src/analysis/analyze.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { globList } from '../../server/src/model/frontmatter.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';

async function planOf(repo: string) {
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan));
  const content = (p: string) => plan.operations.find((o) => o.path === p)?.content ?? null;
  return { scan, plan, content };
}

/** Write every operation's content to disk, as a migration would. */
function apply(repo: string, plan: Awaited<ReturnType<typeof planOf>>['plan']) {
  for (const op of plan.operations) {
    const abs = path.join(repo, op.path);
    if (op.content === null) fs.rmSync(abs);
    else writeFile(repo, op.path, op.content);
  }
}

test('@path imports resolve against the importing file, then the folder that holds .claude/', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '- Root rule for everything here.\n',
    'pkg/AGENTS.md': '- Package rule for pkg only.\n',
    'pkg/CLAUDE.md': '@AGENTS.md\n',
    '.claude/CLAUDE.md': '@../AGENTS.md\n',
    'web/.claude/CLAUDE.md': '@AGENTS.md\n',
    'web/AGENTS.md': '- Web rule for web only.\n',
  });
  const { scan } = await planOf(repo);
  const alias = (p: string) => scan.sources.find((s) => s.path === p)!.aliasOf;
  assert.equal(alias('pkg/CLAUDE.md'), 'pkg/AGENTS.md');
  assert.equal(alias('.claude/CLAUDE.md'), 'AGENTS.md');
  assert.equal(alias('web/.claude/CLAUDE.md'), 'web/AGENTS.md');
});

test('a pointer written by the plan is read back as an alias: the next plan changes nothing', async (t) => {
  const repo = sandbox(t, {
    'pkg/CLAUDE.md': '- Package rule that moves to Copilot.\n',
    'CLAUDE.md': '- Root rule that moves to Copilot.\n',
  });
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan), { legacy: { 'pkg/CLAUDE.md': 'pointer', 'CLAUDE.md': 'pointer' }, conflicts: {} });
  assert.equal(plan.operations.find((o) => o.path === 'pkg/CLAUDE.md')!.content, '@../.github/instructions/pkg.instructions.md\n');
  apply(repo, plan);
  const again = await planOf(repo);
  assert.deepEqual(
    again.plan.operations.map((o) => `${o.op} ${o.path}`),
    [],
  );
});

test('brace globs keep their commas: *.{ts,tsx} is one glob', async (t) => {
  assert.deepEqual(globList('*.{ts,tsx}, docs/**'), ['*.{ts,tsx}', 'docs/**']);
  assert.deepEqual(globList('src/{a,b}/**/*.{js,jsx},test/**'), ['src/{a,b}/**/*.{js,jsx}', 'test/**']);
  const repo = sandbox(t, { 'web/.cursor/rules/x.mdc': '---\nglobs: *.{ts,tsx}\n---\n- Components are typed.\n' });
  const { content } = await planOf(repo);
  assert.match(content('.github/instructions/web-x.instructions.md')!, /^applyTo: "web\/\*\*\/\*\.\{ts,tsx\}"$/m);
});

test('the plan does not depend on the system locale', async (t) => {
  const repo = sandbox(t, {
    '.cursor/rules/aa.mdc': '---\nglobs: a/**\n---\n- Rule for a.\n',
    '.cursor/rules/b.mdc': '---\nglobs: b/**\n---\n- Rule for b.\n',
    '.cursor/rules/Z.mdc': '---\nglobs: z/**\n---\n- Rule for z.\n',
    'AGENTS.md': '- Root rule.\n',
  });
  const run = (lang: string) =>
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('./server/src/analysis/discovery/scan.ts').then(async (s) => { const { buildPlan } = await import('./server/src/planning/plan.ts'); const p = buildPlan(await s.scanRepository(${JSON.stringify(repo)})); process.stdout.write(p.planHash + p.operations.map((o) => o.path).join()); })`,
      ],
      {
        env: { ...process.env, LANG: lang, LC_ALL: lang },
        encoding: 'utf8',
      },
    );
  assert.equal(run('da_DK.UTF-8'), run('C'));
});

test('a Copilot file that is a symlink is never written through: its target stays, and other repo-wide rules go to a scoped file for every path', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# Agents\n\n- Use pnpm for packages.\n', '.cursorrules': '- Prefer small functions.\n' });
  fs.mkdirSync(path.join(repo, '.github'));
  fs.symlinkSync('../AGENTS.md', path.join(repo, '.github/copilot-instructions.md'));
  const { plan, content } = await planOf(repo);
  assert.deepEqual(
    plan.operations.map((o) => `${o.op} ${o.path}`),
    ['create .github/instructions/repo-wide.instructions.md'],
  );
  assert.equal(content('.github/instructions/repo-wide.instructions.md'), '---\napplyTo: "**"\n---\n\n- Prefer small functions.\n');
  assert.ok(
    plan.notes.some((n) => n.startsWith('.github/copilot-instructions.md is a symlink to ../AGENTS.md')),
    plan.notes.join('\n'),
  );
  // AGENTS.md is what the link shows: it stays; .cursorrules's rules moved, so it may go.
  assert.deepEqual(plan.legacy.find((l) => l.path === 'AGENTS.md')!.fates, ['keep']);
  assert.deepEqual(plan.legacy.find((l) => l.path === '.cursorrules')!.fates, ['keep', 'remove']);
  const scan = await scanRepository(repo);
  const chosen = buildPlan(scan, analyze(scan), { legacy: { '.cursorrules': 'remove', 'AGENTS.md': 'remove' }, conflicts: {} });
  assert.deepEqual(
    chosen.operations.map((o) => `${o.op} ${o.path}`),
    ['delete .cursorrules', 'create .github/instructions/repo-wide.instructions.md'],
  );
  assert.ok(fs.lstatSync(path.join(repo, '.github/copilot-instructions.md')).isSymbolicLink());
});

test('a legacy file that is a symlink can be kept, never removed or replaced (that would change its target)', async (t) => {
  const repo = sandbox(t, { 'docs/ai.md': '- Run the tests before you push.\n' });
  fs.symlinkSync('docs/ai.md', path.join(repo, 'CLAUDE.md'));
  const scan = await scanRepository(repo);
  const base = buildPlan(scan, analyze(scan));
  assert.deepEqual(base.legacy.find((l) => l.path === 'CLAUDE.md')!.fates, ['keep']);
  for (const fate of ['remove', 'pointer'] as const) {
    const plan = buildPlan(scan, analyze(scan), { legacy: { 'CLAUDE.md': fate }, conflicts: {} });
    assert.deepEqual(
      plan.operations.map((o) => `${o.op} ${o.path}`),
      ['create .github/copilot-instructions.md'],
      fate,
    );
  }
});

test('an existing Copilot file that is not UTF-8 is not planned over: repo-wide rules go to a scoped file for every path', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '- Use pnpm for packages.\n',
    '.github/copilot-instructions.md': Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0x0a]),
  });
  const { plan, content } = await planOf(repo);
  assert.deepEqual(
    plan.operations.map((o) => `${o.op} ${o.path}`),
    ['create .github/instructions/repo-wide.instructions.md'],
  );
  assert.equal(content('.github/instructions/repo-wide.instructions.md'), '---\napplyTo: "**"\n---\n\n- Use pnpm for packages.\n');
  assert.ok(
    plan.notes.some((n) => n.startsWith('.github/copilot-instructions.md could not be read (not utf8)')),
    plan.notes.join('\n'),
  );
  assert.ok(!plan.legacy.some((l) => l.fates.includes('replace')), 'only a link can be replaced');
});

test('applying an operation refuses to write or remove through a symlink', async (t) => {
  const { applyOperations } = await import('../../server/src/engine/apply.js');
  const repo = sandbox(t, { 'docs/ai.md': 'original\n' });
  fs.symlinkSync('docs/ai.md', path.join(repo, 'CLAUDE.md'));
  for (const op of [
    { op: 'delete' as const, content: null },
    { op: 'update' as const, content: 'new\n' },
  ]) {
    await assert.rejects(applyOperations(repo, [{ ...op, path: 'CLAUDE.md', beforeSha256: null, afterSha256: null, diff: '' }]), /symlink/);
  }
  assert.equal(fs.readFileSync(path.join(repo, 'docs/ai.md'), 'utf8'), 'original\n');
  assert.ok(fs.lstatSync(path.join(repo, 'CLAUDE.md')).isSymbolicLink());
});

test('a rule file with front matter and no body adds nothing, and an empty legacy file creates no Copilot file', async (t) => {
  const repo = sandbox(t, { '.cursor/rules/empty.mdc': '---\ndescription: Nothing yet\nglobs: src/**\n---\n', 'CLAUDE.md': '' });
  const { plan } = await planOf(repo);
  assert.deepEqual(
    plan.operations.map((o) => o.path),
    [],
  );
});

test('a rule file with front matter and a body: the body moves, the front matter does not repeat', async (t) => {
  const repo = sandbox(t, {
    '.cursor/rules/api.mdc': '---\ndescription: API rules\nglobs: src/api/**\n---\n- Validate every request body.\n',
  });
  const { content } = await planOf(repo);
  assert.equal(
    content('.github/instructions/api.instructions.md'),
    '---\napplyTo: "src/api/**"\ndescription: "API rules"\n---\n\n- Validate every request body.\n',
  );
});

test('an existing Copilot file without a final newline keeps it that way', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': '# Rules\r\n\r\n## Testing\r\n\r\n- Run vitest before pushing.',
    'AGENTS.md': '## Testing\n\n- Cover every bug fix with a test.\n',
  });
  const { content } = await planOf(repo);
  const out = content('.github/copilot-instructions.md')!;
  assert.ok(out.includes('- Cover every bug fix with a test.'), out);
  assert.ok(!out.endsWith('\n'), JSON.stringify(out.slice(-20)));
  assert.ok(!/[^\r]\n/.test(out), 'CRLF kept');
});

test('front matter of AGENTS.md: the description goes with its rules, what cannot go is said', async (t) => {
  const repo = sandbox(t, {
    'sdk/AGENTS.md': '---\ndescription: SDK reference\nglobs: "*.ts"\nalwaysApply: true\n---\n\n# SDK\n\n- Export types from index.ts.\n',
    // With headings, a repo-wide file's description has no place (a heading-less one is written under it: heading-less.test.ts).
    'AGENTS.md': '---\ndescription: Root reference\n---\n\n## Packages\n\n- Use pnpm for packages.\n',
  });
  const { content, plan } = await planOf(repo);
  assert.match(content('.github/instructions/sdk.instructions.md')!, /^description: "SDK reference"$/m);
  assert.ok(!plan.notes.some((n) => n.startsWith('sdk/AGENTS.md: its front matter')), plan.notes.join('\n'));
  assert.ok(
    plan.notes.some((n) => n.startsWith('AGENTS.md: its front matter "description" is not carried into .github/copilot-instructions.md')),
    plan.notes.join('\n'),
  );
});

test('a rule dropped by the person leaves no double gap, and a kept legacy file that still holds it is named', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md':
      '# Rules\n\n## Packages\n\n- Keep the lockfile committed.\n\n- Always use pnpm to install packages.\n\n- Pin exact versions.\n',
    'AGENTS.md': '## Packages\n\n- Always use npm to install packages.\n',
  });
  const scan = await scanRepository(repo);
  const analysis = analyze(scan);
  const base = buildPlan(scan, analysis);
  const conflict = base.conflicts.find((c) => c.locations.some((l) => l.path === 'AGENTS.md'))!;
  assert.ok(conflict, JSON.stringify(analysis.problems));
  const pnpm = conflict.locations.findIndex((l) => l.text.includes('pnpm')) + 1;
  const plan = buildPlan(scan, analysis, { legacy: {}, conflicts: { [conflict.id]: `keep_${pnpm}` } });
  const out = plan.operations.find((o) => o.path === '.github/copilot-instructions.md')?.content ?? '';
  assert.ok(!out.includes('use npm'), out);
  assert.ok(!/\n\n\n/.test(out), JSON.stringify(out));
  assert.ok(
    plan.notes.some((n) => n.startsWith("AGENTS.md:3 is dropped from Copilot's files, but AGENTS.md is kept")),
    plan.notes.join('\n'),
  );
  const npm = conflict.locations.findIndex((l) => l.text.includes('use npm')) + 1;
  const other = buildPlan(scan, analysis, { legacy: {}, conflicts: { [conflict.id]: `keep_${npm}` } }).operations.find(
    (o) => o.path === '.github/copilot-instructions.md',
  )!.content!;
  assert.ok(!other.includes('pnpm') && other.includes('- Keep the lockfile committed.\n\n- Pin exact versions.'), JSON.stringify(other));
  const removed = buildPlan(scan, analysis, { legacy: { 'AGENTS.md': 'remove' }, conflicts: { [conflict.id]: `keep_${pnpm}` } });
  assert.ok(!removed.notes.some((n) => n.includes('is dropped')));
});

test('a .cursorrules that starts with a --- block keeps it as content (the format has no front matter)', async (t) => {
  const repo = sandbox(t, { '.cursorrules': '---\nfoo: bar\n---\n- Cursor rule after a dashed block.\n' });
  const { plan, content } = await planOf(repo);
  const out = content('.github/copilot-instructions.md')!;
  for (const l of ['foo: bar', '- Cursor rule after a dashed block.']) assert.ok(out.includes(l), out);
  apply(repo, plan);
  assert.deepEqual((await planOf(repo)).plan.operations, []);
});

test('a Cursor rule with neither globs nor description nor alwaysApply is planned once, not again on every run', async (t) => {
  const repo = sandbox(t, { '.cursor/rules/a.mdc': '---\nfoo: 1\n---\n- A rule attached by hand.\n' });
  const first = await planOf(repo);
  assert.deepEqual(
    first.plan.operations.map((o) => o.path),
    ['.github/instructions/a.instructions.md'],
  );
  apply(repo, first.plan);
  assert.deepEqual((await planOf(repo)).plan.operations, []);
});

test('a label repeated before different content stays at every place; with its content it merges', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md':
      '# UI\n\n## Form\n\n- Use ha-form for forms.\n\n**Gallery Documentation:**\n\n- `gallery/form.markdown`\n\n## Alert\n\n- Use ha-alert for alerts.\n\n**Gallery Documentation:**\n\n- `gallery/alert.markdown`\n\n```sh\nnpm run gallery\n```\n\n## Tooltip\n\n```sh\nnpm run gallery\n```\n',
  });
  assert.deepEqual((await planOf(repo)).plan.operations, [], 'labels and code examples repeat on purpose inside one file');
  writeFile(
    repo,
    'AGENTS.md',
    '**Gallery Documentation:**\n\n- `gallery/alert.markdown`\n\n**Gallery Documentation:**\n\n- `gallery/new.markdown`\n',
  );
  const { content } = await planOf(repo);
  const out = content('.github/copilot-instructions.md')!;
  assert.equal(out.split('**Gallery Documentation:**').length - 1, 3, out);
  assert.equal(out.split('- `gallery/alert.markdown`').length - 1, 1, out);
  assert.ok(out.includes('**Gallery Documentation:**\n\n- `gallery/new.markdown`'), out);
});

test('removing a legacy file leaves no empty folder behind', async (t) => {
  const { applyOperations } = await import('../../server/src/engine/apply.js');
  const repo = sandbox(t, { '.cursor/rules/a.mdc': '- rule\n', '.cursor/keep/b.txt': 'other\n' });
  await applyOperations(repo, [
    { op: 'delete', path: '.cursor/rules/a.mdc', content: null, beforeSha256: null, afterSha256: null, diff: '' },
  ]);
  assert.equal(fs.existsSync(path.join(repo, '.cursor/rules')), false);
  assert.equal(fs.readFileSync(path.join(repo, '.cursor/keep/b.txt'), 'utf8'), 'other\n', 'a folder with other files stays');
});

test("a second # heading in the person's Copilot file stays as they wrote it (issue 40: their text is fixed ground); the plan is a no-op", async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md':
      '# Project\n\nIntro line.\n\n- Use pnpm.\n- Write tests with vitest.\n\n# Deployment\n\n- Deploy with the release workflow only.\n- Tag releases with semver.\n',
  });
  const { plan } = await planOf(repo);
  assert.deepEqual(plan.operations, []);
});
