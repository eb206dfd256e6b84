import type { Problem } from './problem.js';

/**
 * How many pairs worth a second look a person is shown for one repository (analyze's report, check,
 * approve's first round): the highest ranked, as analysis orders them. The full ranked list stays in
 * the JSON output (analyze --json, the tools' structuredContent).
 */
export const SHOWN_SECOND_LOOKS = 8;

/** A problem as ranked for a person (a plan's problems may leave out whether it is listed only). */
type Ranked = Pick<Problem, 'type' | 'certainty'> & { listedOnly?: boolean };

/** A contradiction only worth a second look (certainty low). */
export const isSecondLook = (p: Pick<Problem, 'type' | 'certainty'>): boolean => p.type === 'contradiction' && p.certainty === 'low';

/**
 * A second look analysis lists for the client's model only (`listedOnly`: two alike lines nothing
 * marks): in the JSON and read by the model, shown to a person when the model raises it, never by its rank alone.
 */
export const isListedOnly = (p: Ranked): boolean => p.type === 'contradiction' && p.listedOnly === true;

/** The second looks in rank order: the few a person is shown by rank, and the others (below the cut). */
export function secondLooksByCut<T extends Ranked>(problems: readonly T[]): { shown: T[]; below: T[] } {
  const looks = problems.filter(isSecondLook);
  const shown = looks.filter((p) => !isListedOnly(p)).slice(0, SHOWN_SECOND_LOOKS);
  return { shown, below: looks.filter((p) => !shown.includes(p)) };
}

/** The problems a person is shown: all but the second looks below the cut; and how many were left out. */
export function shownProblems<T extends Ranked>(problems: readonly T[]): { shown: T[]; notShown: number } {
  const { below } = secondLooksByCut(problems);
  const shown = problems.filter((p) => !below.includes(p));
  return { shown, notShown: problems.length - shown.length };
}
