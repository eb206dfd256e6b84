import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createFile, removeFile, writeFile } from '../../server/src/repo/safe-fs.js';
import { withLock } from '../../server/src/state/lock.js';
import { tempDir } from '../helpers/sandbox.js';

/** Counts the fsyncs made while `work` runs: of a descriptor (fs.fsync, what safe-fs calls) or of a FileHandle. */
async function syncsDuring(work: () => Promise<unknown>): Promise<number> {
  const probe = await fsp.open(process.execPath, 'r');
  const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const sync = proto.sync;
  const fsync = fs.fsync;
  let count = 0;
  proto.sync = function (this: unknown) {
    count++;
    return sync.call(this);
  };
  fs.fsync = ((...args: Parameters<typeof fs.fsync>) => {
    count++;
    return fsync(...args);
  }) as typeof fs.fsync;
  try {
    await work();
  } finally {
    proto.sync = sync;
    fs.fsync = fsync;
  }
  return count;
}

test('a durable write syncs the file and its folder; durable: false writes it as whole and syncs nothing', async (t) => {
  const repo = tempDir(t, 'co-durable-');
  fs.mkdirSync(path.join(repo, 'a'));
  assert.equal(await syncsDuring(() => writeFile(repo, 'a/x.json', '{"one":1}\n')), 2);
  assert.equal(await syncsDuring(() => createFile(repo, 'a/y.json', '{}\n')), 2);
  assert.equal(await syncsDuring(() => writeFile(repo, 'a/x.json', '{"two":2}\n', { durable: false })), 0);
  assert.equal(fs.readFileSync(path.join(repo, 'a/x.json'), 'utf8'), '{"two":2}\n');
  assert.deepEqual(fs.readdirSync(path.join(repo, 'a')).sort(), ['x.json', 'y.json'], 'no temporary file is left');
  assert.equal(await syncsDuring(() => removeFile(repo, 'a/x.json', { durable: false })), 0);
  assert.equal(await syncsDuring(() => removeFile(repo, 'a/y.json')), 1);
  assert.deepEqual(fs.readdirSync(path.join(repo, 'a')), []);
});

test('the lock owner file, advisory, is written and removed without a sync; what runs under the lock sees it whole', async (t) => {
  const repo = tempDir(t, 'co-durable-');
  let owner: { pid?: number; command?: string } = {};
  const syncs = await syncsDuring(() =>
    withLock(repo, 'traces', 'a test', async () => {
      owner = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/traces.lock-owner.json'), 'utf8'));
    }),
  );
  assert.equal(owner.pid, process.pid);
  assert.equal(owner.command, 'a test');
  assert.equal(fs.existsSync(path.join(repo, '.copilot-state/traces.lock-owner.json')), false);
  // Making .copilot-state/ (the root folder synced) and its .gitignore (the file and its folder): the owner file adds none.
  assert.equal(syncs, 3);
});
