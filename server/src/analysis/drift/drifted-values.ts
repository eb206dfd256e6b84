import { pushCompact, pushTo } from '../../common/collections.js';
import { at, meet, problem, tokens, type Drifted, type Line } from './drift-lines.js';

/** Lines sharing half of their tokens beyond this many are boilerplate, not copies of one rule. */
const MAX_GROUP = 40;

/** FNV-1a of a token. */
function hash(t: string): number {
  let h = 2166136261;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * What kind of value a token states, or null for a word of the sentence: code, a number, a path, a
 * flag, a name. Links and addresses are references to other pages, not values a rule sets; so is a
 * path written from its file's folder (`../events/`, `@./a.md`), which a migration rewrites for the
 * file it moves into (planning/render/links.ts): the copy names the same path in other words.
 */
export function valueKind(t: string, first: boolean): string | null {
  if (/:\/\/|\]\(|^\[/.test(t)) return null;
  if (/^[`@(]*\.{1,2}\//.test(t)) return null;
  if (t.startsWith('`')) return 'code';
  if (/^--?\w/.test(t)) return 'flag';
  if (/^v?\d[\d.]*[a-z%]*$/i.test(t)) return 'number';
  if (/[./]/.test(t) && /[a-z]/i.test(t)) return 'path';
  if (!first && /^[A-Z][\w+-]*$/.test(t) && !/^[A-Z]+$/.test(t)) return 'name';
  return null;
}

/**
 * The same rule in two files with one value changed: lines of 6 to 40 tokens that differ in exactly
 * one token, both values. One report per changed token, every line on the side of its value.
 * `moved`: lines of code, where only a path moved to another folder counts (movedPath).
 */
export function driftedValues(lines: Line[], moved = false): Drifted[] {
  return driftedCopies(oneTokenApart(halfGroups(lines)), moved);
}

/** The last part of a path (`[name]` in `db/migrations/common/[name]`), and the folder before it. */
const splitPath = (v: string) => {
  const p = v.replace(/`/g, '').replace(/\/+$/, '');
  const at = p.lastIndexOf('/');
  return { base: p.slice(at + 1), folder: p.slice(0, Math.max(at, 0)) };
};
/**
 * One file or folder named at two places (`db/migrations/common/[name]`, `db/migrations/[name]`): in a
 * copied line of code, where two examples differ by the file they run on (`tests/a.py`, `tests/b/`),
 * only a moved path is a drifted value.
 */
const movedPath = (values: string[]) =>
  values.every((v) => valueKind(v, false) === 'path') &&
  new Set(values.map((v) => splitPath(v).base)).size === 1 &&
  new Set(values.map((v) => splitPath(v).folder)).size === values.length;

/** Lines read into tokens only when compared. */
type Entry = { l: Line; t: string[] | null };
/** A line one token away from another: the token, the line's tokens, and where the token is. */
type Apart = { l: Line; token: string; words: string[]; i: number };

/**
 * One token changed leaves the first or the second half of the line (in tokens) whole: lines are
 * grouped by each half, and only lines of a group from different files are compared. A half that
 * many lines share is boilerplate, not a copy (500 generated rules "... covered by a focused test").
 * The halves are hashed over the raw words (a split, no parsing). Keys are numbers (a hash of the
 * half, its side and the line's length; a chance meeting is checked when the lines are compared),
 * and a key seen once holds its entry without a list.
 */
function halfGroups(lines: Line[]): Map<number, Entry | Entry[]> {
  const groups = new Map<number, Entry | Entry[]>();
  const add = (key: number, e: Entry) => pushCompact(groups, key, e);
  for (const l of lines) {
    const words = l.text.trim().split(/\s+/);
    if (words.length < 6 || words.length > 40) continue;
    const mid = words.length >> 1;
    let a = Math.imul(words.length, 2654435761) >>> 0;
    let b = Math.imul(words.length + 97, 2246822519) >>> 0;
    for (let i = 0; i < words.length; i++) {
      const h = hash(words[i]!);
      if (i < mid) a = Math.imul(a ^ h, 16777619) >>> 0;
      else b = Math.imul(b ^ h, 16777619) >>> 0;
    }
    const entry: Entry = { l, t: null };
    add(a, entry);
    add(b, entry);
  }
  return groups;
}

/** Pairs of lines from different files that differ in one token, both of the same kind of value; keyed by the rest of the line. */
function oneTokenApart(groups: Map<number, Entry | Entry[]>): Map<string, Apart[]> {
  const byKey = new Map<string, Apart[]>();
  const added = new Set<string>();
  for (const g of groups.values()) {
    if (!Array.isArray(g) || g.length > MAX_GROUP || g.every((x) => x.l.path === g[0]!.l.path)) continue;
    for (const x of g) x.t ??= tokens(x.l.text);
    for (let x = 0; x < g.length; x++) {
      for (let y = x + 1; y < g.length; y++) {
        const [p, q] = [g[x]! as { l: Line; t: string[] }, g[y]! as { l: Line; t: string[] }];
        if (p.l.path === q.l.path || p.t.length !== q.t.length || p.t.length < 6) continue;
        let at = -1;
        for (let i = 0; i < p.t.length; i++) {
          if (p.t[i] === q.t[i]) continue;
          if (at >= 0) {
            at = -2;
            break;
          }
          at = i;
        }
        if (at < 0) continue;
        // A capital after a dash or a colon starts a sentence ("`x.json` - Generated in CI"): no name.
        const first = at === 0 || /^[-\u2013\u2014]$|[:.]$/.test(p.t[at - 1]!);
        const kind = valueKind(p.t[at]!, first);
        if (!kind || kind !== valueKind(q.t[at]!, first)) continue;
        const key = `${at}\0${p.t.filter((_, i) => i !== at).join(' ')}`;
        for (const r of [p, q]) {
          const id = `${key}\0${r.l.path}:${r.l.line}`;
          if (added.has(id)) continue;
          added.add(id);
          pushTo(byKey, key, { l: r.l, token: r.t[at]!, words: r.t, i: at });
        }
      }
    }
  }
  return byKey;
}

/** One report per changed token, every line on the side of its value, when files whose scopes meet disagree. */
function driftedCopies(byKey: Map<string, Apart[]>, moved: boolean): Drifted[] {
  const out: Drifted[] = [];
  const seen = new Set<string>();
  for (const all of byKey.values()) {
    if (all.length < 2) continue;
    // The lines that really match the first one outside the changed token (hashes can meet by chance).
    const same = (x: (typeof all)[number]) => x.words.every((w, j) => j === x.i || w === all[0]!.words[j]);
    const list = all.filter(same);
    if (list.length < 2) continue;
    const values = new Map<string, Line[]>();
    for (const x of list) pushTo(values, x.token, x.l);
    if (values.size < 2 || (moved && !movedPath([...values.keys()]))) continue;
    // "`Environment`" and "`Environment.php`" name one thing; a changed value is not a longer one.
    const bare = [...values.keys()].map((v) => v.replace(/`/g, '').toLowerCase());
    if (bare.some((v, i) => bare.some((w, j) => i !== j && (w.startsWith(v) || w.endsWith(`-${v}`))))) continue;
    const groups = [...values.values()];
    // A file that holds two of the values lists parallel items ("Checkbox becomes ...", "Button becomes ..."):
    // a catalogue, not a copy edited in one place.
    const paths = groups.map((g) => new Set(g.map((l) => l.path)));
    if (paths.some((a, i) => paths.some((b, j) => i < j && [...a].some((x) => b.has(x))))) continue;
    // Different files whose scopes meet, on different sides.
    const clash = groups.some((g, i) => groups.slice(i + 1).some((h) => g.some((a) => h.some((b) => a.path !== b.path && meet(a, b)))));
    if (!clash) continue;
    const key = groups.flat().map(at).sort().join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    const shown = [...values.keys()].map((v) => v.replace(/`/g, ''));
    out.push(problem('drifted-copy', shown.join(' or '), `the same rule with ${shown.map((v) => `"${v}"`).join(' vs ')}`, groups));
  }
  return out;
}
