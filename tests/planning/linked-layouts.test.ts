import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { analyze } from '../../server/src/analysis/analyze.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { connect, isChoicesRound, openSession, outcomeOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';
import { hashTree, sandbox, type Cleanup } from '../helpers/sandbox.js';

/**
 * Repositories that keep one source of truth under several names: `CLAUDE.md` is the file people
 * edit, `AGENTS.md -> CLAUDE.md`, `.github/copilot-instructions.md -> ../AGENTS.md`, and a Cursor rule
 * that applies always stands beside them.
 */
const CLAUDE = `# Widget service

Guidance for assistants working in this repository.

## Commands

- Run \`make test\` before you push.
- Format with \`make fmt\`.

## Style

- Keep functions short.
`;

const ALWAYS_RULE = `---
description:
globs:
alwaysApply: true
---
There are three kinds of widget objects:

- Gears (src/gears/)
- Levers (src/levers/)
- Springs (src/springs/)

A change to one kind is made, and tested, on all three.
`;

const FALLBACK = '.github/instructions/repo-wide.instructions.md';
const COPILOT = '.github/copilot-instructions.md';

function linkedRepo(t: Cleanup): string {
  const repo = sandbox(t, { 'CLAUDE.md': CLAUDE, '.cursor/rules/widgets.mdc': ALWAYS_RULE });
  fs.symlinkSync('CLAUDE.md', path.join(repo, 'AGENTS.md'));
  fs.mkdirSync(path.join(repo, '.github'));
  fs.symlinkSync('../AGENTS.md', path.join(repo, COPILOT));
  return repo;
}

const read = (repo: string, rel: string) => fs.readFileSync(path.join(repo, rel), 'utf8');
const link = (repo: string, rel: string) =>
  fs.lstatSync(path.join(repo, rel)).isSymbolicLink() ? fs.readlinkSync(path.join(repo, rel)) : null;

/** Yes to every form, and in the approve form the given value for the field that offers it. */
function yesChoosing(value: string): ElicitAnswer {
  return (req) => {
    const props =
      (req as { requestedSchema?: { properties?: Record<string, { oneOf?: { const: string }[] }> } }).requestedSchema?.properties ?? {};
    if (!isChoicesRound(req)) return yesToAll(req);
    const content: Record<string, unknown> = {};
    for (const [name, p] of Object.entries(props)) if (p.oneOf?.some((o) => o.const === value)) content[name] = value;
    return { action: 'accept', content };
  };
}

test('a linked Copilot file is left as it is, and an always-applied Cursor rule lands in a scoped file that applies everywhere', async (t) => {
  const repo = linkedRepo(t);
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan));
  assert.deepEqual(
    plan.operations.map((o) => `${o.op} ${o.path}`),
    [`create ${FALLBACK}`],
  );
  const content = plan.operations[0]!.content!;
  assert.match(content, /^---\napplyTo: "\*\*"\n---\n/);
  for (const line of ALWAYS_RULE.split('\n')
    .slice(5)
    .filter((l) => l.trim() !== ''))
    assert.ok(content.includes(line), line);
  // CLAUDE.md is what Copilot reads through the link: its rules are not copied a second time.
  assert.ok(!content.includes('make test'), content);
  assert.deepEqual(plan.legacy.find((l) => l.path === 'CLAUDE.md')?.fates, ['keep']);
  assert.ok(
    plan.notes.some((n) => n.includes('CLAUDE.md') && n.includes('through the link')),
    plan.notes.join('\n'),
  );
  assert.deepEqual(plan.legacy.find((l) => l.path === COPILOT)?.fates, ['keep', 'replace']);
});

test('the fastmcp shape, whole flow: the rule lands where Copilot reads it, both links stay, and rollback restores byte for byte', async (t) => {
  const repo = linkedRepo(t);
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(link(repo, COPILOT), '../AGENTS.md');
  assert.equal(link(repo, 'AGENTS.md'), 'CLAUDE.md');
  assert.equal(read(repo, 'CLAUDE.md'), CLAUDE);
  assert.match(read(repo, FALLBACK), /There are three kinds of widget objects:\n\n- Gears/);
  const again = (await s.call('onboarding_propose')).structuredContent as any;
  assert.deepEqual(again.operations, [], 'a migrated repository has nothing left to do');
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
});

test("replacing the link: Copilot's file becomes a regular file with the rules, and rollback puts the link back", async (t) => {
  const repo = linkedRepo(t);
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesChoosing('replace') });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', JSON.stringify(approved.structuredContent));
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', JSON.stringify(migrated.structuredContent));
  assert.equal(link(repo, COPILOT), null, 'the link is replaced by a regular file');
  const copilot = read(repo, COPILOT);
  assert.ok(copilot.startsWith(CLAUDE.trimEnd()), copilot);
  assert.match(copilot, /There are three kinds of widget objects:\n\n- Gears/);
  assert.equal(read(repo, 'CLAUDE.md'), CLAUDE, 'the file the link pointed at is not changed');
  assert.equal(link(repo, 'AGENTS.md'), 'CLAUDE.md');
  assert.ok(!fs.existsSync(path.join(repo, FALLBACK)));
  const again = (await s.call('onboarding_propose')).structuredContent as any;
  assert.deepEqual(again.operations, [], 'a migrated repository has nothing left to do');
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.equal(link(repo, COPILOT), '../AGENTS.md', 'rollback restores the link itself, with its target');
  assert.deepEqual(hashTree(repo), before);
});

test('a migrate killed right after the link is removed is undone on the next start: the link is back', async (t) => {
  const repo = linkedRepo(t);
  const before = hashTree(repo);
  {
    const s = await connect({ repo, elicit: yesChoosing('replace') });
    assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
    assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
    await s.close();
  }
  // Journal, state, backup copy, manifest, journal again: the sixth operation removes the link.
  const s = await connect({ repo, elicit: yesChoosing('replace'), env: { COPILOT_ONBOARD_CRASH_AFTER: '6' } });
  await s.call('onboarding_migrate').catch(() => null);
  await s.close().catch(() => null);
  const s2 = await openSession(t, { repo, elicit: yesToAll });
  await s2.call('onboarding_status');
  assert.equal(link(repo, COPILOT), '../AGENTS.md');
  assert.deepEqual(hashTree(repo), before);
});

test('when the link changed after propose, the replacement is refused as stale and nothing changes', async (t) => {
  const repo = linkedRepo(t);
  const s = await openSession(t, { repo, elicit: yesChoosing('replace') });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  // Same content, another link: the person re-pointed it at CLAUDE.md directly.
  fs.unlinkSync(path.join(repo, COPILOT));
  fs.symlinkSync('../CLAUDE.md', path.join(repo, COPILOT));
  const before = hashTree(repo);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'precondition_failed');
  assert.deepEqual(hashTree(repo), before);
});

test('a Copilot file linked to a non-instruction file keeps that file untouched; its rules stay read through the link', async (t) => {
  const repo = sandbox(t, { 'docs/ai.md': '# AI\n\n- Use uv for Python packages.\n', 'GEMINI.md': '- Prefer dataclasses.\n' });
  fs.mkdirSync(path.join(repo, '.github'));
  fs.symlinkSync('../docs/ai.md', path.join(repo, COPILOT));
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan));
  assert.deepEqual(
    plan.operations.map((o) => `${o.op} ${o.path}`),
    [`create ${FALLBACK}`],
  );
  assert.ok(plan.operations[0]!.content!.includes('- Prefer dataclasses.'));
  assert.deepEqual(plan.legacy.find((l) => l.path === 'GEMINI.md')?.fates, ['keep', 'remove', 'pointer']);
  const replaced = buildPlan(scan, analyze(scan), { legacy: { [COPILOT]: 'replace' }, conflicts: {} });
  const op = replaced.operations.find((o) => o.path === COPILOT)!;
  assert.equal(op.op, 'update');
  assert.equal(op.replacesLink, '../docs/ai.md');
  assert.ok(op.content!.startsWith('# AI\n') && op.content!.includes('\n- Use uv for Python packages.\n'), op.content!);
  assert.ok(op.content!.includes('- Prefer dataclasses.'));
  assert.ok(!replaced.operations.some((o) => o.path === FALLBACK));
});

test('a broken link is reported as broken, and a file the migration removed is not', async (t) => {
  const repo = sandbox(t, { 'GEMINI.md': '- Prefer dataclasses.\n', '.cursorrules': '- Keep modules small.\n' });
  fs.symlinkSync('docs/gone.md', path.join(repo, 'AGENTS.md'));
  const { execFileSync } = await import('node:child_process');
  execFileSync('git', ['-C', repo, 'add', '-A']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init']);
  const scan = await scanRepository(repo);
  const broken = scan.skipped.find((s) => s.path === 'AGENTS.md');
  assert.ok(broken && /broken symlink/.test(broken.detail) && broken.detail.includes('docs/gone.md'), JSON.stringify(scan.skipped));
  // A tracked legacy file that is gone from the work tree (the migration removed it) is simply not there.
  fs.rmSync(path.join(repo, '.cursorrules'));
  const after = await scanRepository(repo);
  assert.ok(!after.skipped.some((s) => s.path === '.cursorrules'), JSON.stringify(after.skipped));
  assert.ok(!after.sources.some((s) => s.path === '.cursorrules'));
});

test('a linked legacy file stays an alias read once', async (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': '# Rules\n\n## Tools\n\n- Use pnpm.\n' });
  fs.symlinkSync('.github/copilot-instructions.md', path.join(repo, 'AGENTS.md'));
  fs.symlinkSync('.github/copilot-instructions.md', path.join(repo, 'CLAUDE.md'));
  const scan = await scanRepository(repo);
  assert.deepEqual(
    scan.sources.filter((s) => s.aliasOf).map((s) => `${s.path}->${s.aliasOf}`),
    ['AGENTS.md->.github/copilot-instructions.md', 'CLAUDE.md->.github/copilot-instructions.md'],
  );
  const plan = buildPlan(scan, analyze(scan));
  assert.deepEqual(plan.operations, []);
});
