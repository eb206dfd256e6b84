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

/** Words numbered in the order first met. */
export class WordNumbers {
  private readonly ids = new Map<string, number>();
  /** The words, by number. */
  readonly words: string[] = [];

  get size(): number {
    return this.words.length;
  }

  /** The number of `word`, numbered now when it is new. */
  numberOf(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      this.ids.set(word, (id = this.words.length));
      this.words.push(word);
    }
    return id;
  }

  /** Forgets the words numbered `size` and after: the newest. */
  truncate(size: number): void {
    while (this.words.length > size) this.ids.delete(this.words.pop()!);
  }
}

/**
 * The distinct words of a text (lower-cased runs of letters and digits longer than two UTF-16
 * units), numbered through `ids`, appended to `out` in ascending order; their count, or -1 with
 * nothing appended and the words it numbered forgotten when there are fewer than `min`. No string
 * per word, and numbers compare faster than words.
 */
export function addWordIds(text: string, ids: WordNumbers, out: number[], min = 0): number {
  const lower = text.toLowerCase();
  const known = ids.size;
  const from = out.length;
  for (let i = 0; i < lower.length;) {
    let end = i;
    for (let n = wordCharAt(lower, end); n > 0; n = wordCharAt(lower, end)) end += n;
    if (end - i > 2) out.push(ids.numberOf(lower.slice(i, end)));
    i = end > i ? end : i + 1;
  }
  const n = distinctAscending(out, from, out.length);
  if (n >= min) {
    out.length = from + n;
    return n;
  }
  out.length = from;
  // Numbers are handed out in order: forgetting the newest words gives their numbers back.
  ids.truncate(known);
  return -1;
}

/** Sorts `data` from `from` to `to` ascending, in place, and moves its distinct numbers to the front; their count. */
function distinctAscending(data: number[], from: number, to: number): number {
  if (to - from > 32) {
    const sorted = data.slice(from, to).sort((x, y) => x - y);
    for (let k = 0; k < sorted.length; k++) data[from + k] = sorted[k]!;
  } else
    for (let i = from + 1; i < to; i++) {
      const x = data[i]!;
      let j = i - 1;
      for (; j >= from && data[j]! > x; j--) data[j + 1] = data[j]!;
      data[j + 1] = x;
    }
  let n = 0;
  for (let k = from; k < to; k++) if (k === from || data[k] !== data[k - 1]) data[from + n++] = data[k]!;
  return n;
}

/** How many numbers two ascending runs of `data` share. */
function commonCount(data: readonly number[], a: number, aEnd: number, b: number, bEnd: number): number {
  let common = 0;
  for (let i = a, j = b; i < aEnd && j < bEnd;) {
    if (data[i] === data[j]) {
      common++;
      i++;
      j++;
    } else if (data[i]! < data[j]!) i++;
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
  const ids = new WordNumbers();
  // Every unit's word numbers end to end in one list: a typed array per unit costs more than its numbers.
  const lists: number[] = [];
  const items: Item[] = [];
  for (const u of units) {
    if (u.kind !== 'paragraph' && u.kind !== 'list-item') continue;
    const from = lists.length;
    if (addWordIds(normalizedOf(u), ids, lists, MIN_WORDS) >= 0) items.push({ u, from, to: lists.length });
  }
  const postings = postingsOf(items, lists, ids.size);
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
    const common = commonCount(lists, a.from, a.to, b.from, b.to);
    const union = a.to - a.from + (b.to - b.from) - common;
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

/** A unit compared, and where its word numbers are in the one list of them all. */
interface Item {
  u: Unit;
  from: number;
  to: number;
}

/** The items using each word, ascending: those of word w are items[start[w]] to items[start[w + 1] - 1] (two flat arrays, no list per word). */
function postingsOf(list: readonly Item[], words: readonly number[], count: number): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(count + 1);
  for (const x of list) for (let k = x.from; k < x.to; k++) start[words[k]! + 1]!++;
  for (let w = 0; w < count; w++) start[w + 1]! += start[w]!;
  const next = start.slice(0, count);
  const items = new Int32Array(start[count]!);
  for (let i = 0; i < list.length; i++) {
    const x = list[i]!;
    for (let k = x.from; k < x.to; k++) items[next[words[k]!]!++] = i;
  }
  return { start, items };
}

function excerpt(t: string): string {
  const one = t.replace(/\n/g, ' ');
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
