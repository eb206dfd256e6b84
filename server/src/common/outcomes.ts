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

export type SuccessOutcome = 'analyzed' | 'proposed' | 'approved' | 'migrated' | 'rolled_back' | 'status';

export type Outcome = SuccessOutcome | RefusalOutcome;

/** Declined and cancelled are the person's decisions, not errors. */
export function isErrorOutcome(outcome: Outcome): boolean {
  return !['analyzed', 'proposed', 'approved', 'migrated', 'rolled_back', 'status', 'declined', 'cancelled'].includes(outcome);
}

/** CLI exit code for an outcome, as the contract lists them. */
export function exitCodeFor(outcome: Outcome, badInput = false): number {
  switch (outcome) {
    case 'analyzed':
    case 'proposed':
    case 'approved':
    case 'migrated':
    case 'rolled_back':
    case 'status':
      return 0;
    case 'precondition_failed':
      // An unsafe path (a link where the tool reads or writes) is bad input: the contract's exit 2.
      return badInput ? 2 : 4;
    case 'error':
      return badInput ? 2 : 1;
    default:
      return 3;
  }
}

/** What an outcome means, said to the person at the CLI; the codes stay in `--json` and the traces. */
export const OUTCOME_FOR_PERSON: Record<Outcome, string> = {
  analyzed: 'analyzed',
  proposed: 'the plan is ready',
  approved: 'approved',
  migrated: 'migrated',
  rolled_back: 'rolled back',
  status: 'status',
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
