import type { Scope, Unit } from '../../../model/model.js';
import type { Found, FoundContradiction } from '../../../model/problem.js';
import { heldPairs } from '../../../model/place-pairs.js';
import { certaintyOf } from '../../../model/findings.js';
import { SHOWN_SECOND_LOOKS } from '../../../model/second-looks-shown.js';
import type { CopyOf } from './copy-pairs.js';
import { findSecondLooks, LISTED_SECOND_LOOKS, type SecondLook } from './second-looks.js';

/** The pairs worth a second look as contradictions of kind `subject` (certainty low), best first. */
export function secondLookProblems(
  units: Unit[],
  scopeOf: (u: Unit) => Scope,
  reported: readonly Found[],
  copies: readonly CopyOf[] = [],
  meeting?: ReadonlySet<string>,
): FoundContradiction[] {
  const taken = heldPairs(reported.filter((p) => p.type === 'contradiction'));
  // The list holds about as many second looks as the client's model reads, those found earlier (drift's) first.
  const earlier = reported.filter((p) => p.type === 'contradiction' && certaintyOf(p) === 'low').length;
  return findSecondLooks(
    units,
    scopeOf,
    taken,
    Math.max(0, LISTED_SECOND_LOOKS - earlier),
    copies,
    meeting,
    Math.max(0, SHOWN_SECOND_LOOKS - earlier),
  ).map((s) => {
    const said = saidOf(s);
    return {
      type: 'contradiction' as const,
      kind: s.mark === 'alike' ? ('alike' as const) : ('subject' as const),
      description:
        s.mark === 'alike'
          ? `Two alike lines in two files, both about ${s.subject}, listed for the client's model to read: ${said}`
          : `Worth a second look, both about ${s.subject}: ${said}`,
      locations: [s.a, s.b, ...(s.more ?? []), ...(s.also ?? [])].map((l) => ({ path: l.path, line: l.line })),
      sides: [0, 1, ...(s.more ?? []).map(() => 1), ...(s.also ?? []).map(() => 0)],
      topic: s.subject,
      said,
      // Two alike lines nothing marks are for the client's model to read: a person sees them when it raises them.
      ...(s.mark === 'alike' ? { listedOnly: true as const } : {}),
    };
  });
}

/** What each side says: the two values of the slot, or that one says not to. */
function saidOf(s: SecondLook): string {
  const values = s.values ? `"${s.values[0]}" vs "${s.values[1]}"` : '';
  const polarity = 'one line says not to, the other does';
  // Nothing marks a slot or a turn: what each side says is its line.
  if (s.mark === 'alike') return `${quoted(s.a)} vs ${quoted(s.b)}`;
  return s.mark === 'values' ? values : s.mark === 'polarity' ? polarity : `${values}; ${polarity}`;
}

/** A line as a side of a pair says it: its words (cut), and where it stands. */
const quoted = (l: { path: string; line: number; text: string }) => {
  const text = l.text.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, '');
  return `"${text.length > 80 ? `${text.slice(0, 79)}\u2026` : text}" (${l.path}:${l.line})`;
};
