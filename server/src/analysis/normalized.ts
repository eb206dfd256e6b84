import { normalizedText, type Unit } from '../model/model.js';

/**
 * A unit's normalised text, worked out once per analysis: every pass (repeats, drifted copies,
 * rewordings, trivial lines) asks for it. The cache lives only while {@link withNormalizedCache}
 * runs (no unit changes during an analysis); outside it, the text is worked out each time.
 */
// A plain Map: it is dropped with the analysis, and a WeakMap costs the garbage collector more.
let cache: Map<Unit, string> | null = null;

export function normalizedOf(u: Unit): string {
  if (cache === null) return normalizedText(u);
  let text = cache.get(u);
  if (text === undefined) cache.set(u, (text = normalizedText(u)));
  return text;
}

export function withNormalizedCache<T>(run: () => T): T {
  const outer = cache;
  cache = outer ?? new Map();
  try {
    return run();
  } finally {
    cache = outer;
  }
}
