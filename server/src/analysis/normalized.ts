import { normalizedText, type Unit } from '../model/model.js';

/**
 * A unit's normalised text, worked out once per scan and analysis: the copies search and every pass
 * (repeats, drifted copies, rewordings, trivial lines) ask for it. The cache lives only while
 * {@link withNormalizedCache} runs (no unit changes during an analysis) and in the scan that keeps it
 * for its analysis; outside them, the text is worked out each time.
 */
// A plain Map: it is dropped with the analysis, and a WeakMap costs the garbage collector more.
let cache: Map<Unit, string> | null = null;

export function normalizedOf(u: Unit): string {
  if (cache === null) return normalizedText(u);
  let text = cache.get(u);
  if (text === undefined) cache.set(u, (text = normalizedText(u)));
  return text;
}

/** Runs with the cache on: `texts` when given (the scan's, filled by an earlier run), else a new one. */
export function withNormalizedCache<T>(run: () => T, texts?: Map<Unit, string>): T {
  const outer = cache;
  cache = outer ?? texts ?? new Map();
  try {
    return run();
  } finally {
    cache = outer;
  }
}
