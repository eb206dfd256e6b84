import { z } from 'zod';

/**
 * What the client's model thought of the second-look pairs propose put to it (narrate/opinion.ts):
 * kept beside the plan, never part of it. A verdict is here only when the model quoted both lines as
 * they stand in the files; it moved the pair's rank and decided nothing.
 */

export const VERDICTS = ['conflict', 'compatible', 'unsure'] as const;
export const Verdict = z.enum(VERDICTS);
export type Verdict = z.infer<typeof Verdict>;

export const CountedVerdict = z.object({
  /** The conflict's id in the plan (`conflict_7`). */
  id: z.string(),
  verdict: Verdict,
  /** The model's one sentence, as it wrote it (cut): shown escaped, labelled as the model's. */
  reason: z.string(),
  /** Its place among the second-look pairs (1 = first) before and after the model's verdicts. */
  rankBefore: z.number().int().min(1),
  rank: z.number().int().min(1),
});
export type CountedVerdict = z.infer<typeof CountedVerdict>;

export const DroppedVerdict = z.object({ id: z.string(), why: z.string() });
export type DroppedVerdict = z.infer<typeof DroppedVerdict>;

export const ModelOpinion = z.object({
  /** The model's name as the client gave it (untrusted: shown escaped). */
  model: z.string(),
  /** How many pairs were put to it. */
  asked: z.number().int().min(0),
  verdicts: z.array(CountedVerdict),
  /** Verdicts that did not count (a quote that is not the line, an unknown pair), and why. */
  dropped: z.array(DroppedVerdict),
  /** The second-look pairs' ids in the order the verdicts give them. */
  ranked: z.array(z.string()),
  /** The sampling trace of the exchange. */
  trace: z.string().nullable(),
});
export type ModelOpinion = z.infer<typeof ModelOpinion>;
