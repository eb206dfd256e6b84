import fs from 'fs-extra';
import path from 'node:path';
import { writeAtomic } from '../state/atomic.js';
import { applyOperations, currentSha } from './apply.js';
import { backupDir, backupDirRel, createBackup, readManifest } from './backup.js';
import { armCrashPoint, disarmCrashPoint, fileOperationDone } from './crash-point.js';
import { clearJournal, readJournal, writeJournal } from './journal.js';
import type { Journal } from '../state/schema.js';
import type { PlanOperation } from './plan.js';
import { RepoPaths } from './repo-path.js';
import { restoreBackup } from './restore.js';
import type { Migration, OnboardingState } from '../state/schema.js';
import { readState, writeState } from '../state/store.js';

/**
 * Performing a migration or a rollback, journalled so that a process killed at any point leaves
 * a repository that the next start brings wholly back to one side. Deciding whether to do it is
 * the caller's job (steps/, through the gate).
 */

async function saveState(root: string, state: OnboardingState): Promise<void> {
  await writeState(root, state);
  fileOperationDone();
}

export async function performMigration(
  root: string,
  id: string,
  planHash: string,
  ops: PlanOperation[],
  state: OnboardingState,
  onFile?: (done: number, path: string) => void,
): Promise<Migration> {
  armCrashPoint();
  try {
    const now = new Date().toISOString();
    const usedState: OnboardingState = { ...state, approval: state.approval ? { ...state.approval, usedAt: now } : null };
    const journal: Journal = {
      version: 1,
      operation: 'migrate',
      migrationId: id,
      planHash,
      startedAt: now,
      phase: 'backup',
      pid: process.pid,
      files: ops.map((o) => ({ path: o.path, beforeSha256: o.beforeSha256, afterSha256: o.afterSha256 })),
      edited: [],
    };
    await writeJournal(root, journal);
    await saveState(root, usedState);
    const manifest = await createBackup(root, id, planHash, ops);
    await writeJournal(root, { ...journal, phase: 'apply' });
    await applyOperations(root, ops, onFile);
    const migration: Migration = {
      id,
      planHash,
      migratedAt: now,
      backupDir: backupDirRel(id),
      files: manifest.files.map(({ backup: _b, sha256: _s, ...f }) => f),
      rolledBackAt: null,
    };
    await saveState(root, { ...usedState, step: 'migrated', migrations: [...usedState.migrations, migration] });
    await clearJournal(root);
    return migration;
  } catch (err) {
    throw await afterFailure(root, err);
  } finally {
    disarmCrashPoint();
  }
}

/** A migrate or rollback that failed (a full disk, a permission) is recovered at once, not left to the next start. */
async function afterFailure(root: string, err: unknown): Promise<Error> {
  disarmCrashPoint();
  const what = err instanceof Error ? err.message : String(err);
  try {
    const recovery = await recoverInterrupted(root);
    return new Error(recovery ? `${what}. ${recovery.detail}` : what);
  } catch (again) {
    return new Error(`${what}. Recovery failed too (${again instanceof Error ? again.message : String(again)}); the journal in .copilot-state/ is kept, and the next command tries again.`);
  }
}

export async function performRollback(root: string, migration: Migration, edited: string[]) {
  armCrashPoint();
  try {
    await writeJournal(root, {
      version: 1,
      operation: 'rollback',
      migrationId: migration.id,
      planHash: migration.planHash,
      startedAt: new Date().toISOString(),
      phase: 'restore',
      pid: process.pid,
      files: migration.files.map((f) => ({ path: f.path, beforeSha256: f.beforeSha256, afterSha256: f.afterSha256 })),
      edited,
    });
    const result = await finishRollback(root, migration.id, edited);
    await clearJournal(root);
    return result;
  } catch (err) {
    throw await afterFailure(root, err);
  } finally {
    disarmCrashPoint();
  }
}

async function finishRollback(root: string, id: string, edited: string[]) {
  const manifest = await readManifest(root, id);
  const result = await restoreBackup(root, manifest, edited);
  const state = await readState(root);
  const now = new Date().toISOString();
  await saveState(root, {
    ...state,
    step: 'rolled_back',
    migrations: state.migrations.map((m) => (m.id === id && m.rolledBackAt === null ? { ...m, rolledBackAt: now } : m)),
  });
  return result;
}

export interface Recovery {
  operation: 'migrate' | 'rollback';
  migrationId: string;
  /** Which side the repository is on now. */
  result: 'before-migration' | 'after-migration';
  detail: string;
}

/**
 * Finish or undo an operation that a killed process left half done. An interrupted migrate is
 * undone (unless its last step, recording it, had happened); an interrupted rollback is finished.
 */
export async function recoverInterrupted(root: string): Promise<Recovery | null> {
  const journal = await readJournal(root);
  if (!journal) return null;
  const state = await readState(root);
  const id = journal.migrationId;
  let recovery: Recovery;
  if (journal.operation === 'migrate') {
    const recorded = state.migrations.some((m) => m.id === id);
    if (recorded) {
      recovery = { operation: 'migrate', migrationId: id, result: 'after-migration', detail: `Migration ${id} had written every file before it was interrupted; it stands.` };
    } else if (journal.phase === 'backup') {
      await fs.remove(backupDir(root, id));
      recovery = { operation: 'migrate', migrationId: id, result: 'before-migration', detail: `Migration ${id} was interrupted while saving backups, before any repository file changed; its partial backup was removed.` };
    } else {
      await undoPartialMigration(root, id);
      recovery = { operation: 'migrate', migrationId: id, result: 'before-migration', detail: `Migration ${id} was interrupted while writing files; every file was restored from ${backupDirRel(id)}. Run approve and migrate again to apply the plan.` };
    }
  } else {
    const done = state.migrations.some((m) => m.id === id && m.rolledBackAt !== null);
    if (!done) await finishRollback(root, id, journal.edited);
    recovery = { operation: 'rollback', migrationId: id, result: 'before-migration', detail: `Rollback of ${id} was interrupted; it was finished, and every file is restored from the backup.` };
  }
  await clearJournal(root);
  const after = await readState(root);
  const at = new Date().toISOString();
  // The approval was spent on the attempt, whichever side it ended on.
  const approval = after.approval && after.approval.planHash === journal.planHash && after.approval.usedAt === null ? { ...after.approval, usedAt: at } : after.approval;
  await writeState(root, { ...after, approval, lastRecovery: { ...recovery, at } });
  return recovery;
}

async function undoPartialMigration(root: string, id: string): Promise<void> {
  const manifest = await readManifest(root, id);
  const paths = new RepoPaths(root);
  for (const f of manifest.files) {
    const abs = await paths.safeAbs(f.path);
    if (f.existed && f.backup) {
      if ((await currentSha(paths, f.path)) !== f.beforeSha256) await writeAtomic(abs, await fs.readFile(path.join(backupDir(root, id), ...f.backup.split('/'))));
    } else if (await fs.pathExists(abs)) {
      await fs.remove(abs);
    }
  }
}
