import { BadInputError, errorMessage, PreconditionError, UnsafePathError } from '../common/errors.js';
import { isErrorOutcome, type Outcome } from '../common/outcomes.js';
import { showLine } from '../show/untrusted.js';

/** What every step returns; the MCP face and the CLI face both render it. */
export interface StepResult {
  outcome: Outcome;
  /** For the model (MCP text block) and the person (CLI). */
  text: string;
  /** The tool's structuredContent; always holds `outcome`. */
  structured: { outcome: Outcome } & Record<string, unknown>;
  isError: boolean;
  badInput: boolean;
}

export function result(outcome: Outcome, text: string, fields: Record<string, unknown> = {}, badInput = false): StepResult {
  return { outcome, text, structured: { outcome, ...fields }, isError: isErrorOutcome(outcome), badInput };
}

/** A read-only step that failed: a precondition, bad input, or an internal error. Messages name paths: shown as one line. */
export function resultForError(err: unknown): StepResult {
  // The contract lists unsafe paths under precondition_failed; they are bad input too (CLI exit 2).
  if (err instanceof UnsafePathError) return result('precondition_failed', showLine(err.message), { message: err.message }, true);
  if (err instanceof PreconditionError) return result('precondition_failed', showLine(err.message), { message: err.message });
  if (err instanceof BadInputError) return result('error', showLine(err.message), { message: err.message }, true);
  const message = `Internal error: ${errorMessage(err)}`;
  return result('error', showLine(message), { message });
}
