import type { Problem } from './problem.js';

/**
 * How many pairs worth a second look a person is shown for one repository (analyze's report, check,
 * approve's first round): the highest ranked, as analysis orders them. The full ranked list stays in
 * the JSON output (analyze --json, the tools' structuredContent).
 */
export const SHOWN_SECOND_LOOKS = 8;

/** A contradiction only worth a second look (certainty low). */
export const isSecondLook = (p: Pick<Problem, 'type' | 'certainty'>): boolean => p.type === 'contradiction' && p.certainty === 'low';

/** The problems a person is shown: all but the second looks past the first few; and how many were left out. */
export function shownProblems<T extends Pick<Problem, 'type' | 'certainty'>>(problems: readonly T[]): { shown: T[]; notShown: number } {
  let seen = 0;
  const shown = problems.filter((p) => !isSecondLook(p) || ++seen <= SHOWN_SECOND_LOOKS);
  return { shown, notShown: problems.length - shown.length };
}
