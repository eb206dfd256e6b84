/**
 * How sure analysis is of each kind of report, earned on the judged set (tests/fixtures/judged-detection,
 * `npm run quality`): `high` only for a kind right at least 95% of the time there, over at least 5
 * reports, and not contradicted by what the corpus showed; `medium` for kinds right there but seen
 * wrong on real files or judged on too few cases; `low` for kinds the set does not measure.
 * docs/analysis.md lists the figures behind each line. The certainty of each kind is its row in the
 * findings table (model/findings.ts); this is the bar, and the table by `type/kind`.
 */
import { certaintyOf, TYPED_KINDS } from '../model/findings.js';
import type { Certainty } from '../model/problem.js';

/** Each kind's certainty by `type/kind` ("contradiction/tool-choice"), from the findings table. */
export const CERTAINTY: Readonly<Record<string, Certainty>> = Object.fromEntries(
  TYPED_KINDS.map((k) => {
    const [type, kind] = k.split('/') as [never, never];
    return [k, certaintyOf({ type, kind })];
  }),
);

/** The bar a kind must clear on the judged set to be `high`. */
export const HIGH_PRECISION = 0.95;
export const HIGH_MIN_REPORTS = 5;
