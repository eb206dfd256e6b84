import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.js';
import { withLock } from '../../server/src/state/lock.js';

test('two takers of a dead lock: one gets it, the other is told the repository is busy, never an internal error', async (t) => {
  const repo = sandbox(t);
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  fs.mkdirSync(path.join(repo, '.copilot-state/operation.lock'), { recursive: true });
  await new Promise((r) => setTimeout(r, 20));
  fs.writeFileSync(
    path.join(repo, '.copilot-state/operation.lock-owner.json'),
    JSON.stringify({ pid: Number(dead), host: os.hostname(), command: 'migrate', since: new Date().toISOString() }),
  );
  const hold = () => withLock(repo, 'operation', 'propose', () => new Promise((r) => setTimeout(() => r('done'), 300)));
  const results = await Promise.allSettled([hold(), hold(), hold()]);
  const won = results.filter((r) => r.status === 'fulfilled');
  const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  assert.equal(won.length, 1, JSON.stringify(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.value))));
  for (const l of lost) {
    assert.match(String(l.reason.message), /^Another copilot-onboard is working on this repository/);
  }
});

/** A clone's committed lock folder, with something in it (copilot-onboard's own locks are empty folders), fresh or old. */
for (const age of ['fresh, as a clone or unpack leaves it', 'old, as an archive keeps its mtime']) {
  test(`a lock folder the clone brought (non-empty, ${age}) blocks neither propose nor approve, and no message shows an absolute path`, async (t) => {
    const { CLI, openSession, outcomeOf, textOf, yesToAll } = await import('../helpers/mcp.js');
    const git = (...args: string[]) =>
      spawnSync('git', ['-C', repo, '-c', 'user.name=a', '-c', 'user.email=a@b', ...args], { encoding: 'utf8' });
    const repo = sandbox(t, { 'AGENTS.md': '# Agents\n\n- Use pnpm for packages.\n' });
    fs.mkdirSync(path.join(repo, '.copilot-state/operation.lock/inner'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.copilot-state/operation.lock/inner/x'), 'brought\n');
    fs.writeFileSync(
      path.join(repo, '.copilot-state/operation.lock-owner.json'),
      JSON.stringify({ pid: 1, host: os.hostname(), command: 'migrate', since: new Date().toISOString() }),
    );
    if (age.startsWith('old')) {
      const old = new Date('2020-01-01');
      fs.utimesSync(path.join(repo, '.copilot-state/operation.lock'), old, old);
    }
    git('add', '-A', '-f');
    git('commit', '-qm', 'a committed lock');
    const r = spawnSync(process.execPath, [CLI, 'propose', '--repo', repo], { encoding: 'utf8', input: '', timeout: 60_000 });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /Internal error|ENOTEMPTY|Another copilot-onboard/);
    assert.ok(!r.stderr.includes(repo), 'no absolute path');
    const s = await openSession(t, { repo, elicit: yesToAll });
    const approved = await s.call('onboarding_approve');
    assert.equal(outcomeOf(approved), 'approved', textOf(approved));
    assert.doesNotMatch(textOf(approved), /Internal error|ENOTEMPTY|Another copilot-onboard/);
    assert.ok(!textOf(approved).includes(repo), 'no absolute path');
  });
}
