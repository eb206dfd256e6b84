import type { Problem } from '../model/problem.js';
import { byCodeUnit } from '../common/collections.js';
import { normalizedOf } from './normalized.js';
import { type Scope, type Unit } from '../model/model.js';
import { scopesOverlap } from './scope-overlap.js';

/** Units shorter than this many words are too generic to call drifted copies. */
const MIN_WORDS = 8;
/** Word-set similarity from which two different units are near-identical. */
const THRESHOLD = 0.75;
/** Words in more units than this say nothing about which units are alike. */
const MAX_POSTINGS = 60;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** UTF-16 units of the letter or digit at `i`, 0 when there is none (ASCII without a regular expression). */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) ? 1 : 0;
  const units = text.codePointAt(i)! > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(i, i + units)) ? units : 0;
}

/**
 * The distinct words of a text (lower-cased runs of letters and digits longer than two UTF-16 units), numbered through `ids` (a word first met gets the next
 * number, `ids.size`), in ascending order; null, with the words it numbered forgotten, when there are
 * fewer than `min`. No list of strings per text, and numbers compare faster than words.
 */
export function wordIdsOf(text: string, ids: Map<string, number>, min = 0): Int32Array | null {
  const lower = text.toLowerCase();
  const found: number[] = [];
  const fresh: string[] = [];
  for (let i = 0; i < lower.length;) {
    let end = i;
    for (let n = wordCharAt(lower, end); n > 0; n = wordCharAt(lower, end)) end += n;
    if (end - i > 2) {
      const w = lower.slice(i, end);
      let id = ids.get(w);
      if (id === undefined) {
        ids.set(w, (id = ids.size));
        fresh.push(w);
      }
      found.push(id);
    }
    i = end > i ? end : i + 1;
  }
  const sorted = Int32Array.from(found).sort();
  let n = 0;
  for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) sorted[n++] = sorted[k]!;
  if (n >= min) return sorted.slice(0, n);
  // Numbers are handed out in order: forgetting the newest words gives their numbers back.
  for (const w of fresh) ids.delete(w);
  return null;
}

/** How many numbers two ascending lists share. */
function commonCount(a: Int32Array, b: Int32Array): number {
  let common = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return common;
}

/**
 * Paragraphs and rules in different files that say nearly the same thing in slightly different
 * words: copies that drifted apart. Exact copies are reported elsewhere. Candidates come from shared rare words, so
 * the cost stays near linear in the number of units. Files whose scopes never meet each need their copy.
 */
export function findNearDuplicates(units: Unit[], scopeOf: (u: Unit) => Scope = () => ({ kind: 'repo' })): Problem[] {
  // Words are numbered in the order the compared units first use them: the postings below are met in that order.
  const ids = new Map<string, number>();
  const items: { u: Unit; words: Int32Array }[] = [];
  for (const u of units) {
    if (u.kind !== 'paragraph' && u.kind !== 'list-item') continue;
    const words = wordIdsOf(normalizedOf(u), ids, MIN_WORDS);
    if (words !== null) items.push({ u, words });
  }
  const postings = postingsOf(items, ids.size);
  // Pairs by number (i * n + j): a repository of thousands of rules makes hundreds of thousands of them.
  const n = items.length;
  const shared = new Map<number, number>();
  for (let w = 0; w < ids.size; w++) {
    const from = postings.start[w]!;
    const to = postings.start[w + 1]!;
    if (to - from < 2 || to - from > MAX_POSTINGS) continue;
    for (let a = from; a < to; a++)
      for (let b = a + 1; b < to; b++) {
        const i = postings.items[a]!;
        const j = postings.items[b]!;
        // Rules of one file are never drifted copies (below): their pairs are not counted at all.
        if (items[i]!.u.path === items[j]!.u.path) continue;
        const key = i * n + j;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
  }
  const problems: Problem[] = [];
  for (const [key, rare] of shared) {
    if (rare < 2) continue;
    const a = items[Math.floor(key / n)]!;
    const b = items[key % n]!;
    const aText = normalizedOf(a.u);
    // Drifted copies live in different files; alike lines in one file are usually a list's pattern.
    if (aText === normalizedOf(b.u) || a.u.path === b.u.path || !scopesOverlap(scopeOf(a.u), scopeOf(b.u))) continue;
    const common = commonCount(a.words, b.words);
    const union = a.words.length + b.words.length - common;
    if (common / union < THRESHOLD) continue;
    problems.push({
      type: 'duplication',
      kind: 'near',
      description: `Near-identical rules (drifted copies, ${Math.round((100 * common) / union)}% the same words): "${excerpt(aText)}"`,
      locations: [
        { path: a.u.path, line: a.u.line },
        { path: b.u.path, line: b.u.line },
      ],
    });
  }
  return problems.sort((x, y) => byCodeUnit(x.locations[0]!.path, y.locations[0]!.path) || x.locations[0]!.line - y.locations[0]!.line);
}

/** The items using each word, ascending: those of word w are items[start[w]] to items[start[w + 1] - 1] (two flat arrays, no list per word). */
function postingsOf(list: readonly { words: Int32Array }[], words: number): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(words + 1);
  // Indexed loops: iterating a typed array with for-of allocates a result object per number until optimised.
  for (const x of list) for (let k = 0; k < x.words.length; k++) start[x.words[k]! + 1]!++;
  for (let w = 0; w < words; w++) start[w + 1]! += start[w]!;
  const next = start.slice(0, words);
  const items = new Int32Array(start[words]!);
  list.forEach((x, i) => {
    for (let k = 0; k < x.words.length; k++) items[next[x.words[k]!]!++] = i;
  });
  return { start, items };
}

function excerpt(t: string): string {
  const one = t.replace(/\n/g, ' ');
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
