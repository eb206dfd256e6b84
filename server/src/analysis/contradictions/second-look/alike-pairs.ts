import { pairKey } from '../../../model/place-pairs.js';
import { scopesOverlap } from '../../scope/scope-overlap.js';
import type { RuleLine } from './rule-lines.js';

/**
 * Lines of two files about one subject, whatever marks them or not: for each line, the lines of other
 * files whose scopes meet it that share most of its weighted words (tf-idf over this repository's own
 * lines, a cosine), best first. No shape of a value or a negation is asked for: the learned ranking
 * (rank.ts) reads what the two lines hold, and the client's model reads the pairs it ranks high.
 */

/** A line meets at most this many later lines (the most alike first): a bound on large repositories. */
const PARTNERS = 8;
/** Below this cosine, two lines share no more than a word or two of a long line. */
const MIN_COSINE = 0.1;

/** One pair of alike lines, as indexes into the lines read. */
export interface AlikePair {
  x: number;
  y: number;
  /** Cosine of their weighted words. */
  cosine: number;
  /** The weight of the rarest word both hold, against the rarest a line could hold (0 to 1). */
  rarest: number;
  /** How many words both hold that are rare here (weight at least half the largest). */
  rareShared: number;
  /** The rarest word both hold. */
  subject: string;
}

/** The lines' words and their weights: read once, for the pairs and their features. */
export interface LineWords {
  words: readonly (readonly string[])[];
  weight: (word: string) => number;
  /** The largest weight a word can have here (a word on one line). */
  top: number;
}

const WORD_ASCII = /[A-Za-z0-9_][\w./-]*/g;
const WORD = /[\p{L}\p{N}_][\p{L}\p{N}_./-]*/gu;
const ASCII = /^[\t -~]*$/;

/** A line's words: lower-cased, three characters or more, not a number, each once. */
export function wordsOfLine(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(ASCII.test(text) ? WORD_ASCII : WORD)) {
    const w = m[0].replace(/[./-]+$/, '');
    if (w.length >= 3 && !/^\d+$/.test(w)) out.add(w);
  }
  return [...out];
}

export function readWords(lines: readonly RuleLine[]): LineWords {
  const words = lines.map((l) => wordsOfLine(l.text));
  const df = new Map<string, number>();
  for (const ws of words) for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
  const top = Math.log(lines.length + 1);
  return { words, weight: (w) => Math.log((lines.length + 1) / (df.get(w) ?? 1)), top };
}

/** The alike pairs of lines from two files whose scopes meet, not a pair already held (`taken`), each line's best first. */
export function alikePairs(lines: readonly RuleLine[], read: LineWords, taken: ReadonlySet<string>): AlikePair[] {
  const { words, weight, top } = read;
  const n = lines.length;
  // Words on very many lines pair no lines by themselves (their lists would be read for every line).
  const cap = Math.max(20, n / 50);
  const postings = new Map<string, number[]>();
  const norms = new Float64Array(n);
  words.forEach((ws, i) => {
    let sum = 0;
    for (const w of ws) {
      sum += weight(w) ** 2;
      const list = postings.get(w);
      if (list) list.push(i);
      else postings.set(w, [i]);
    }
    norms[i] = Math.sqrt(sum) || 1;
  });
  for (const [w, list] of postings) if (list.length < 2 || list.length > cap) postings.delete(w);
  const out: AlikePair[] = [];
  const dot = new Float64Array(n);
  const touched: number[] = [];
  for (let x = 0; x < n; x++) {
    for (const w of words[x]!) {
      const list = postings.get(w);
      if (!list) continue;
      const ww = weight(w) ** 2;
      for (let k = list.length - 1; k >= 0 && list[k]! > x; k--) {
        const y = list[k]!;
        if (dot[y] === 0) touched.push(y);
        dot[y]! += ww;
      }
    }
    const met: { y: number; cosine: number }[] = [];
    for (const y of touched) {
      const cosine = dot[y]! / (norms[x]! * norms[y]!);
      dot[y] = 0;
      if (cosine < MIN_COSINE) continue;
      const [a, b] = [lines[x]!, lines[y]!];
      // The same line twice is a repeat: its words' cosine is 1.
      if (a.path === b.path || a.unit === b.unit || (cosine > 0.999 && a.text.trim() === b.text.trim())) continue;
      met.push({ y, cosine });
    }
    touched.length = 0;
    met.sort((p, q) => q.cosine - p.cosine || p.y - q.y);
    let kept = 0;
    for (const { y, cosine } of met) {
      if (kept === PARTNERS) break;
      const [a, b] = [lines[x]!, lines[y]!];
      // Read only for the few kept: where scopes meet, and pairs not held already.
      if (!scopesOverlap(a.scope, b.scope) || (taken.size > 0 && taken.has(pairKey(a, b)))) continue;
      out.push({ x, y, cosine, ...shared(words[x]!, words[y]!, weight, top) });
      kept++;
    }
  }
  return out;
}

/** How alike lines `x` and `y` are (a pair the finder marked is read so, the same as an alike pair). */
export function likeness(read: LineWords, x: number, y: number): Omit<AlikePair, 'x' | 'y'> {
  const [a, b] = [read.words[x]!, read.words[y]!];
  const other = new Set(b);
  let [dot, na, nb] = [0, 0, 0];
  for (const w of a) {
    const ww = read.weight(w) ** 2;
    na += ww;
    if (other.has(w)) dot += ww;
  }
  for (const w of b) nb += read.weight(w) ** 2;
  return { cosine: dot / (Math.sqrt(na * nb) || 1), ...shared(a, b, read.weight, read.top) };
}

/** What two lines' words have in common: the rarest, its weight, and how many rare ones. */
function shared(a: readonly string[], b: readonly string[], weight: (w: string) => number, top: number) {
  const other = new Set(b);
  let [rarest, subject, rareShared] = [0, '', 0];
  for (const w of a) {
    if (!other.has(w)) continue;
    const r = weight(w) / top;
    if (r > rarest) [rarest, subject] = [r, w];
    if (r >= 0.5) rareShared++;
  }
  return { rarest, rareShared, subject };
}
