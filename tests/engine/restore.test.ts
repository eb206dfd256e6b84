/**
 * engine/restore.ts in process, on real folders: a backup, the operations applied as migrate applies
 * them, then restoreBackup. The tree must come back byte for byte with its modes, folders included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { applyOperations } from '../../server/src/engine/apply.js';
import { BackupDamagedError, createBackup } from '../../server/src/engine/backup.js';
import { editedSinceMigration, restoreBackup } from '../../server/src/engine/restore.js';
import { modeOf, operation, treeWithModes } from '../helpers/engine.js';
import { sandbox, type Cleanup } from '../helpers/sandbox.js';

const BACKUP = '.copilot-state/backups/m1';
const ODD = Buffer.concat([Buffer.from('\uFEFF# Rules\r\n- one\r- two\n'), Buffer.from([0, 0xff, 0xfe]), Buffer.from('no final newline')]);

/** A repository with odd bytes, modes of its own (files and folders), and a legacy file alone in its folders. */
function repoWithModes(t: Cleanup): string {
  const repo = sandbox(t, {
    'AGENTS.md': ODD,
    'tools/run.sh': '#!/bin/sh\necho hi\n',
    '.cursor/rules/api.mdc': '---\nglobs: src/**\n---\n- API rule.\n',
    '.github/copilot-instructions.md': '# Old\n',
  });
  fs.chmodSync(path.join(repo, 'AGENTS.md'), 0o600);
  fs.chmodSync(path.join(repo, 'tools/run.sh'), 0o755);
  fs.chmodSync(path.join(repo, '.cursor/rules'), 0o750);
  fs.chmodSync(path.join(repo, '.cursor'), 0o700);
  return repo;
}

/** Back up, then apply: what a migration leaves on disk. */
async function migrated(repo: string) {
  const ops = [
    operation(repo, '.github/copilot-instructions.md', '# New\n\n- API rule.\n'),
    operation(repo, 'AGENTS.md', '# Agents, rewritten\n'),
    operation(repo, 'tools/run.sh', '#!/bin/sh\necho bye\n'),
    operation(repo, '.cursor/rules/api.mdc', null),
    operation(repo, '.github/instructions/api.instructions.md', '---\napplyTo: "src/**"\n---\n- API rule.\n'),
  ];
  const manifest = await createBackup(repo, 'm1', 'a'.repeat(64), ops);
  await applyOperations(repo, ops);
  return manifest;
}

test('backup, migrate, restore: every file and folder comes back byte for byte with its mode', async (t) => {
  const repo = repoWithModes(t);
  const before = treeWithModes(repo);
  const manifest = await migrated(repo);
  assert.notDeepEqual(treeWithModes(repo), before, 'the migration changed the tree');
  assert.equal(fs.existsSync(path.join(repo, '.cursor')), false, 'removing the only legacy file took its empty folders along');

  const result = await restoreBackup(repo, manifest, []);
  assert.deepEqual(treeWithModes(repo), before);
  assert.deepEqual(fs.readFileSync(path.join(repo, 'AGENTS.md')), ODD);
  assert.equal(modeOf(path.join(repo, '.cursor/rules')), 0o750, 'a removed folder is made again with its own mode');
  assert.equal(modeOf(path.join(repo, '.cursor')), 0o700);
  assert.equal(fs.existsSync(path.join(repo, '.github/instructions')), false, 'the folder the migration made is gone');
  assert.deepEqual(result.removed, ['.github/instructions/api.instructions.md']);
  assert.deepEqual(result.restored.sort(), ['.cursor/rules/api.mdc', '.github/copilot-instructions.md', 'AGENTS.md', 'tools/run.sh']);
  assert.deepEqual(result.savedEdits, []);
});

test('a restore run twice (a rollback resumed after a crash) ends with the same tree', async (t) => {
  const repo = repoWithModes(t);
  const before = treeWithModes(repo);
  const manifest = await migrated(repo);
  await restoreBackup(repo, manifest, []);
  await restoreBackup(repo, manifest, []);
  assert.deepEqual(treeWithModes(repo), before);
});

test('a mode changed after the migration is put back even where the bytes are the original ones', async (t) => {
  const repo = repoWithModes(t);
  const before = treeWithModes(repo);
  const manifest = await migrated(repo);
  fs.writeFileSync(path.join(repo, 'tools/run.sh'), '#!/bin/sh\necho hi\n');
  fs.chmodSync(path.join(repo, 'tools/run.sh'), 0o644);
  await restoreBackup(repo, manifest, []);
  assert.equal(modeOf(path.join(repo, 'tools/run.sh')), 0o755);
  assert.deepEqual(treeWithModes(repo), before);
});

test('an edit made after the migration is saved beside the backup before the original comes back', async (t) => {
  const repo = repoWithModes(t);
  const before = treeWithModes(repo);
  const manifest = await migrated(repo);
  const mine = '# New\n\n- API rule.\n- A rule I added by hand.\n';
  fs.writeFileSync(path.join(repo, '.github/copilot-instructions.md'), mine);
  const edited = await editedSinceMigration(repo, manifest);
  assert.deepEqual(edited, ['.github/copilot-instructions.md']);
  const result = await restoreBackup(repo, manifest, edited);
  assert.deepEqual(result.savedEdits, ['.github/copilot-instructions.md']);
  assert.equal(fs.readFileSync(path.join(repo, BACKUP, 'edited-after-migration/.github/copilot-instructions.md'), 'utf8'), mine);
  assert.deepEqual(treeWithModes(repo), before);
});

test('a created file the person deleted after the migration is reported as deleted, and nothing is saved for it', async (t) => {
  const repo = repoWithModes(t);
  const before = treeWithModes(repo);
  const manifest = await migrated(repo);
  fs.rmSync(path.join(repo, '.github/instructions/api.instructions.md'));
  const edited = await editedSinceMigration(repo, manifest);
  assert.deepEqual(edited, ['.github/instructions/api.instructions.md']);
  const result = await restoreBackup(repo, manifest, edited);
  assert.deepEqual(result.deletedAfterMigration, ['.github/instructions/api.instructions.md']);
  assert.equal(fs.existsSync(path.join(repo, BACKUP, 'edited-after-migration')), false);
  assert.deepEqual(treeWithModes(repo), before);
});

for (const [what, damage] of [
  ['changed', (file: string) => fs.appendFileSync(file, 'tampered\n')],
  ['missing', (file: string) => fs.rmSync(file)],
] as const) {
  test(`a saved original that is ${what} is refused before any file is written`, async (t) => {
    const repo = repoWithModes(t);
    const manifest = await migrated(repo);
    const after = treeWithModes(repo);
    damage(path.join(repo, BACKUP, 'files/tools/run.sh'));
    const err = await restoreBackup(repo, manifest, []).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof BackupDamagedError, `a BackupDamagedError, not ${String(err)}`);
    assert.match(err.message, /\.copilot-state\/backups\/m1\/files\/tools\/run\.sh, the saved original of tools\/run\.sh/);
    assert.deepEqual(treeWithModes(repo), after, 'the migrated files stay as they are');
  });
}
