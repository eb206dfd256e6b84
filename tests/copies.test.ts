import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { analyze } from '../server/src/analysis/analyze.js';
import { buildPlan } from '../server/src/planning/plan.js';
import { scanRepository } from '../server/src/analysis/scan.js';
import { makeRepo, removeRepo, writeFile } from './helpers/sandbox.js';

const COPILOT = '.github/copilot-instructions.md';

async function planOf(files: Record<string, string>) {
  const repo = makeRepo(files);
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan));
  const content = (p: string) => plan.operations.find((o) => o.path === p)?.content ?? null;
  return { repo, scan, plan, content };
}

const RULES = [
  '# Project rules',
  '',
  '## Build',
  '',
  '- Build with `pnpm build`.',
  '- Never commit the dist folder.',
  '',
  '## Testing',
  '',
  '- Run `pnpm test` before pushing.',
  '- Every bug fix comes with a regression test.',
  '- Mock the network in unit tests.',
  '',
  '## Style',
  '',
  '- Use named exports only.',
  '- Keep functions under forty lines.',
  '- Prefer early returns over nested ifs.',
  '- Write comments that say why, not what.',
  '- Name booleans as questions: isReady, hasItems.',
  '- Keep one component per file.',
  '',
  '## Git',
  '',
  '- Write commit messages in the imperative.',
  '- Rebase on main before opening a pull request.',
  '- Keep pull requests under 400 lines.',
  '- Link the issue in the pull request body.',
  '',
];

/** The same file, drifted: one rule reworded, one added. */
const DRIFTED = RULES.map((l) => (l === '- Run `pnpm test` before pushing.' ? '- Run `pnpm test` and `pnpm lint` before pushing.' : l));
DRIFTED.splice(DRIFTED.indexOf('- Keep functions under forty lines.') + 1, 0, '- Avoid default exports in new files.');

test('a drifted copy of AGENTS.md in CLAUDE.md: one source is migrated, the copy is left out, and the differences are one diff in the notes', async (t) => {
  const { repo, scan, plan, content } = await planOf({ 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': DRIFTED.join('\n') });
  t.after(() => removeRepo(repo));
  // CLAUDE.md has one line more: it is the most complete and is kept.
  assert.deepEqual(scan.copies.map((c) => `${c.path} -> ${c.keptPath}`), ['AGENTS.md -> CLAUDE.md']);
  assert.match(scan.sources.find((s) => s.path === 'AGENTS.md')!.notRule!, /^a copy of CLAUDE\.md \(\d+% of its lines are the same\)/);
  const out = content(COPILOT)!;
  assert.equal(out.split('\n').filter((l) => /pnpm test/.test(l)).length, 1, `no two variants of one sentence side by side:\n${out}`);
  assert.match(out, /pnpm test` and `pnpm lint`/);
  const diff = plan.notes.find((n) => n.startsWith('The differences between CLAUDE.md (migrated) and its copy AGENTS.md (left out), as one diff'))!;
  assert.ok(diff, plan.notes.join('\n'));
  assert.match(diff, /^--- a\/CLAUDE\.md$/m);
  assert.match(diff, /^-- Run `pnpm test` and `pnpm lint` before pushing\.$/m);
  assert.match(diff, /^\+- Run `pnpm test` before pushing\.$/m);
  assert.match(diff, /^-- Avoid default exports in new files\.$/m);
  assert.deepEqual(plan.legacy.find((l) => l.path === 'AGENTS.md')!.fates, ['keep', 'migrate'], 'the left-out copy is not offered for removal');
});

test('a copy marked "generated from AGENTS.md" keeps AGENTS.md as the source even when shorter', async (t) => {
  const { repo, scan, content } = await planOf({
    'AGENTS.md': '- Use pnpm.\n- Run the tests.\n',
    '.cursorrules': '<!-- generated from AGENTS.md; do not edit -->\n- Use pnpm.\n- Run the tests.\n- An old rule nobody removed.\n',
  });
  t.after(() => removeRepo(repo));
  assert.deepEqual(scan.copies.map((c) => `${c.path} -> ${c.keptPath}`), ['.cursorrules -> AGENTS.md']);
  assert.match(scan.copies[0]!.why, /says "<!-- generated from AGENTS\.md/);
  assert.doesNotMatch(content(COPILOT)!, /old rule nobody removed/);
});

test('a file that is only a link to another instruction file points at it: its rules are read once', async (t) => {
  const { repo, scan, content } = await planOf({
    'AGENTS.md': '- Use pnpm.\n- Run the tests.\n',
    'CLAUDE.md': '# Claude\n\nSee [AGENTS.md](./AGENTS.md) for all rules.\n',
  });
  t.after(() => removeRepo(repo));
  assert.equal(scan.sources.find((s) => s.path === 'CLAUDE.md')!.aliasOf, 'AGENTS.md');
  assert.doesNotMatch(content(COPILOT)!, /See \[AGENTS/);
});

test('files that share rules but are not copies, and copies with a narrower kept scope, are merged as before', async (t) => {
  const half = RULES.slice(0, 12).join('\n') + '\n- A different rule.\n- Another one.\n- And a third.\n';
  const { repo, scan } = await planOf({ 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': half, 'pkg/AGENTS.md': DRIFTED.join('\n') });
  t.after(() => removeRepo(repo));
  // pkg/AGENTS.md is the most complete, but applies only below pkg/: the root file is not its copy.
  assert.deepEqual(scan.copies, []);
});

test('after a migration that kept the files, the next plan is a no-op', async (t) => {
  const { repo, plan } = await planOf({ 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': DRIFTED.join('\n') });
  t.after(() => removeRepo(repo));
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  const scan = await scanRepository(repo);
  assert.deepEqual(buildPlan(scan, analyze(scan)).operations.map((o) => o.path), []);
  assert.ok(fs.existsSync(path.join(repo, 'AGENTS.md')));
});

test('a Copilot file that says it is a hand-kept distillation of AGENTS.md is left as it is, and AGENTS.md is not merged into it', async (t) => {
  const copilot = '# Review instructions\n\n> **`AGENTS.md` is the source of truth.** This file is a review-focused distillation of it, kept in sync by hand.\n\n- Flag any new dependency.\n';
  const { repo, scan, plan } = await planOf({ [COPILOT]: copilot, 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': '@./AGENTS.md\n' });
  t.after(() => removeRepo(repo));
  const written = plan.operations.map((o) => o.content ?? '').join('\n');
  assert.doesNotMatch(written, /Never commit the dist folder|named exports/, 'no rule of AGENTS.md is merged into the distillation');
  assert.ok(!plan.operations.some((o) => o.path === 'AGENTS.md' || o.path === 'CLAUDE.md'));
  assert.match(scan.sources.find((s) => s.path === 'AGENTS.md')!.notRule!, /^the source \.github\/copilot-instructions\.md says it is written from by hand/);
  assert.ok(plan.notes.some((n) => n.startsWith('.github/copilot-instructions.md is kept as the hand-written distillation of AGENTS.md')), plan.notes.join('\n'));
  assert.deepEqual(plan.legacy.find((l) => l.path === 'AGENTS.md')!.fates, ['keep', 'migrate'], 'the source is never offered for removal');
});
