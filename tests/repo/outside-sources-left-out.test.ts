import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { outsideDir, snapshot, repoWithRules } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: A source that leaves the repository is left out, and blocks nothing.
 */

test('AGENTS.md as a link out of the repository is left out, and approve, migrate and rollback go on without it', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'agents.md'), '# Outside\n\n- Use npm for packages.\n');
  fs.symlinkSync(path.join(outside, 'agents.md'), path.join(repo, 'AGENTS.md'));
  const before = snapshot(outside);
  const s = await openSession(t, { repo, elicit: yesToAll });
  const a = await s.call('onboarding_analyze');
  const skipped = (a.structuredContent as { skipped: { path: string; reason: string }[] }).skipped;
  assert.deepEqual(
    skipped.map((x) => `${x.path}:${x.reason}`),
    ['AGENTS.md:symlink_outside'],
  );
  assert.doesNotMatch(textOf(a), /Use npm/);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'proposed');
  assert.ok(!(p.structuredContent as { operations: { path: string }[] }).operations.some((o) => o.path === 'AGENTS.md'));
  const ap = await s.call('onboarding_approve');
  assert.equal(outcomeOf(ap), 'approved', textOf(ap));
  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'migrated', textOf(m));
  assert.equal(fs.readlinkSync(path.join(repo, 'AGENTS.md')), path.join(outside, 'agents.md'));
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'rolled_back', textOf(r));
  assert.equal(fs.readlinkSync(path.join(repo, 'AGENTS.md')), path.join(outside, 'agents.md'));
  assert.deepEqual(snapshot(outside), before);
});

test('a source behind a folder link that leaves the repository is left out too, and blocks nothing', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'folder', 'CLAUDE.md'), '- Use yarn.\n');
  fs.symlinkSync(path.join(outside, 'folder'), path.join(repo, 'docs'));
  execFileSync('git', ['-C', repo, 'add', '-A']);
  const before = snapshot(outside);
  const s = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  const ap = await s.call('onboarding_approve');
  assert.equal(outcomeOf(ap), 'approved', textOf(ap));
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.deepEqual(snapshot(outside), before);
});
