import { backupDirRel, backupRel } from './backup.js';
import { trustedManifest } from './backup-check.js';
import { disarmCrashPoint } from './crash-point.js';
import { assertJournalOfThisFlow } from './restorable.js';
import { showPath } from '../show/untrusted.js';
import { errorMessage } from '../common/errors.js';
import { clearJournal, JOURNAL_REL, readJournal } from './journal.js';
import { finishRollback, manifestOfRecorded, restoreBackup } from './restore.js';
import { lockHolder } from '../state/lock.js';
import path from 'node:path';
import { removeStaleTempFiles, removeTree } from '../repo/safe-fs.js';
import { STATE_DIR } from '../repo/state-paths.js';
import type { BackupManifest, Journal, Recovery } from '../state/schema.js';
import { readState, writeState } from '../state/store.js';
import { traceWriteProblem } from '../state/traces/writer.js';

export type { Recovery } from '../state/schema.js';

/**
 * Finish or undo an operation that a killed process left half done. An interrupted migrate is
 * undone (unless its last step, recording it, had happened); an interrupted rollback is finished.
 * The journal is left for the caller to clear once the recovery is traced: a start that dies
 * before that does the same again, which changes nothing more.
 */
export async function recoverInterrupted(root: string): Promise<Recovery | null> {
  const journal = await readJournal(root);
  if (!journal) return null;
  const state = await readState(root);
  await assertJournalOfThisFlow(root, journal, state);
  const id = journal.migrationId;
  // First, so that the folders they sat in can go with the rest: a kill -9 in the middle of a write leaves a temporary file beside the file it was to become.
  const folders = new Set<string>(journal.files.map((f) => path.posix.dirname(f.path)));
  for (const f of journal.files) folders.add(path.posix.dirname(`${backupRel(id)}/files/${f.path}`));
  folders.add(backupRel(id));
  folders.add(STATE_DIR);
  const removed: string[] = [];
  for (const folder of folders) removed.push(...(await removeStaleTempFiles(root, folder)));
  let recovery: Recovery;
  if (journal.operation === 'migrate') {
    const recorded = state.migrations.some((m) => m.id === id);
    if (recorded) {
      recovery = {
        operation: 'migrate',
        migrationId: id,
        result: 'after-migration',
        detail: `Migration ${id} had written every file before it was interrupted; it stands.`,
      };
    } else if (journal.phase === 'backup') {
      await removeTree(root, backupRel(id));
      recovery = {
        operation: 'migrate',
        migrationId: id,
        result: 'before-migration',
        detail: `Migration ${id} was interrupted while saving backups, before any repository file changed; its partial backup was removed.`,
      };
    } else {
      const touched = await undoPartialMigration(root, await manifestOfJournal(root, journal));
      recovery = {
        operation: 'migrate',
        migrationId: id,
        result: 'before-migration',
        detail: `Migration ${id} was interrupted while writing files; every file it concerned was put back from ${backupDirRel(id)}${touchedText(touched)}. Run approve and migrate again to apply the plan.`,
        ...touched,
      };
    }
  } else {
    const done = state.migrations.some((m) => m.id === id && m.rolledBackAt !== null);
    const touched = done ? { restored: [], removed: [] } : await finishRollback(root, id, journal.edited);
    recovery = {
      operation: 'rollback',
      migrationId: id,
      result: 'before-migration',
      detail: `Rollback of ${id} was interrupted; it was finished, and every file it concerned is back as the backup holds it${touchedText(touched)}.`,
      restored: touched.restored,
      removed: touched.removed,
    };
  }
  if (removed.length > 0)
    recovery.detail += ` ${removed.length} temporary file${removed.length === 1 ? '' : 's'} left by the interrupted write ${removed.length === 1 ? 'was' : 'were'} removed (${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ', …' : ''}).`;
  const after = await readState(root);
  const at = new Date().toISOString();
  // The approval was spent on the attempt, whichever side it ended on.
  const spent = after.approval && after.approval.planHash === journal.planHash;
  const approval = spent && after.approval!.usedAt === null ? { ...after.approval!, usedAt: at } : after.approval;
  const undone = journal.operation === 'migrate' && recovery.result === 'before-migration' && after.step === 'approved';
  await writeState(root, { ...after, step: undone ? 'proposed' : after.step, approval, lastRecovery: { ...recovery, at } });
  return recovery;
}

/** A migrate or rollback that failed (a full disk, a permission) is recovered at once, not left to the next start. */
export async function recoverAfterFailure(root: string, err: unknown): Promise<unknown> {
  disarmCrashPoint();
  try {
    const recovery = await recoverInterrupted(root);
    if (!recovery) return err;
    await clearJournal(root);
    // The error keeps its kind (a link refused stays a refusal): the repository is back on one side.
    if (err instanceof Error) {
      err.message = `${errorMessage(err)}. ${recovery.detail}`;
      return err;
    }
    return new Error(`${errorMessage(err)}. ${recovery.detail}`);
  } catch (again) {
    return new Error(
      `${errorMessage(err)}. Recovery failed too (${errorMessage(again)}); the journal in .copilot-state/ is kept, and the next command tries again.`,
    );
  }
}

/** An interrupted migrate has no record in the state yet: its manifest is checked against the journal. */
function manifestOfJournal(root: string, journal: Journal): Promise<BackupManifest> {
  return trustedManifest(root, journal.migrationId, journal.files, JOURNAL_REL);
}

/** Put the backup back over whatever the interrupted migrate had written, and remove the folders it made. */
async function undoPartialMigration(root: string, manifest: BackupManifest): Promise<{ restored: string[]; removed: string[] }> {
  const { restored, removed } = await restoreBackup(root, manifest, []);
  return { restored, removed };
}

/** The files a recovery put back and removed, named (quoted when a name holds anything but plain characters). */
function touchedText(t: { restored: string[]; removed: string[] }): string {
  const parts = [
    ...(t.restored.length > 0 ? [`put back: ${t.restored.map(showPath).join(', ')}`] : []),
    ...(t.removed.length > 0 ? [`removed: ${t.removed.map(showPath).join(', ')}`] : []),
  ];
  return parts.length > 0 ? ` (${parts.join('; ')})` : ' (no file needed it)';
}

export interface Unrecovered {
  operation: 'migrate' | 'rollback' | null;
  migrationId: string | null;
  /** Another process is running the operation now: nothing is wrong. */
  running: boolean;
  /** What is wrong and the way back, for a person. */
  text: string;
}

/**
 * Why a journal is still there: an operation running now, or one that was interrupted and could
 * not be recovered (a damaged journal or backup, an unwritable trace). Null when there is none.
 */
export async function unrecoveredOperation(root: string, opts: { lockHeld?: boolean } = {}): Promise<Unrecovered | null> {
  let journal: Journal | null;
  try {
    journal = await readJournal(root);
  } catch (err) {
    return { operation: null, migrationId: null, running: false, text: errorMessage(err) };
  }
  if (!journal) return null;
  const { operation, migrationId: id } = journal;
  const holder = opts.lockHeld ? null : await lockHolder(root, 'operation');
  if (holder) return { operation, migrationId: id, running: true, text: `A ${operation} of migration ${id} is running now (${holder}).` };
  const problem = (await recoveryBlocker(root, journal)) ?? 'the reason is not known; the next command tries again.';
  return {
    operation,
    migrationId: id,
    running: false,
    text:
      `An interrupted ${operation} of migration ${id} could not be finished: ${problem} ` +
      `Repair what is named, then run any command: the ${operation} is then ${operation === 'rollback' ? 'finished' : 'finished or undone'}. ` +
      `Or, to leave the files as they are now, move ${JOURNAL_REL} aside; ${backupDirRel(id)} keeps the original bytes.`,
  };
}

/** What keeps recovery from going through, checked without changing anything. */
async function recoveryBlocker(root: string, journal: Journal): Promise<string | null> {
  try {
    const state = await readState(root);
    await assertJournalOfThisFlow(root, journal, state);
    const recorded = state.migrations.find((m) => m.id === journal.migrationId);
    if (journal.operation === 'rollback' && recorded && recorded.rolledBackAt === null)
      await manifestOfRecorded(root, journal.migrationId, state);
    if (journal.operation === 'migrate' && !recorded && journal.phase !== 'backup') await manifestOfJournal(root, journal);
  } catch (err) {
    return errorMessage(err);
  }
  const trace = await traceWriteProblem(root, 'elicitation');
  return trace ? `its recovery trace cannot be written (${trace}).` : null;
}
