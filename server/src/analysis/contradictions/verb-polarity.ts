/**
 * How strongly the words around a verb rule it (claim-reader.ts): "never", "must not" or "no" before it,
 * "is forbidden" after it; "may", "can"; "always", "must", "prefer"; or nothing but an order's place at
 * the head of its clause ("Run `x`"). Grammar only, no name of a tool.
 */

export type Polarity = 'must' | 'may' | 'never';

const NEVER_BEFORE =
  /\b(?:never|don'?t|do not|doesn'?t|does not|must not|mustn'?t|should not|shouldn'?t|cannot|can'?t|may not|not|no|avoid)\b/i;
const MAY_BEFORE = /\b(?:may|can|could|allowed to|free to|ok to|okay to|fine to|permitted to)\b/i;
/** Words that make what follows a requirement ("always", "must", "prefer"). */
export const MUST_BEFORE =
  /\b(?:always|must|should|need to|needs to|have to|has to|make sure (?:to|you)|be sure to|prefer(?:ably)?|do|please|remember to|only)\b/i;
/** Words that may stand before an imperative without making it a description ("Then run x"). */
const IMPERATIVE_LEAD = /^(?:(?:then|also|first|next|finally|and|just|instead)\b[\s,]*)*$/i;
const NEVER_AFTER =
  /\b(?:is|are)\s+(?:strictly\s+|absolutely\s+)?(?:forbidden|prohibited|not allowed|not permitted|banned|disallowed|discouraged)\b/i;
const MAY_AFTER = /\b(?:is|are)\s+(?:also\s+)?(?:fine|ok|okay|allowed|permitted|acceptable)\b/i;
const MUST_AFTER = /\b(?:is|are)\s+(?:required|mandatory)\b/i;

/**
 * How strongly the words before and after a verb say to do it: never, may, must, or not a rule at all
 * (null). `opens`: whether the clause may open with an order (not the rest of a sentence a wrapped line
 * began: "never\npush directly to `main`" is no order to push).
 */
export function polarityOf(prefix: string, after: string, form: number, lead: string, opens = true): Polarity | null {
  if (NEVER_AFTER.test(after) || NEVER_BEFORE.test(prefix)) return 'never';
  if (MAY_AFTER.test(after) || MAY_BEFORE.test(prefix)) return 'may';
  if (MUST_AFTER.test(after) || MUST_BEFORE.test(prefix)) return 'must';
  if (opens && IMPERATIVE_LEAD.test(lead) && form === 0) return 'must';
  return null;
}

/**
 * Where the words said of a verb at `at` start: after the last comma before it, or inside a bracket
 * still open at it, which starts an instruction of its own ("passes with no offenses (use `x -A` to fix)":
 * the "no" is not said of "use").
 */
export function saidFrom(clause: string, at: number): number {
  const open = clause.lastIndexOf('(', at);
  const shut = open < 0 ? -1 : clause.indexOf(')', open);
  return Math.max(clause.lastIndexOf(',', at), shut < 0 || shut > at ? open : -1) + 1;
}
