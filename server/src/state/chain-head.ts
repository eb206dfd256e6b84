import type { ChainHead } from './chain-head-schema.js';

/**
 * The chain head as its schema (state/chain-head-schema.ts) reads it, or null where the schema
 * refuses it, without zod: every analyze after the first checks the head before it writes its
 * trace, and loading zod for that cost a CLI process about 13 ms and 3 MB. The zod schema stays
 * the one that defines the type and the JSON Schema; tests/state/chain-head.test.ts holds the two to
 * the same answers.
 */
export function chainHeadFrom(json: unknown): ChainHead | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { seq, sha256, file, timestamp, breaks, prunedThrough } = json as Record<string, unknown>;
  if (!isWhole(seq, 0)) return null;
  if (sha256 !== null && !(typeof sha256 === 'string' && SHA256.test(sha256))) return null;
  if (file !== null && typeof file !== 'string') return null;
  if (timestamp !== undefined && typeof timestamp !== 'string') return null;
  if (breaks !== undefined && !(Array.isArray(breaks) && breaks.every((b) => isWhole(b, 1)))) return null;
  const pruned = prunedThrough === undefined ? undefined : prunedFrom(prunedThrough);
  if (pruned === null) return null;
  return {
    seq,
    sha256,
    file,
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(breaks === undefined ? {} : { breaks: [...(breaks as number[])] }),
    ...(pruned === undefined ? {} : { prunedThrough: pruned }),
  };
}

function prunedFrom(v: unknown): { seq: number; sha256: string } | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const { seq, sha256 } = v as Record<string, unknown>;
  return isWhole(seq, 1) && typeof sha256 === 'string' && SHA256.test(sha256) ? { seq, sha256 } : null;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** zod's `.int()`: a safe integer; and at least `min`. */
const isWhole = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
