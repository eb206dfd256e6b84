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
