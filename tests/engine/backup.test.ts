/**
 * engine/backup.ts in process, on real folders: what createBackup saves (bytes, modes, the folders a
 * migration will make) and how readManifest refuses a manifest it cannot trust.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BackupDamagedError, createBackup, readManifest } from '../../server/src/engine/backup.js';
import { sealed } from '../../server/src/state/binding.js';
import { sha256 } from '../../server/src/common/hash.js';
import { modeOf, operation } from '../helpers/engine.js';
import { hashTree, sandbox } from '../helpers/sandbox.js';

const BACKUPS = '.copilot-state/backups';
/** Bytes a text reader would change: a BOM, CRLF, a lone CR, a NUL, invalid UTF-8, no final newline. */
const ODD = Buffer.concat([Buffer.from('\uFEFF# Rules\r\n- one\r- two\n'), Buffer.from([0, 0xff, 0xfe, 0x80]), Buffer.from('end')]);

test('createBackup saves each original byte for byte with its mode, and a manifest that lists them', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': ODD, 'tools/run.sh': '#!/bin/sh\necho hi\n', '.github/copilot-instructions.md': '# Old\n' });
  fs.chmodSync(path.join(repo, 'AGENTS.md'), 0o640);
  fs.chmodSync(path.join(repo, 'tools/run.sh'), 0o755);
  const ops = [
    operation(repo, '.github/copilot-instructions.md', '# New\n'),
    operation(repo, 'AGENTS.md', null),
    operation(repo, 'tools/run.sh', '#!/bin/sh\necho bye\n'),
    operation(repo, '.github/instructions/web.instructions.md', '- Web rule.\n'),
  ];
  const before = hashTree(repo);
  const manifest = await createBackup(repo, 'm1', 'a'.repeat(64), ops);

  assert.deepEqual(fs.readFileSync(path.join(repo, BACKUPS, 'm1/files/AGENTS.md')), ODD, 'the odd bytes are kept as they are');
  assert.equal(fs.readFileSync(path.join(repo, BACKUPS, 'm1/files/tools/run.sh'), 'utf8'), '#!/bin/sh\necho hi\n');
  assert.equal(fs.readFileSync(path.join(repo, BACKUPS, 'm1/files/.github/copilot-instructions.md'), 'utf8'), '# Old\n');
  assert.equal(
    fs.existsSync(path.join(repo, BACKUPS, 'm1/files/.github/instructions')),
    false,
    'nothing is saved for a file that does not exist yet',
  );
  assert.deepEqual(hashTree(repo), before, 'no repository file is touched');

  const byPath = Object.fromEntries(manifest.files.map((f) => [f.path, f]));
  assert.equal(byPath['AGENTS.md']!.mode, 0o640);
  assert.equal(byPath['tools/run.sh']!.mode, 0o755);
  assert.deepEqual(
    {
      existed: byPath['AGENTS.md']!.existed,
      sha256: byPath['AGENTS.md']!.sha256,
      backup: byPath['AGENTS.md']!.backup,
      after: byPath['AGENTS.md']!.afterSha256,
    },
    { existed: true, sha256: sha256(ODD), backup: 'files/AGENTS.md', after: null },
  );
  const created = byPath['.github/instructions/web.instructions.md']!;
  assert.deepEqual(
    { existed: created.existed, sha256: created.sha256, backup: created.backup, mode: created.mode },
    { existed: false, sha256: null, backup: null, mode: undefined },
  );
  assert.deepEqual(manifest.createdDirs, ['.github/instructions'], 'the folder the migration will make, and only that one');
  assert.equal(manifest.dirModes?.tools, modeOf(path.join(repo, 'tools')));
  assert.deepEqual(
    manifest.files.map((f) => f.path),
    ops.map((o) => o.path),
    'in the order of the operations',
  );

  const { binding, ...onDisk } = JSON.parse(fs.readFileSync(path.join(repo, BACKUPS, 'm1/manifest.json'), 'utf8'));
  assert.deepEqual(onDisk, JSON.parse(JSON.stringify(manifest)), 'the manifest on disk is the one returned');
  assert.match(binding, /^hmac-sha256:[0-9a-f]{64}$/, 'sealed to this clone');
  assert.deepEqual(await readManifest(repo, 'm1'), manifest);
});

test('createBackup lists every missing folder on the way, shallowest first', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '- A rule.\n' });
  const manifest = await createBackup(repo, 'm1', 'a'.repeat(64), [
    operation(repo, 'a/b/c/x.md', '- x\n'),
    operation(repo, 'a/d/y.md', '- y\n'),
  ]);
  assert.deepEqual(manifest.createdDirs, ['a', 'a/b', 'a/b/c', 'a/d']);
});

test('createBackup refuses a backup folder that exists already, and leaves it as it was', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '- A rule.\n', [`${BACKUPS}/m1/manifest.json`]: '{"kept": true}\n' });
  await assert.rejects(
    createBackup(repo, 'm1', 'a'.repeat(64), [operation(repo, 'AGENTS.md', null)]),
    /backup folder \.copilot-state\/backups\/m1\/ already exists/,
  );
  assert.equal(fs.readFileSync(path.join(repo, BACKUPS, 'm1/manifest.json'), 'utf8'), '{"kept": true}\n');
  assert.equal(fs.existsSync(path.join(repo, BACKUPS, 'm1/files')), false);
});

for (const [what, bytes, message] of [
  ['missing', null, /manifest\.json cannot be read \(it does not exist\)/],
  ['not JSON', '{"version": 1,', /manifest\.json cannot be read \(/],
  ['JSON that fails its schema, sealed here', { version: 2, id: 'm1' }, /manifest\.json does not match its schema/],
  ['the right shape, not written here', 'original', /manifest\.json was not written in this clone/],
] as const) {
  test(`readManifest refuses a manifest that is ${what}, naming it`, async (t) => {
    const repo = sandbox(t, { 'AGENTS.md': '- A rule.\n' });
    await createBackup(repo, 'm1', 'a'.repeat(64), [operation(repo, 'AGENTS.md', null)]);
    const file = path.join(repo, BACKUPS, 'm1/manifest.json');
    if (bytes === null) fs.rmSync(file);
    else if (bytes === 'original')
      fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), binding: undefined }));
    else if (typeof bytes === 'object') fs.writeFileSync(file, JSON.stringify(await sealed(repo, `${BACKUPS}/m1/manifest.json`, bytes)));
    else fs.writeFileSync(file, bytes);
    const err = await readManifest(repo, 'm1').then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof BackupDamagedError, `a BackupDamagedError, not ${String(err)}`);
    assert.match(err.message, /^\.copilot-state\/backups\/m1\//);
    assert.match(err.message, message);
  });
}
