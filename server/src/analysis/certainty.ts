/**
 * How sure analysis is of each kind of report, earned on the judged set (tests/fixtures/judged-detection,
 * `npm run quality`): `high` only for a kind right at least 95% of the time there, over at least 5
 * reports, and not contradicted by what the corpus showed; `medium` for kinds right there but seen
 * wrong on real files or judged on too few cases; `low` for kinds the set does not measure.
 * docs/analysis.md lists the figures behind each line.
 */
import type { Certainty, Problem } from '../model/problem.js';

export const CERTAINTY: Readonly<Record<string, Certainty>> = {
  // Contradictions.
  'contradiction/tool-choice': 'high',
  'contradiction/version': 'high',
  'contradiction/setup-step': 'high',
  'contradiction/action': 'medium',
  'contradiction/command': 'medium',
  'contradiction/always-never': 'medium',
  'contradiction/command-use': 'medium',
  'contradiction/fact': 'medium',
  // Rules that say one thing differently (drift.ts): a value changed in a copy and one helper named
  // two ways (a letter left out, no line naming both: one of the two names is wrong) are reported; a
  // labelled line edited in one copy, a flag on every run in one file only and the poles of a style
  // choice are worth a second look (low: shown, never failing check, never marked in a file).
  'contradiction/drifted-copy': 'medium',
  'contradiction/drifted-name': 'medium',
  'contradiction/drifted-line': 'low',
  'contradiction/drifted-flag': 'low',
  'contradiction/style-pair': 'low',
  // A folder a structure tree lists under one root and rules name under another (stale-layout.ts).
  'contradiction/stale-path': 'low',
  // One command as routine in one rule and as a last resort in another (frequency.ts).
  'contradiction/frequency': 'low',
  // Duplicates.
  'duplication/exact': 'high',
  'duplication/copied-file': 'medium',
  'duplication/copied-section': 'medium',
  'duplication/near': 'medium',
  'duplication/reworded': 'medium',
  'duplication/heading': 'low',
  // Hidden characters are read, not guessed; so are import lines past a cap, counted.
  'ambiguity/hidden-character': 'high',
  'ambiguity/imports-not-followed': 'high',
};

/** The bar a kind must clear on the judged set to be `high`. */
export const HIGH_PRECISION = 0.95;
export const HIGH_MIN_REPORTS = 5;

export function certaintyOf(p: Pick<Problem, 'type' | 'kind'>): Certainty {
  return CERTAINTY[`${p.type}/${p.kind ?? ''}`] ?? 'low';
}
