import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openSession, outcomeOf, textOf, type ElicitAnswer } from '../helpers/mcp.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';

const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });

/** Approve's first round: every legacy file removed; then yes to every form. */
const removeLegacy: ElicitAnswer = (req: any) => {
  const props = req.requestedSchema.properties;
  if ('approved' in props) return { action: 'accept', content: { approved: true } };
  if ('understood_risks' in props) return { action: 'accept', content: { confirmed: true, understood_risks: true } };
  if ('confirmed' in props) return { action: 'accept', content: { confirmed: true } };
  const legacy = Object.keys(props).filter((k) => k.startsWith('legacy'));
  return { action: 'accept', content: Object.fromEntries(legacy.map((k) => [k, 'remove'])) };
};

test('--commit commits a removed rule file named like a pattern (vendo[r]/AGENTS.md), and nothing else the pattern matches', async (t) => {
  const repo = sandbox(t, {
    'vendo[r]/AGENTS.md': '- Rule in a folder whose name holds brackets.\n',
    'vendor/AGENTS.md': '- A vendored file, not one of ours.\n',
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'initial');
  // Someone's own work in progress, which `vendo[r]` as a git pattern would match.
  writeFile(repo, 'vendor/AGENTS.md', '- A vendored file, edited and not committed.\n');

  const s = await openSession(t, { repo, elicit: removeLegacy, args: ['--commit'] });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', textOf(migrated));
  assert.match(textOf(migrated), /Committed as [0-9a-f]+/);

  const committed = git(repo, 'show', '--no-renames', '--name-status', '--format=', 'HEAD').split('\n').filter(Boolean);
  assert.ok(committed.includes('D\tvendo[r]/AGENTS.md'), committed.join('\n'));
  assert.ok(
    !committed.some((l) => l.endsWith('\tvendor/AGENTS.md')),
    `the edit in vendor/AGENTS.md is not committed:\n${committed.join('\n')}`,
  );
  assert.equal(git(repo, 'status', '--porcelain', '--', 'vendor/AGENTS.md'), ' M vendor/AGENTS.md\n', 'it is still an uncommitted edit');
});
