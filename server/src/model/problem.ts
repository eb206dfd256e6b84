import { z } from 'zod';
import { CERTAINTIES, kindsOf } from './findings.js';

/**
 * A problem analysis reports, with where it stands; its own module so every finder can name it. The
 * zod schema is the one source: the type is inferred from it, and the plan file and the tools'
 * output schemas are built on it. Its types and kinds are the findings table's (findings.ts).
 */
export const Location = z.object({ path: z.string(), line: z.number().int().min(1) });
export type Location = z.infer<typeof Location>;

/** How sure analysis is of a kind of report, earned on the judged set (docs/analysis.md). */
export const Certainty = z.enum(CERTAINTIES);
export type Certainty = z.infer<typeof Certainty>;

/** What every problem has. */
const found = {
  description: z.string(),
  locations: z.array(Location),
  /** How often this kind of report is right on the judged set: high (95% or more), medium or low (findings.ts). */
  certainty: Certainty,
};

const Side = z.number().int().min(0);

export const Contradiction = z.object({
  type: z.literal('contradiction'),
  /** Which rule of analysis found it ("tool-choice", "action", "drifted-copy", ...): docs/analysis.md. */
  kind: z.enum(kindsOf('contradiction')),
  ...found,
  /** The side each location is on; locations on one side agree with each other (see analysis/contradictions/claims.ts). */
  sides: z.array(Side),
  /**
   * Lines that only use a side's tool or value (a step that runs `pnpm test`, an example command),
   * with the side they use. Named with the conflict; a choice never drops them.
   */
  mentions: z.array(Location.extend({ side: Side })).optional(),
  /** What the rules are about ("package manager"): the planner names a conflict's marks by it. */
  topic: z.string(),
  /** What each side says, as the description puts them together (`"pnpm" (a.md:1) vs "npm" (b.md:2)`). */
  said: z.string(),
  /**
   * A second look nothing marks (two alike lines of two files): in the JSON and read by the client's
   * model, shown to a person only when the model raises it (model/second-looks-shown.ts).
   */
  listedOnly: z.literal(true).optional(),
});
export type Contradiction = z.infer<typeof Contradiction>;

export const Duplication = z.object({
  type: z.literal('duplication'),
  kind: z.enum(kindsOf('duplication')),
  ...found,
  /** Near and reworded repeats: the rules the description quotes, as data (one rule said alike in many places quotes them all). */
  quoted: z.array(z.string()).optional(),
});
export type Duplication = z.infer<typeof Duplication>;

export const Ambiguity = z.object({ type: z.literal('ambiguity'), kind: z.enum(kindsOf('ambiguity')), ...found });
export type Ambiguity = z.infer<typeof Ambiguity>;

export const Problem = z.discriminatedUnion('type', [Duplication, Contradiction, Ambiguity]);
export type Problem = z.infer<typeof Problem>;

/** Omit over each member of a union. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A problem as a finder reports it: analysis adds the certainty of its kind (findings.ts). */
export type Found = OmitEach<Problem, 'certainty'>;
export type FoundContradiction = Omit<Contradiction, 'certainty'>;
export type FoundDuplication = Omit<Duplication, 'certainty'>;
