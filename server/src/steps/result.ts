import { outcomeForError } from '../common/error-outcomes.js';
import { isErrorOutcome, type Outcome } from '../common/outcomes.js';
import { showLine } from '../show/untrusted.js';

/** What every step returns; the MCP face and the CLI face both render it. */
export interface StepResult {
  outcome: Outcome;
  /** For the model (MCP text block) and the person (CLI). */
  text: string;
  /** Said last, after `text` and after any cut of it: the figures at a glance and the next step. */
  end?: string;
  /** The tool's structuredContent; always holds `outcome`. */
  structured: { outcome: Outcome } & Record<string, unknown>;
  isError: boolean;
  badInput: boolean;
}

export function result(outcome: Outcome, text: string, fields: Record<string, unknown> = {}, badInput = false): StepResult {
  return { outcome, text, structured: { outcome, ...fields }, isError: isErrorOutcome(outcome), badInput };
}

/** A step that failed: a precondition, bad input, or an internal error (common/error-outcomes.ts). Messages name paths: shown as one line. */
export function resultForError(err: unknown): StepResult {
  const { outcome, badInput, known, message } = outcomeForError(err);
  const said = known ? message : `Internal error: ${message}`;
  return result(outcome, showLine(said), { message: said }, badInput);
}
