import { applyOperations } from './apply.js';
import { backupDirRel, createBackup } from './backup.js';
import { armCrashPoint, disarmCrashPoint, resumeCrashPoint } from './crash-point.js';
import { clearJournal, writeJournal } from './journal.js';
import type { PlanOperation } from '../planning/plan.js';
import { recoverAfterFailure } from './recovery.js';
import { editedSinceMigration, finishRollback, manifestOfRecorded, saveState, type RestoreProgress, type Restored } from './restore.js';
import type { Journal, Migration, OnboardingState } from '../state/schema.js';

/**
 * Performing a migration or a rollback, journalled so that a process killed at any point leaves
 * a repository that the next start brings wholly back to one side. Deciding whether to do it is
 * the caller's job (steps/, through the gate).
 *
 * Both leave their journal in place when they return: the caller clears it with settleOperation
 * once the step's trace is written, so that an operation that changed files is never untraced
 * (a start that finds the journal writes a recovery trace).
 */

export async function performMigration(
  root: string,
  id: string,
  hashes: { planHash: string; approvedHash: string },
  ops: PlanOperation[],
  state: OnboardingState,
  onFile?: (done: number, path: string) => void,
): Promise<Migration> {
  const { planHash, approvedHash } = hashes;
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
      files: ops.map((o) => ({
        path: o.path,
        beforeSha256: o.beforeSha256,
        afterSha256: o.afterSha256,
        ...(o.replacesLink !== undefined ? { linkTarget: o.replacesLink } : {}),
      })),
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
      ...(approvedHash !== planHash ? { approvedHash } : {}),
      migratedAt: now,
      backupDir: backupDirRel(id),
      files: manifest.files.map(({ path, existed, beforeSha256, afterSha256, linkTarget }) => ({
        path,
        existed,
        beforeSha256,
        afterSha256,
        ...(linkTarget !== undefined ? { linkTarget } : {}),
      })),
      rolledBackAt: null,
    };
    await saveState(root, { ...usedState, step: 'migrated', migrations: [...usedState.migrations, migration] });
    return migration;
  } catch (err) {
    throw await recoverAfterFailure(root, err);
  } finally {
    disarmCrashPoint();
  }
}

/** Roll back a recorded migration. Its backup is checked before the journal is written: a damaged one changes nothing. */
export async function performRollback(root: string, migration: Migration, onFile?: RestoreProgress): Promise<Restored> {
  const manifest = await manifestOfRecorded(root, migration.id);
  const edited = await editedSinceMigration(root, manifest);
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
      files: migration.files.map((f) => ({
        path: f.path,
        beforeSha256: f.beforeSha256,
        afterSha256: f.afterSha256,
        ...(f.linkTarget !== undefined ? { linkTarget: f.linkTarget } : {}),
      })),
      edited,
    });
    return await finishRollback(root, migration.id, edited, onFile);
  } catch (err) {
    throw await recoverAfterFailure(root, err);
  } finally {
    disarmCrashPoint();
  }
}

/** The last file operation of a migrate or rollback, once its trace is written. */
export async function settleOperation(root: string): Promise<void> {
  resumeCrashPoint();
  try {
    await clearJournal(root);
  } finally {
    disarmCrashPoint();
  }
}
