import { BadInputError, errorMessage, PreconditionError, UnsafePathError } from './errors.js';
import type { RefusalOutcome } from './outcomes.js';

/**
 * The one place where errors become outcomes. A step's result (steps/result.ts), the gate's refusal
 * (gate/gate.ts) and the CLI's exit code for an error that reached the top (cli.ts) all read this
 * table; only their wording differs. Subclasses match through their base class (LockHeldError and
 * BackupDamagedError are preconditions, StateDamagedError is bad input). First match wins, so a
 * subclass with its own row comes before its base.
 */
export const ERROR_OUTCOMES: { error: abstract new (...args: never[]) => Error; outcome: RefusalOutcome; badInput: boolean }[] = [
  // The contract lists unsafe paths under precondition_failed; they are bad input too (CLI exit 2).
  { error: UnsafePathError, outcome: 'precondition_failed', badInput: true },
  { error: PreconditionError, outcome: 'precondition_failed', badInput: false },
  { error: BadInputError, outcome: 'error', badInput: true },
];

export interface ErrorOutcome {
  outcome: RefusalOutcome;
  badInput: boolean;
  /** False for an error the flow does not know: an internal error. */
  known: boolean;
  /** The error's own message (outside text: shown as one line by whoever says it). */
  message: string;
}

export function outcomeForError(err: unknown): ErrorOutcome {
  const row = ERROR_OUTCOMES.find((r) => err instanceof r.error);
  return row
    ? { outcome: row.outcome, badInput: row.badInput, known: true, message: errorMessage(err) }
    : { outcome: 'error', badInput: false, known: false, message: errorMessage(err) };
}
