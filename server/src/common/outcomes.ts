/** The contract's refusal outcomes, and what each means for the tool result. */
export type RefusalOutcome =
  | 'elicitation_unsupported'
  | 'declined'
  | 'cancelled'
  | 'timeout'
  | 'not_confirmed'
  | 'invalid_response'
  | 'precondition_failed'
  | 'error';

export type SuccessOutcome = 'analyzed' | 'proposed' | 'approved' | 'migrated' | 'rolled_back' | 'status' | 'checked';

export type Outcome = SuccessOutcome | RefusalOutcome;

interface OutcomeSpec {
  /** The tool result's isError. Declined and cancelled are the person's decisions, not errors. */
  isError: boolean;
  /** The CLI's exit code, as the contract lists them. */
  exit: number;
  /** The exit code when the cause was bad input (an unsafe path, a damaged file): the contract's 2. */
  exitForBadInput?: number;
}

/** Every outcome, what it means for the tool result and the exit code: the one table both derive from. */
export const OUTCOMES: Record<Outcome, OutcomeSpec> = {
  analyzed: { isError: false, exit: 0 },
  proposed: { isError: false, exit: 0 },
  approved: { isError: false, exit: 0 },
  migrated: { isError: false, exit: 0 },
  rolled_back: { isError: false, exit: 0 },
  status: { isError: false, exit: 0 },
  checked: { isError: false, exit: 0 },
  declined: { isError: false, exit: 3 },
  cancelled: { isError: false, exit: 3 },
  elicitation_unsupported: { isError: true, exit: 3 },
  timeout: { isError: true, exit: 3 },
  not_confirmed: { isError: true, exit: 3 },
  invalid_response: { isError: true, exit: 3 },
  // An unsafe path (a link where the tool reads or writes) is bad input: the contract's exit 2.
  precondition_failed: { isError: true, exit: 4, exitForBadInput: 2 },
  error: { isError: true, exit: 1, exitForBadInput: 2 },
};

export function isErrorOutcome(outcome: Outcome): boolean {
  return OUTCOMES[outcome].isError;
}

/** CLI exit code for an outcome, as the contract lists them. */
export function exitCodeFor(outcome: Outcome, badInput = false): number {
  const spec = OUTCOMES[outcome];
  return (badInput ? spec.exitForBadInput : undefined) ?? spec.exit;
}

/** What an outcome means, said to the person at the CLI; the codes stay in `--json` and the traces. */
export const OUTCOME_FOR_PERSON: Record<Outcome, string> = {
  analyzed: 'analyzed',
  proposed: 'the plan is ready',
  approved: 'approved',
  migrated: 'migrated',
  rolled_back: 'rolled back',
  status: 'status',
  checked: 'checked',
  elicitation_unsupported: 'there is no terminal to ask you in',
  declined: 'you declined',
  cancelled: 'you closed the form',
  timeout: 'no answer came in time',
  not_confirmed: 'you answered No',
  invalid_response: 'the answer did not fit the form',
  precondition_failed: 'the step cannot run now',
  error: 'something went wrong',
};

/** A duration as a person says it: "3 minutes", "90 seconds", "1 hour". */
export function durationForPerson(ms: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return unit(ms / 3_600_000, 'hour');
  if (ms >= 60_000 && ms % 60_000 === 0) return unit(ms / 60_000, 'minute');
  return unit(Math.round(ms / 1000), 'second');
}
