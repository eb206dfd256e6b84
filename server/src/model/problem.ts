/** A problem analysis reports, with where it stands; its own module so every finder can name it. */
export interface Location {
  path: string;
  line: number;
}

export interface Problem {
  type: 'duplication' | 'contradiction' | 'ambiguity';
  description: string;
  locations: Location[];
  /** Contradictions: the side each location is on (see claims.ts). */
  sides?: number[];
}
