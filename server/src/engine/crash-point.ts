/**
 * Fault injection for tests (the contract's COPILOT_ONBOARD_CRASH_AFTER=N): the process kills
 * itself with SIGKILL right after the N-th file operation of a migrate or rollback, leaving
 * whatever it had written for the next start to recover.
 */
let armed = false;
let count = 0;

export function armCrashPoint(): void {
  armed = true;
  count = 0;
}

/** Go on counting where the operation left off: its last file operation comes after its trace. */
export function resumeCrashPoint(): void {
  armed = true;
}

export function disarmCrashPoint(): void {
  armed = false;
}

/** Call right after each file operation (write, remove, rename) of a migrate or rollback. */
export function fileOperationDone(): void {
  if (!armed) return;
  const limit = Number(process.env.COPILOT_ONBOARD_CRASH_AFTER);
  if (!Number.isInteger(limit) || limit <= 0) return;
  count++;
  if (count >= limit) process.kill(process.pid, 'SIGKILL');
}
