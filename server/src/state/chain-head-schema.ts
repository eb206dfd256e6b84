import { z } from 'zod';
import { Sha256 } from '../model/source.js';

/**
 * The chain head's schema, apart from the other stored files' (state/schema.ts, which re-exports
 * these): every analyze checks the head before it writes its trace, and building every stored-file
 * schema for that cost a CLI process about 15 ms and 3 MB.
 */

/**
 * `trace-chain.json`, the chain head: the newest trace's seq, the sha256 of its bytes, its path and
 * timestamp, and the seq of every trace written after a break in the chain.
 */
export const ChainHead = z.object({
  seq: z.number().int().min(0),
  sha256: Sha256.nullable(),
  file: z.string().nullable(),
  timestamp: z.string().optional(),
  breaks: z.array(z.number().int().min(1)).optional(),
  /**
   * The read-only chain only: its oldest traces up to `seq` were removed by the size policy (recorded
   * here before they were removed), and the trace after them names `sha256` as its `prev`.
   */
  prunedThrough: z.object({ seq: z.number().int().min(1), sha256: Sha256 }).optional(),
});
export type ChainHead = z.infer<typeof ChainHead>;
