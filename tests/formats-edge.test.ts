import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { analyze } from '../server/src/core/analyze.js';
import { buildPlan } from '../server/src/core/plan.js';
import { scanRepository } from '../server/src/core/scan.js';
import { globList } from '../server/src/core/frontmatter.js';
import { makeRepo, removeRepo, writeFile } from './helpers/sandbox.js';

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
  const repo = makeRepo({
    'AGENTS.md': '- Root rule for everything here.\n',
    'pkg/AGENTS.md': '- Package rule for pkg only.\n',
    'pkg/CLAUDE.md': '@AGENTS.md\n',
    '.claude/CLAUDE.md': '@../AGENTS.md\n',
    'web/.claude/CLAUDE.md': '@AGENTS.md\n',
    'web/AGENTS.md': '- Web rule for web only.\n',
  });
  t.after(() => removeRepo(repo));
  const { scan } = await planOf(repo);
  const alias = (p: string) => scan.sources.find((s) => s.path === p)!.aliasOf;
  assert.equal(alias('pkg/CLAUDE.md'), 'pkg/AGENTS.md');
  assert.equal(alias('.claude/CLAUDE.md'), 'AGENTS.md');
  assert.equal(alias('web/.claude/CLAUDE.md'), 'web/AGENTS.md');
});

test('a pointer written by the plan is read back as an alias: the next plan changes nothing', async (t) => {
  const repo = makeRepo({ 'pkg/CLAUDE.md': '- Package rule that moves to Copilot.\n', 'CLAUDE.md': '- Root rule that moves to Copilot.\n' });
  t.after(() => removeRepo(repo));
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan), { legacy: { 'pkg/CLAUDE.md': 'pointer', 'CLAUDE.md': 'pointer' }, conflicts: {} });
  assert.equal(plan.operations.find((o) => o.path === 'pkg/CLAUDE.md')!.content, '@../.github/instructions/pkg.instructions.md\n');
  apply(repo, plan);
  const again = await planOf(repo);
  assert.deepEqual(again.plan.operations.map((o) => `${o.op} ${o.path}`), []);
});

test('brace globs keep their commas: *.{ts,tsx} is one glob', async (t) => {
  assert.deepEqual(globList('*.{ts,tsx}, docs/**'), ['*.{ts,tsx}', 'docs/**']);
  assert.deepEqual(globList('src/{a,b}/**/*.{js,jsx},test/**'), ['src/{a,b}/**/*.{js,jsx}', 'test/**']);
  const repo = makeRepo({ 'web/.cursor/rules/x.mdc': '---\nglobs: *.{ts,tsx}\n---\n- Components are typed.\n' });
  t.after(() => removeRepo(repo));
  const { content } = await planOf(repo);
  assert.match(content('.github/instructions/web-x.instructions.md')!, /^applyTo: "web\/\*\.\{ts,tsx\}"$/m);
});

test('the plan does not depend on the system locale', async (t) => {
  const repo = makeRepo({
    '.cursor/rules/aa.mdc': '---\nglobs: a/**\n---\n- Rule for a.\n',
    '.cursor/rules/b.mdc': '---\nglobs: b/**\n---\n- Rule for b.\n',
    '.cursor/rules/Z.mdc': '---\nglobs: z/**\n---\n- Rule for z.\n',
    'AGENTS.md': '- Root rule.\n',
  });
  t.after(() => removeRepo(repo));
  const run = (lang: string) =>
    execFileSync(process.execPath, ['--import', 'tsx', '-e', `import('./server/src/core/scan.ts').then(async (s) => { const { buildPlan } = await import('./server/src/core/plan.ts'); const p = buildPlan(await s.scanRepository(${JSON.stringify(repo)})); process.stdout.write(p.planHash + p.operations.map((o) => o.path).join()); })`], {
      env: { ...process.env, LANG: lang, LC_ALL: lang },
      encoding: 'utf8',
    });
  assert.equal(run('da_DK.UTF-8'), run('C'));
});
