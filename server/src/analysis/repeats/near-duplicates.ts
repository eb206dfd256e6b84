import type { FoundDuplication } from '../../model/problem.js';
import { byCodeUnit } from '../../common/collections.js';
import type { NormalizedOf } from './normalized.js';
import { normalizedText, type Scope, type Unit } from '../../model/model.js';
import { scopesOverlap } from '../scope/scope-overlap.js';

/** Units shorter than this many words are too generic to call drifted copies. */
const MIN_WORDS = 8;
/** Word-set similarity from which two different units are near-identical. */
const THRESHOLD = 0.75;
/** Words in more units than this say nothing about which units are alike. */
const MAX_POSTINGS = 60;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** UTF-16 units of the letter or digit at `i`, a character past ASCII (WordTable.add tests ASCII itself), 0 when it is none. */
function wordCharPastAscii(text: string, i: number): number {
  const units = text.codePointAt(i)! > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(i, i + units)) ? units : 0;
}

/**
 * Every compared text's distinct words as numbers, end to end in one typed array: the words of text
 * k are `words[start[k]]` to `words[start[k + 1] - 1]`, in the order first met. One array for all
 * (sized before it is filled, so never replaced), not a typed array and an object per text: what an
 * analysis keeps until it ends is copied by every collection of the young generation.
 */
class WordTable {
  words: Int32Array;
  readonly start: number[] = [0];
  /** By word number: the last text that used it (a word counts once per text). */
  private readonly lastText: number[] = [];
  private texts = 0;
  private readonly fresh: string[] = [];

  /** `ids`: each word's number (a word first met gets the next one, `ids.size`). */
  constructor(
    capacity: number,
    readonly ids = new Map<string, number>(),
  ) {
    this.words = new Int32Array(capacity);
    for (let k = 0; k < ids.size; k++) this.lastText.push(-1);
  }

  /** How many texts were added. */
  get count(): number {
    return this.start.length - 1;
  }

  /** How many distinct words text k has. */
  size(k: number): number {
    return this.start[k + 1]! - this.start[k]!;
  }

  /**
   * Adds the distinct words of a text (lower-cased runs of letters and digits longer than two UTF-16
   * units); true, or false with the words it numbered forgotten when there are fewer than `min`.
   */
  add(text: string, min: number): boolean {
    const lower = text.toLowerCase();
    // A word is three units or more and one more separates it from the next: at most (n + 1) / 4 words.
    const from = this.start[this.start.length - 1]!;
    this.reserve(from + ((lower.length + 1) >> 2));
    const textNo = this.texts++;
    // Locals, not fields: this runs for every text, before it is optimised.
    const { words, ids, lastText, fresh } = this;
    let end = from;
    // The words this text numbered first are fresh[0] to fresh[added - 1] (the list is not emptied: setting a length is a call).
    let added = 0;
    for (let i = 0; i < lower.length;) {
      let to = i;
      while (to < lower.length) {
        // An ASCII letter or digit is tested here, not in a call per character (this runs before it is optimised).
        const c = lower.charCodeAt(to);
        if (c < 128) {
          if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)) to++;
          else break;
        } else {
          const n = wordCharPastAscii(lower, to);
          if (n === 0) break;
          to += n;
        }
      }
      if (to - i > 2) {
        const w = lower.slice(i, to);
        let id = ids.get(w);
        if (id === undefined) {
          ids.set(w, (id = ids.size));
          lastText.push(-1);
          fresh[added++] = w;
        }
        if (lastText[id] !== textNo) {
          lastText[id] = textNo;
          words[end++] = id;
        }
      }
      i = to > i ? to : i + 1;
    }
    if (end - from >= min) {
      this.start.push(end);
      return true;
    }
    // Numbers are handed out in order: forgetting the newest words gives their numbers back.
    for (let k = 0; k < added; k++) {
      ids.delete(fresh[k]!);
      lastText.pop();
    }
    return false;
  }

  /** Room for `size` numbers; only a text whose lower case is longer than itself can need more than was reserved. */
  private reserve(size: number): void {
    if (size <= this.words.length) return;
    const bigger = new Int32Array(Math.max(size, 2 * this.words.length));
    bigger.set(this.words);
    this.words = bigger;
  }
}

/**
 * The distinct words of a text (lower-cased runs of letters and digits longer than two UTF-16 units), numbered through `ids` (a word first met gets the next
 * number, `ids.size`), in ascending order; null, with the words it numbered forgotten, when there are
 * fewer than `min`.
 */
export function wordIdsOf(text: string, ids: Map<string, number>, min = 0): Int32Array | null {
  const table = new WordTable(0, ids);
  return table.add(text, min) ? table.words.slice(0, table.start[1]).sort() : null;
}

/**
 * Paragraphs and rules in different files that say nearly the same thing in slightly different
 * words: copies that drifted apart. Exact copies are reported elsewhere. Candidates come from shared rare words, so
 * the cost stays near linear in the number of units. Files whose scopes never meet each need their copy.
 */
export function findNearDuplicates(
  units: Unit[],
  scopeOf: (u: Unit) => Scope = () => ({ kind: 'repo' }),
  normalizedOf: NormalizedOf = normalizedText,
  /** The files whose scope may meet another file's (scope-overlap.ts): a pair needs two of them. */
  meeting?: ReadonlySet<string>,
): FoundDuplication[] {
  // Near repeats are two files' copies in one scope: where no two files may meet (rule files scoped
  // to their own folders), no unit is read.
  if (meeting !== undefined && meeting.size < 2) return [];
  const compared = units.filter((u) => u.kind === 'paragraph' || u.kind === 'list-item');
  const texts = compared.map(normalizedOf);
  let capacity = 0;
  for (let k = 0; k < texts.length; k++) capacity += (texts[k]!.length + 1) >> 2;
  // Words are numbered in the order the compared units first use them: the postings below are met in that order.
  const table = new WordTable(capacity);
  const items: Unit[] = [];
  for (let k = 0; k < texts.length; k++) if (table.add(texts[k]!, MIN_WORDS)) items.push(compared[k]!);
  const postings = postingsOf(table);
  // Pairs by number (i * n + j): a repository of thousands of rules makes hundreds of thousands of them.
  const n = items.length;
  const shared = new Map<number, number>();
  for (let w = 0; w < table.ids.size; w++) {
    const from = postings.start[w]!;
    const to = postings.start[w + 1]!;
    if (to - from < 2 || to - from > MAX_POSTINGS) continue;
    for (let a = from; a < to; a++)
      for (let b = a + 1; b < to; b++) {
        const i = postings.items[a]!;
        const j = postings.items[b]!;
        // Rules of one file are never drifted copies (below): their pairs are not counted at all.
        if (items[i]!.path === items[j]!.path) continue;
        const key = i * n + j;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
  }
  const problems: FoundDuplication[] = [];
  const common = new CommonWords(table);
  for (const [key, rare] of shared) {
    if (rare < 2) continue;
    const i = Math.floor(key / n);
    const j = key % n;
    const a = items[i]!;
    const b = items[j]!;
    const aText = normalizedOf(a);
    // Drifted copies live in different files; alike lines in one file are usually a list's pattern.
    if (aText === normalizedOf(b) || a.path === b.path || !scopesOverlap(scopeOf(a), scopeOf(b))) continue;
    const together = common.count(i, j);
    const union = table.size(i) + table.size(j) - together;
    if (together / union < THRESHOLD) continue;
    const quoted = excerpt(aText);
    problems.push({
      type: 'duplication',
      kind: 'near',
      description: `Near-identical rules (drifted copies, ${Math.round((100 * together) / union)}% the same words): "${quoted}"`,
      locations: [
        { path: a.path, line: a.line },
        { path: b.path, line: b.line },
      ],
      quoted: [quoted],
    });
  }
  return problems.sort((x, y) => byCodeUnit(x.locations[0]!.path, y.locations[0]!.path) || x.locations[0]!.line - y.locations[0]!.line);
}

/** How many words two texts of a table share: one text's words marked, the other's counted (no sorted copy of either). */
class CommonWords {
  private readonly mark: Int32Array;
  private pairs = 0;

  constructor(private readonly table: WordTable) {
    this.mark = new Int32Array(table.ids.size);
  }

  count(a: number, b: number): number {
    const { words, start } = this.table;
    const token = ++this.pairs;
    for (let k = start[a]!; k < start[a + 1]!; k++) this.mark[words[k]!] = token;
    let common = 0;
    for (let k = start[b]!; k < start[b + 1]!; k++) if (this.mark[words[k]!] === token) common++;
    return common;
  }
}

/** The texts using each word, ascending: those of word w are items[start[w]] to items[start[w + 1] - 1] (two flat arrays, no list per word). */
function postingsOf(table: WordTable): { start: Int32Array; items: Int32Array } {
  const count = table.ids.size;
  const { words, start: from } = table;
  const texts = table.count;
  const start = new Int32Array(count + 1);
  const end = from[texts]!;
  for (let k = 0; k < end; k++) start[words[k]! + 1]!++;
  for (let w = 0; w < count; w++) start[w + 1]! += start[w]!;
  const next = start.slice(0, count);
  const items = new Int32Array(end);
  for (let i = 0; i < texts; i++) for (let k = from[i]!; k < from[i + 1]!; k++) items[next[words[k]!]!++] = i;
  return { start, items };
}

function excerpt(t: string): string {
  const one = t.replace(/\n/g, ' ');
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
