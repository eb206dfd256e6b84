import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { connect, isChoicesRound, openSession, outcomeOf, textOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';
import { hashTree, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

/** Rollback is a faithful undo: bytes, file modes, and no folder left behind that the migration made. */
const FILES = {
  'CLAUDE.md': '# Rules\n\n- Write a test for every fix.\n',
  '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n- Validate request bodies.\n',
};
const MODES = { 'CLAUDE.md': 0o600, '.cursor/rules/api.mdc': 0o755 };

const removeLegacy: ElicitAnswer = (req) => {
  const props = Object.keys((req as { requestedSchema: { properties: object } }).requestedSchema.properties);
  // Approve's first round asks the choices: every legacy file removed.
  if (isChoicesRound(req))
    return { action: 'accept', content: Object.fromEntries(props.filter((p) => p.startsWith('legacy_')).map((p) => [p, 'remove'])) };
  return yesToAll(req);
};

function repoWithModes(t: Cleanup): string {
  const repo = sandbox(t, FILES);
  for (const [rel, mode] of Object.entries(MODES)) fs.chmodSync(path.join(repo, rel), mode);
  return repo;
}

const modeOf = (repo: string, rel: string) => fs.statSync(path.join(repo, rel)).mode & 0o7777;

function assertUndone(repo: string, before: Record<string, string>) {
  assert.deepEqual(hashTree(repo), before, 'bytes restored');
  for (const [rel, mode] of Object.entries(MODES)) assert.equal(modeOf(repo, rel).toString(8), mode.toString(8), `mode of ${rel}`);
  assert.equal(fs.existsSync(path.join(repo, '.github')), false, 'the folders the migration created are gone');
}

test('rollback restores file modes and removes the folders the migration created', async (t) => {
  const repo = repoWithModes(t);
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: removeLegacy });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.ok(fs.existsSync(path.join(repo, '.github/instructions')));
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assertUndone(repo, before);
});

test('a folder the migration created is kept when the person put a file of their own in it', async (t) => {
  const repo = repoWithModes(t);
  const s = await openSession(t, { repo, elicit: removeLegacy });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  await s.call('onboarding_migrate');
  fs.writeFileSync(path.join(repo, '.github/CODEOWNERS'), '* @me\n');
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.equal(fs.readFileSync(path.join(repo, '.github/CODEOWNERS'), 'utf8'), '* @me\n');
  assert.equal(fs.existsSync(path.join(repo, '.github/instructions')), false);
});

test('a migrate killed after writing every file is undone with modes and without the folders it created', async (t) => {
  const repo = repoWithModes(t);
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: removeLegacy });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  await s.close();
  // journal, state, a backup of each legacy file, manifest, journal (apply), then four operations:
  // remove both legacy files, create the two Copilot files.
  const crashAt = 2 + 2 + 2 + 4;
  const crashing = await connect({ repo, elicit: removeLegacy, env: { COPILOT_ONBOARD_CRASH_AFTER: String(crashAt) } });
  await assert.rejects(crashing.call('onboarding_migrate'));
  await crashing.close().catch(() => {});
  assert.ok(fs.existsSync(path.join(repo, '.github/instructions')), 'the crash came after the files were written');
  const again = await openSession(t, { repo, elicit: removeLegacy });
  const status = (await again.call('onboarding_status')).structuredContent as { lastRecovery: { result: string } };
  assert.equal(status.lastRecovery.result, 'before-migration');
  assertUndone(repo, before);
});

test('a manifest written before modes and created folders were recorded still reads', async () => {
  const { BackupManifest } = await import('../../server/src/state/schema.js');
  const older = {
    version: 1,
    id: 'x',
    planHash: 'a'.repeat(64),
    createdAt: '2026-01-01T00:00:00.000Z',
    files: [
      {
        path: 'CLAUDE.md',
        existed: true,
        sha256: 'b'.repeat(64),
        beforeSha256: 'b'.repeat(64),
        afterSha256: null,
        backup: 'files/CLAUDE.md',
      },
    ],
  };
  assert.ok(BackupManifest.safeParse(older).success);
});

test('a created file the person deleted after migrating is reported as deleted, not as saved', async (t) => {
  const repo = repoWithModes(t);
  const s = await openSession(t, { repo, elicit: removeLegacy });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const m = await s.call('onboarding_migrate');
  const backup = (m.structuredContent as { backupDir: string }).backupDir;
  const created = '.github/instructions/api.instructions.md';
  fs.rmSync(path.join(repo, created));
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'rolled_back');
  const sc = r.structuredContent as { savedEdits: string[]; deletedAfterMigration: string[] };
  assert.deepEqual(sc.savedEdits, []);
  assert.deepEqual(sc.deletedAfterMigration, [created]);
  assert.doesNotMatch(textOf(r), /edited-after-migration/);
  assert.match(textOf(r), /deleted after the migration/);
  assert.match(s.elicitations.at(-1)!.message, /deleted after the migration/);
  assert.equal(fs.existsSync(path.join(repo, backup, 'edited-after-migration')), false, 'nothing was saved');
  assert.match(readTraces(repo, 'elicitation').at(-1)!.detail, /deleted after the migration/);
});
