import { z } from 'zod';

/**
 * A problem analysis reports, with where it stands; its own module so every finder can name it. The
 * zod schema is the one source: the type is inferred from it, and the plan file and the tools'
 * output schemas are built on it.
 */
export const Location = z.object({ path: z.string(), line: z.number().int().min(1) });
export type Location = z.infer<typeof Location>;

/** How sure analysis is of a kind of report, earned on the judged set (docs/analysis.md). */
export const Certainty = z.enum(['high', 'medium', 'low']);
export type Certainty = z.infer<typeof Certainty>;

export const Problem = z.object({
  type: z.enum(['duplication', 'contradiction', 'ambiguity']),
  description: z.string(),
  locations: z.array(Location),
  /** Contradictions: the side each location is on; locations on one side agree with each other (see analysis/contradictions/claims.ts). */
  sides: z.array(z.number().int().min(0)).optional(),
  /**
   * Contradictions: lines that only use a side's tool or value (a step that runs `pnpm test`, an
   * example command), with the side they use. Named with the conflict; a choice never drops them.
   */
  mentions: z.array(Location.extend({ side: z.number().int().min(0) })).optional(),
  /** Contradictions: what the rules are about, and what each side says, as the description puts them together. */
  topic: z.string().optional(),
  said: z.string().optional(),
  /** Which rule of analysis found it ("tool-choice", "action", "copied-file", "reworded", ...): docs/analysis.md. */
  kind: z.string().optional(),
  /** How often this kind of report is right on the judged set: high (95% or more), medium or low. */
  certainty: Certainty.optional(),
});
export type Problem = z.infer<typeof Problem>;
