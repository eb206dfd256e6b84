import { outcomeForError } from '../common/error-outcomes.js';
import { isErrorOutcome, type Outcome } from '../common/outcomes.js';
import { showLine } from '../show/untrusted.js';

/**
 * What every step returns; the MCP face and the CLI face both render it, with one composer
 * (steps/tool-result.ts): the parts are data until then, and no text is edited once composed.
 */
export interface StepResult {
  outcome: Outcome;
  /** The step's own report, for the model (MCP text block) and the person (CLI). */
  text: string;
  /** The call's own facts around the step (steps/tool-call.ts), in the order they are said. */
  notices?: Notice[];
  /** The client model's words, labelled and quoted (narrate/narrate.ts): after every fact of the tool's. */
  narration?: string;
  /** Said after the facts and after any cut of them: the figures at a glance and the next step. */
  end?: string;
  /** The tool's structuredContent; always holds `outcome`. */
  structured: { outcome: Outcome } & Record<string, unknown>;
  isError: boolean;
  badInput: boolean;
}

/** A fact of the call's, said before the step's report (`first`) or after it. */
export interface Notice {
  at: 'first' | 'after';
  text: string;
}

/** The narration of a step, when the client's model gave one. */
export function narrationOf(told: { narration: string | null }): Pick<StepResult, 'narration'> {
  return told.narration === null ? {} : { narration: told.narration };
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
