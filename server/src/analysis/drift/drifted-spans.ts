import { pushCompact } from '../../common/collections.js';
import { meet, problem, type Drifted, type Line } from './drift-lines.js';
import { pairKey } from '../../model/place-pairs.js';

/**
 * A copy with one span replaced (issue 39): two lines in files whose scopes meet that share a prefix
 * and a suffix (list markers and spacing aside, code spans read as their words) and differ in one
 * contiguous span holding a value on each side. Short lines ("Web: `x --only=@a/web bundle`") and
 * values replaced by longer words are what the one-token finder (drifted-values.ts, lines of 6 tokens
 * or more) and the aligned one (drifted-edits.ts, every replaced word a value) leave. Each span one
 * value: reported; a longer span: worth a second look. By shape only, no word is named.
 */

/** Lines whose ends many lines share are boilerplate, not copies of one rule. */
const MAX_GROUP = 40;
/** The words both lines keep: at least this many of content (three letters or a value). */
const MIN_CONTENT = 3;
/** A span longer than this is a rewording, not a value replaced. */
const MAX_SPAN = 6;

/** A word of a line: as written (its punctuation kept, for where a sentence starts) and bare; from a code span or not. */
export interface Word {
  raw: string;
  bare: string;
  code: boolean;
}

/** A list mark, a task box or a quote mark before a line: layout, not words (a bold label stays, it is part of the frame). */
const LINE_MARK = /^\s*(?:>\s*)?(?:(?:[-*+]|\d+[.)])\s+)?(?:\[[ xX]\]\s+)?/;

/** A line's words, code spans split into theirs; null for a line holding a link (what a link says of its target is a description). */
function wordsOf(text: string): Word[] | null {
  if (/\]\(|:\/\//.test(text)) return null;
  const out: Word[] = [];
  for (const m of text.replace(LINE_MARK, '').matchAll(/`([^`]+)`|[^\s`]+/g)) {
    const code = m[1] !== undefined;
    for (const raw of (m[1] ?? m[0]).split(/\s+/)) {
      const bare = code ? raw : raw.replace(/^[("'*_]+|[)"'*_.,;:!?]+$/g, '');
      // Punctuation standing alone (after a code span: "`x.h`: Main ...") ends the word before it.
      if (bare !== '') out.push({ raw, bare, code });
      else if (out.length > 0) out[out.length - 1]!.raw += raw;
    }
  }
  return out;
}

/** A placeholder (`<file>`, `[name]`, `{id}`, `x.{Name}`) stands for any value: a template, not a value set. */
const PLACEHOLDER = /<[^>]*>|\[[^\]]*\]|\{[^}]*\}/;

/**
 * A word that states a value: a word of code, a path, a flag, a version, a name joined by `-`, `_` or
 * `.`, or a capitalised name that does not start its sentence. A bare whole number is a step of a
 * series (phase 1, phase 2), not a value; nor is a path written from its file's folder.
 */
function valueLike(w: Word, before: Word | undefined): boolean {
  if (PLACEHOLDER.test(w.bare) || /^\d+$/.test(w.bare)) return false;
  // A path from the file's own folder (`./docs/a.md`, `@../x.md`): a migration rewrites it for the file it moves into.
  if (/^[@(]*\.{1,2}\//.test(w.bare)) return false;
  if (w.code) return /[\p{L}\p{N}]/u.test(w.bare);
  if (/^--?\p{L}/u.test(w.bare) || /\//.test(w.bare) || /^v?\d+(?:\.\d+)+/.test(w.bare)) return true;
  if (/[\p{L}\p{N}][-_.][\p{L}\p{N}]/u.test(w.bare)) return true;
  const starts = before === undefined || /[.:!?]$|^[-\u2013\u2014]$/.test(before.raw);
  return !starts && /^\p{Lu}[\p{L}\p{N}+]*$/u.test(w.bare) && !/^\p{Lu}+$/u.test(w.bare);
}

const content = (w: Word) => w.code || /\p{L}{3}/u.test(w.bare) || /[\p{L}][-_./][\p{L}\p{N}]/u.test(w.bare);

/** Two lines' shared ends and their differing spans, or null when they are no copy with one span replaced. */
export interface SpanEdit {
  a: Word[];
  b: Word[];
  /** Each span is one value. */
  single: boolean;
}

export function spanEdit(x: readonly Word[], y: readonly Word[]): SpanEdit | null {
  let k = 0;
  while (k < x.length && k < y.length && x[k]!.bare === y[k]!.bare) k++;
  let m = 0;
  while (m < x.length - k && m < y.length - k && x[x.length - 1 - m]!.bare === y[y.length - 1 - m]!.bare) m++;
  const [a, b] = [x.slice(k, x.length - m), y.slice(k, y.length - m)];
  // Both ends kept, both spans there (a span on one side only adds or drops words: a narrowing, a hedge).
  if (k === 0 || m === 0 || a.length === 0 || b.length === 0 || a.length > MAX_SPAN || b.length > MAX_SPAN) return null;
  const kept = [...x.slice(0, k), ...x.slice(x.length - m)];
  if (kept.filter(content).length < MIN_CONTENT || kept.length < Math.max(a.length, b.length)) return null;
  if (a.map((w) => w.bare.toLowerCase()).join(' ') === b.map((w) => w.bare.toLowerCase()).join(' ')) return null;
  const holdsValue = (span: Word[], line: readonly Word[]) => span.some((w, i) => valueLike(w, line[k + i - 1]));
  if (a.some((w) => PLACEHOLDER.test(w.bare)) || b.some((w) => PLACEHOLDER.test(w.bare))) return null;
  // A span across a code span's edge ("`x dev` - start the" / "`x build` - Build the") is two items described, not one slot.
  if (a.some((w) => w.code !== a[0]!.code) || b.some((w) => w.code !== b[0]!.code)) return null;
  // The same letters spaced or cased otherwise ("VS Code" / "VSCode") are a rewording.
  const squeezed = (span: Word[]) => span.map((w) => w.bare.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')).join('');
  if (squeezed(a) === squeezed(b)) return null;
  if (!holdsValue(a, x) || !holdsValue(b, y)) return null;
  // A longer form of one value names the same thing (`Environment` / `Environment.php`, "Generated" / "Auto-generated").
  const [sa, sb] = [a, b].map((s) => s.map((w) => w.bare.toLowerCase()).join(' '));
  if (sa!.includes(sb!) || sb!.includes(sa!)) return null;
  return { a, b, single: a.length === 1 && b.length === 1 };
}

/** A line's first word after its list mark, and its last word: two words at least. */
const FIRST_WORD = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(\S+)/;
const LAST_WORD = /(\S+)\s*$/;
/** Lines longer than this are paragraphs, not one rule copied. */
const MAX_CHARS = 400;

/** A raw word bare of list marks, backticks and end punctuation: a line's two ends key it with its copies. */
const endWord = (w: string) => w.replace(/^[`("'*_]+|[`)"'*_.,;:!?]+$/g, '');

/**
 * The lines of files whose scopes meet, grouped by their first and last words; within a group of
 * lines from several files, each pair from different files compared. `skip`: pairs of lines an
 * earlier finder reports already (their {@link pairKey}s).
 */
export function driftedSpans(lines: readonly Line[], skip: ReadonlySet<string>): Drifted[] {
  const groups = new Map<string, Entry | Entry[]>();
  const add = (l: Line, text: string) => {
    // Read with two anchored patterns, not a split: every line of files that meet passes here.
    const first = FIRST_WORD.exec(text);
    const last = LAST_WORD.exec(text);
    if (!first || !last || first.index + first[0].length > last.index) return;
    pushCompact(groups, `${endWord(first[1]!)}\0${endWord(last[1]!)}`, { l, text, words: undefined });
  };
  for (const l of lines) {
    if (l.text.length > MAX_CHARS) continue;
    add(l, l.text);
    // A copy that goes on after a dash or a semicolon ("22.1 (see `.x`) — and more") keeps its first clause whole.
    const cut = CLAUSE_END.exec(l.text);
    if (cut) add(l, l.text.slice(0, cut.index));
  }
  // One edit found in several lines is one problem (a name misspelt in every command of a list), every line on the side of its value.
  const found = new Map<string, { values: [string, string]; single: boolean; sides: [Line[], Line[]] }>();
  for (const g of groups.values()) {
    if (!Array.isArray(g) || g.length > MAX_GROUP || g.every((e) => e.l.path === g[0]!.l.path)) continue;
    for (let i = 0; i < g.length; i++)
      for (let j = i + 1; j < g.length; j++) {
        const [p, q] = [g[i]!.l, g[j]!.l];
        if (p.path === q.path || !meet(p, q) || skip.has(pairKey(p, q))) continue;
        const edit = editOf(g[i]!, g[j]!);
        if (!edit || namesOwnFile(edit.a, p) || namesOwnFile(edit.b, q) || parallel(g, g[i]!, g[j]!)) continue;
        const [va, vb] = [edit.a, edit.b].map((s) => s.map((w) => w.bare).join(' ')) as [string, string];
        const [first, second] =
          va < vb
            ? ([
                [va, p],
                [vb, q],
              ] as const)
            : ([
                [vb, q],
                [va, p],
              ] as const);
        const key = `${first[0]}\0${second[0]}`;
        const entry = found.get(key) ?? found.set(key, { values: [first[0], second[0]], single: edit.single, sides: [[], []] }).get(key)!;
        if (!entry.sides[0].includes(first[1])) entry.sides[0].push(first[1]);
        if (!entry.sides[1].includes(second[1])) entry.sides[1].push(second[1]);
      }
  }
  return [...found.values()].map(({ values: [va, vb], single, sides }) =>
    single
      ? problem('drifted-copy', `${va} or ${vb}`, `the same rule with "${va}" vs "${vb}"`, sides)
      : problem('drifted-line', `${va} or ${vb}`, `a copied line with one part replaced, "${va}" vs "${vb}"`, sides),
  );
}

/** A line, or its first clause, as compared: its words read when it is. */
type Entry = { l: Line; text: string; words: Word[] | null | undefined };
const wordsFor = (e: Entry) => (e.words === undefined ? (e.words = wordsOf(e.text)) : e.words);
const editOf = (x: Entry, y: Entry) => {
  const [wx, wy] = [wordsFor(x), wordsFor(y)];
  return wx && wy ? spanEdit(wx, wy) : null;
};

/** Where a line's first clause ends: a dash between spaces, or a semicolon. */
const CLAUSE_END = /\s[\u2014\u2013]\s|;\s/;

/** A word of the span names the line's own file (`python.mdc` says "Python", `react.mdc` "React"): each file states its own subject. */
function namesOwnFile(span: readonly Word[], l: Line): boolean {
  const parts = new Set(l.path.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return span.some((w) => w.bare.length >= 3 && parts.has(w.bare.toLowerCase()));
}

/** Another line of either file is the other line or a span apart from it: items of one list, not a copy. */
function parallel(g: readonly Entry[], p: Entry, q: Entry): boolean {
  const alike = (r: Entry, other: Entry) => r.text.trim() === other.text.trim() || editOf(r, other) !== null;
  return g.some((r) => r.l !== p.l && r.l !== q.l && ((r.l.path === p.l.path && alike(r, q)) || (r.l.path === q.l.path && alike(r, p))));
}
