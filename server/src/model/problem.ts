/** A problem analysis reports, with where it stands; its own module so every finder can name it. */
export interface Location {
  path: string;
  line: number;
}

/** How sure analysis is of a kind of report, earned on the judged set (docs/analysis.md). */
export type Certainty = 'high' | 'medium' | 'low';

export interface Problem {
  type: 'duplication' | 'contradiction' | 'ambiguity';
  description: string;
  locations: Location[];
  /** Contradictions: the side each location is on (see claims.ts). */
  sides?: number[];
  /** Which rule of analysis found it ("tool-choice", "action", "copied-file", ...): see docs/analysis.md. */
  kind?: string;
  /** How often this kind of report is right on the judged set: high (95% or more), medium, low. */
  certainty?: Certainty;
}
