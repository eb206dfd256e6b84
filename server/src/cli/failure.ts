import { errorMessage } from '../common/errors.js';
import { outcomeForError } from '../common/error-outcomes.js';
import { exitCodeFor } from '../common/outcomes.js';
import { showLine } from '../show/untrusted.js';

/**
 * A command that failed: its one line on stderr and its exit code, by the same table as the steps'
 * results (bad input exits 2, a precondition 4, anything else 1). The read-only commands are a file
 * of their own in the build (cli/read-only.ts), with their own copy of the error classes: they
 * report their failures themselves, with this same function.
 */
export function reportFailure(err: unknown): number {
  const { outcome, badInput } = outcomeForError(err);
  process.stderr.write(`copilot-onboard: ${showLine(errorMessage(err))}\n`);
  return exitCodeFor(outcome, badInput);
}
