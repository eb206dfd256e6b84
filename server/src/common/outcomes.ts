interface OutcomeSpec {
  /** A refusal: the step did not run (contract: "Refusal outcomes"); every other outcome is a step done. */
  refusal: boolean;
  /** An elicitation trace may record it: a gated step's own outcome, or a refusal. */
  elicitation: boolean;
  /** The tool result's isError. Declined and cancelled are the person's decisions, not errors. */
  isError: boolean;
  /** The CLI's exit code, as the contract lists them. */
  exit: number;
  /** The exit code when the cause was bad input (an unsafe path, a damaged file): the contract's 2. */
  exitForBadInput?: number;
  /** What the outcome means, said to the person at the CLI; the codes stay in `--json` and the traces. */
  forPerson: string;
}

const done = (forPerson: string) => ({ refusal: false, elicitation: false, isError: false, exit: 0, forPerson }) as const;
const gatedDone = (forPerson: string) => ({ ...done(forPerson), elicitation: true }) as const;
const refused = (forPerson: string, isError: boolean, exit: number, exitForBadInput?: number) =>
  ({ refusal: true, elicitation: true, isError, exit, forPerson, ...(exitForBadInput === undefined ? {} : { exitForBadInput }) }) as const;

/**
 * Every outcome, in the contract's order: what it means for the tool result, the exit code, and the
 * words for a person. The one table: the `Outcome` type, the tools' output schemas
 * (`OutcomeSchema`), the elicitation trace's outcomes (state/schema.ts) and the CLI's exit codes all
 * derive from it.
 */
export const OUTCOMES = {
  analyzed: done('analyzed'),
  proposed: done('the plan is ready'),
  approved: gatedDone('approved'),
  migrated: gatedDone('migrated'),
  rolled_back: gatedDone('rolled back'),
  status: done('status'),
  checked: done('checked'),
  elicitation_unsupported: refused('there is no terminal to ask you in', true, 3),
  declined: refused('you declined', false, 3),
  cancelled: refused('you closed the form', false, 3),
  timeout: refused('no answer came in time', true, 3),
  not_confirmed: refused('you answered No', true, 3),
  invalid_response: refused('the answer did not fit the form', true, 3),
  // An unsafe path (a link where the tool reads or writes) is bad input: the contract's exit 2.
  precondition_failed: refused('the step cannot run now', true, 4, 2),
  error: refused('something went wrong', true, 1, 2),
} as const satisfies Record<string, OutcomeSpec>;

export type Outcome = keyof typeof OUTCOMES;

/** The contract's refusal outcomes. */
export type RefusalOutcome = { [K in Outcome]: (typeof OUTCOMES)[K]['refusal'] extends true ? K : never }[Outcome];

export type SuccessOutcome = Exclude<Outcome, RefusalOutcome>;

/** Every outcome, in the table's order (a zod enum takes this list: `OutcomeSchema` in common/outcome-schema.ts). */
export const OUTCOME_NAMES = Object.keys(OUTCOMES) as [Outcome, ...Outcome[]];

/** The outcomes an elicitation trace may record, in the table's order. */
export const ELICITATION_OUTCOMES = OUTCOME_NAMES.filter((o) => OUTCOMES[o].elicitation) as [Outcome, ...Outcome[]];

/** The tool result's `_meta` key that marks bad input, so that the CLI tells it (exit 2) from an internal error (exit 1). */
export const BAD_INPUT_META = 'copilot-onboard/bad-input';

export function isErrorOutcome(outcome: Outcome): boolean {
  return OUTCOMES[outcome].isError;
}

/** CLI exit code for an outcome, as the contract lists them. */
export function exitCodeFor(outcome: Outcome, badInput = false): number {
  const spec: OutcomeSpec = OUTCOMES[outcome];
  return (badInput ? spec.exitForBadInput : undefined) ?? spec.exit;
}

/** CLI exit code for a tool result: its outcome (none is an internal error), and the bad-input mark in its `_meta`. */
export function exitCodeForResult(result: { structuredContent?: { [key: string]: unknown }; _meta?: { [key: string]: unknown } }): number {
  const outcome = result.structuredContent?.outcome;
  const known = typeof outcome === 'string' && Object.hasOwn(OUTCOMES, outcome) ? (outcome as Outcome) : 'error';
  return exitCodeFor(known, result._meta?.[BAD_INPUT_META] === true);
}

/** What an outcome means, said to the person at the CLI; the codes stay in `--json` and the traces. */
export const outcomeForPerson = (outcome: Outcome): string => OUTCOMES[outcome].forPerson;

/** A duration as a person says it: "3 minutes", "90 seconds", "1 hour". */
export function durationForPerson(ms: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return unit(ms / 3_600_000, 'hour');
  if (ms >= 60_000 && ms % 60_000 === 0) return unit(ms / 60_000, 'minute');
  return unit(Math.round(ms / 1000), 'second');
}
