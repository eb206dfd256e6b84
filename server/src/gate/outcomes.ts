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
