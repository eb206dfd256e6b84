import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, isChoicesRound, openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { sandbox, tempDir } from '../helpers/sandbox.js';

/**
 * Issue 41, CI sees what the person decided: `check` in a fresh clone reports what it reports on the
 * developer's machine right after onboarding (the decisions that change it are in a committed file);
 * the form says before the yes which choice leaves the repository failing `check`; and duplicates
 * count only where the copies' scopes overlap.
 */

const cli = (args: string[]) => {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env });
};
const check = (repo: string) => {
  const r = cli(['check', '--repo', repo, '--format', 'json']);
  const report = JSON.parse(r.stdout) as {
    failed: boolean;
    counts: Record<string, number>;
    findings: { rule: string; locations: { path: string }[] }[];
  };
  return {
    code: r.status,
    failed: report.failed,
    counts: report.counts,
    findings: report.findings.map((f) => ({ rule: f.rule, locations: f.locations })),
  };
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', ...args], { cwd, encoding: 'utf8' });

test('after a migration that kept CLAUDE.md on purpose, check in a fresh clone equals the developer’s check', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
    'CLAUDE.md': '# Project\n\n- Write a test for every bug fix.\n- Keep functions small and named for what they do.\n',
  });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.ok(fs.existsSync(path.join(repo, 'CLAUDE.md')), 'the default keeps CLAUDE.md');
  // Kept on purpose after the migration: never said to be read "only after the migration".
  const analyzed = cli(['analyze', '--repo', repo]).stdout;
  const claudeLine = analyzed.split('\n').find((l) => l.startsWith('- CLAUDE.md'))!;
  assert.ok(claudeLine, analyzed);
  assert.doesNotMatch(claudeLine, /only after the migration/);
  assert.match(analyzed, /CLAUDE\.md is superseded by \.github\/copilot-instructions\.md; kept because you chose to/);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'onboard to Copilot');
  // The record of the decision is committed; this machine's state (onboarding.json, backups) is not.
  const committed = git(repo, 'ls-files', '.copilot-state');
  assert.match(committed, /^\.copilot-state\/decisions\.json$/m);
  assert.doesNotMatch(committed, /onboarding\.json|backups\//);

  const clone = path.join(tempDir(t), 'clone');
  git(path.dirname(clone), 'clone', '-q', repo, clone);
  const mine = check(repo);
  const ci = check(clone);
  assert.equal(mine.counts.duplicate, 0, JSON.stringify(mine.findings));
  assert.deepEqual(ci, mine);
});

test('the choices form says, before the yes, that keeping both sides of a contradiction leaves check failing, and why', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
    'AGENTS.md': '- Use npm to install dependencies.\n- Write a test for every bug fix.\n',
  });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const round = s.elicitations.find(isChoicesRound) as { message: string; requestedSchema: { properties: Record<string, any> } };
  assert.match(
    round.message,
    /Keeping all of them \(the default\) leaves each contradiction in Copilot's files, marked: copilot-onboard check, and the CI workflow that runs it, then fails on it/,
  );
  const keepAll = Object.values(round.requestedSchema.properties)
    .flatMap((p: any) => p.oneOf ?? [])
    .find((o: any) => o.const === 'keep_all');
  assert.match(keepAll.title, /check, in CI too, then fails on it until you settle it/);
});

test('a rule repeated in folders whose scopes do not overlap is no duplicate across them; each copy with the one that meets it is', (t) => {
  const line = '- Keep every exported function documented with examples.\n';
  const scoped = (glob: string) => `---\napplyTo: "${glob}"\n---\n\n# Docs\n\n${line}`;
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
    '.github/instructions/packages-a.instructions.md': scoped('packages/a/**'),
    '.github/instructions/packages-b.instructions.md': scoped('packages/b/**'),
    'packages/a/CLAUDE.md': `# A\n\n${line}`,
    'packages/b/CLAUDE.md': `# B\n\n${line}`,
  });
  const dups = check(repo).findings.filter((f) => f.rule === 'duplicate');
  assert.ok(dups.length > 0);
  for (const d of dups) {
    const paths = d.locations.map((l) => l.path);
    const inA = paths.some((p) => p.includes('packages-a') || p.startsWith('packages/a/'));
    const inB = paths.some((p) => p.includes('packages-b') || p.startsWith('packages/b/'));
    assert.ok(!(inA && inB), `one duplicate across folders that do not overlap: ${paths.join(', ')}`);
  }
});
