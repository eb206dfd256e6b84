import { diffArrays } from 'diff';
import { judgePair, type PairContext, type SecondLook } from './judge.js';
import type { RuleLine } from './rule-lines.js';
import { lineTerms } from './terms.js';

/** Two files of which one is a copy of the other (a copy, a twin, a synced source: analysis/repeats/copies.ts). */
export interface CopyOf {
  path: string;
  keptPath: string;
}

/** Lines replaced in one place of a copy are compared only in small runs (a rewritten section is not a drift). */
const MAX_RUN = 3;
/** How alike two lines standing in one place of two copies are taken to be: about one thing, whatever their words' rarity. */
const SAME_PLACE = 0.5;

/**
 * The lines standing in the same place of a file and its copy but written differently (the files
 * aligned line by line, a diff of their texts): one of each is a drifted copy of the other, however
 * common its words are in the repository (`- tool - 8.5.2` / `- tool - 8.3.28` in a generated list).
 * Judged as any pair: only a changed value or a turned polarity makes it one.
 */
export function copyPairs(all: readonly RuleLine[], copies: readonly CopyOf[], context: PairContext): SecondLook[] {
  if (copies.length === 0) return [];
  const byFile = new Map<string, RuleLine[]>();
  for (const l of all) (byFile.get(l.path) ?? byFile.set(l.path, []).get(l.path)!).push(l);
  const out: SecondLook[] = [];
  for (const c of copies) {
    const [kept, copy] = [byFile.get(c.keptPath) ?? [], byFile.get(c.path) ?? []];
    if (kept.length === 0 || copy.length === 0) continue;
    const parts = diffArrays(
      kept.map((l) => l.text.trim()),
      copy.map((l) => l.text.trim()),
    );
    let [i, j] = [0, 0];
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      const count = part.count ?? part.value.length;
      const next = parts[k + 1];
      if (part.removed && next?.added && count === (next.count ?? next.value.length) && count <= MAX_RUN)
        for (let n = 0; n < count; n++) {
          const [a, b] = [kept[i + n]!, copy[j + n]!];
          const [ra, rb] = [lineTerms(a.text, a.code, a.wrong), lineTerms(b.text, b.code, b.wrong)];
          const pair = judgePair(a, b, ra, rb, new Set(rb.terms), SAME_PLACE, context);
          if (pair) out.push(pair);
        }
      if (!part.added) i += count;
      if (!part.removed) j += count;
    }
  }
  return out;
}
