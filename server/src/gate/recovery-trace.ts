import { showLine } from '../show/untrusted.js';
import { errorMessage } from '../common/errors.js';
import { clearJournal, JOURNAL_REL } from '../engine/journal.js';
import { recoverInterrupted, type Recovery } from '../engine/recovery.js';
import { LockHeldError, withLock } from '../state/lock.js';
import { entryStat } from '../repo/safe-fs.js';
import { writeElicitationTrace } from '../state/traces/writer.js';
import type { ClientInfo } from '../state/schema.js';

/**
 * Run at the start of every command: finish or undo an interrupted migrate or rollback, and leave
 * a trace saying so. No person is asked: recovery only returns the repository to a state the
 * person had already approved or that it had before.
 *
 * A recovery that cannot go through (a damaged journal or backup) never stops the command: the
 * journal stays, status explains it, and the gated steps refuse until it is repaired.
 */
export async function recoverAndTrace(root: string, client: ClientInfo | null): Promise<Recovery | null> {
  if (!(await entryStat(root, JOURNAL_REL).catch(() => null))) return null;
  try {
    // A journal under a held lock belongs to an operation that is running now, not an interrupted one.
    return await withLock(root, 'operation', 'recovery', async () => {
      const recovery = await recoverInterrupted(root);
      if (!recovery) return null;
      await writeElicitationTrace(root, {
        action: recovery.operation,
        message: `Recovery at start-up: ${recovery.detail}`,
        schema: {},
        response: null,
        outcome: recovery.result === 'after-migration' ? 'migrated' : recovery.operation === 'rollback' ? 'rolled_back' : 'error',
        duration_ms: 0,
        planHash: null,
        client,
        detail: recovery.detail,
        recovery: {
          migrationId: recovery.migrationId,
          result: recovery.result,
          ...(recovery.restored ? { restored: recovery.restored } : {}),
          ...(recovery.removed ? { removed: recovery.removed } : {}),
        },
      });
      // Only now: a start that dies before this finds the journal and does the same again.
      await clearJournal(root);
      return recovery;
    });
  } catch (err) {
    if (!(err instanceof LockHeldError)) {
      process.stderr.write(
        `copilot-onboard: an interrupted migrate or rollback could not be recovered: ${showLine(errorMessage(err))} Run status for the way back.\n`,
      );
    }
    return null;
  }
}
