import { z } from 'zod';
import { Problem } from './problem.js';
import { Skipped, SourceInfo } from './source.js';

/** What analysis finds. The zod schemas are the one source: analysis, the plan file and the tools' output schemas share them. */

/** How a repository's instructions stand: none, in `## ` sections, not yet, or contradicting each other. */
export const Pattern = z.enum(['clean', 'structured', 'unstructured', 'messy']);
export type Pattern = z.infer<typeof Pattern>;

export const Analysis = z.object({
  pattern: Pattern,
  sources: z.array(SourceInfo),
  problems: z.array(Problem),
  skipped: z.array(Skipped),
  /** Per readable document: whether it is already organised in `## ` sections. */
  structured: z.record(z.string(), z.boolean()),
  /**
   * What was found, in words that fit it: the pattern alone says "unstructured" both for a flat
   * copilot-instructions.md and for an AGENTS.md with headings whose rules still have to move.
   */
  patternDetail: z.string(),
});
export type Analysis = z.infer<typeof Analysis>;
