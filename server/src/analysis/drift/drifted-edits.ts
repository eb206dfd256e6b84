import { diffArrays } from 'diff';
import { pushCompact, pushTo } from '../../common/collections.js';
import { valueTokens } from '../contradictions/second-look/align.js';
import { meet, problem, tokens, type Drifted, type Line } from './drift-lines.js';
import { valueKind } from './drifted-values.js';

/**
 * The same rule in two files, edited in one of them beyond one token (issue 39): one edit made in
 * several places of the line (`npm run build`, `npm run dev` -> `pnpm run build`, `pnpm run dev`),
 * or one value changed with a few words added at the end. The line aligned token by token (a diff):
 * half of it or more kept, every replaced run a value on both sides (code, a path, a number, a flag, a
 * name), and when several runs changed, each the same edit. One token changed and nothing else is
 * drifted-values.ts's; unrelated values in one frame ("Use `a` for `b`" / "Use `c` for `d`") are two
 * rules side by side, not a copy.
 */

/** Lines sharing an end beyond this many are boilerplate, not copies of one rule. */
const MAX_GROUP = 40;
/** At least this many tokens, and this share of the longer line, are kept (a list item "`path` - Blank app for trying things out" keeps five). */
const MIN_KEPT = 5;
const KEPT_SHARE = 0.5;
/** Words added at the end of one copy, at most (a note in brackets, "(preferred for debugging)"). */
const MAX_ADDED = 4;

/** A raw word for grouping: its punctuation and emphasis off, a value-like word a wildcard (it may be the change). */
const groupWord = (w: string): string => {
  if (/[`/\d]|\w\.\w/.test(w)) return '*';
  return /^[*_"'(]|[*_"'),.;:!?]$/.test(w) ? w.replace(/^[*_"'(]+|[*_"'),.;:!?]+$/g, '') : w;
};

export function driftedEdits(lines: Line[]): Drifted[] {
  // Keyed by each end of the line; a key seen once holds its line without a list (most keys of a repository).
  const groups = new Map<string, Line | Line[]>();
  const add = (key: string, l: Line) => pushCompact(groups, key, l);
  const raw = new Map<Line, string[]>();
  const trimmed = new Map<Line, string>();
  for (const l of lines) {
    const text = l.text.trim();
    const words = text.split(/\s+/);
    if (words.length < MIN_KEPT || words.length > 40) continue;
    raw.set(l, words);
    trimmed.set(l, text);
    const n = words.length;
    add(`<${groupWord(words[0]!)} ${groupWord(words[1]!)} ${groupWord(words[2]!)} ${groupWord(words[3]!)}`, l);
    add(`>${groupWord(words[n - 4]!)} ${groupWord(words[n - 3]!)} ${groupWord(words[n - 2]!)} ${groupWord(words[n - 1]!)}`, l);
  }
  // A line's grouping words, sorted (made only for lines a pair is looked at): a cheap count of the words two lines share.
  const sorted = new Map<Line, string[]>();
  const sortedOf = (l: Line) => sorted.get(l) ?? sorted.set(l, raw.get(l)!.map(groupWord).sort()).get(l)!;
  // Lines found to be copies of one another join one problem (a line drifted in three files is one question).
  const value = new Map<string, string>(); // a line's text -> the value it shows
  const link = new Map<string, string>(); // a line's text -> another of its problem (a union-find)
  const root = (t: string): string => {
    while (link.get(t) !== t) t = link.get(t)!;
    return t;
  };
  const read = new Map<Line, string[]>();
  const tokensOf = (l: Line) => read.get(l) ?? read.set(l, tokens(l.text)).get(l)!;
  for (const g of groups.values()) {
    // Four words at each end of a line group it with its copies.
    if (!Array.isArray(g) || g.length > MAX_GROUP || g.every((x) => x.path === g[0]!.path)) continue;
    for (let x = 0; x < g.length; x++)
      for (let y = x + 1; y < g.length; y++) {
        const [p, q] = [g[x]!, g[y]!];
        const [tp, tq] = [trimmed.get(p)!, trimmed.get(q)!];
        if (p.path === q.path || tp === tq || !mayBeCopies(sortedOf(p), sortedOf(q)) || !meet(p, q)) continue;
        if (link.has(tp) && link.has(tq) && root(tp) === root(tq)) continue;
        const shown = editOf(tokensOf(p), tokensOf(q));
        if (!shown || parallelInOneFile(g, p, q, tokensOf)) continue;
        for (const [t, v] of [
          [tp, shown[0]],
          [tq, shown[1]],
        ] as const) {
          if (!value.has(t)) value.set(t, v.replace(/`/g, ''));
          if (!link.has(t)) link.set(t, t);
        }
        link.set(root(tq), root(tp));
      }
  }
  const problems = new Map<string, string[]>();
  for (const t of link.keys()) pushTo(problems, root(t), t);
  return [...problems.values()].map((texts) => {
    const sides = texts.map((t) => lines.filter((l) => l.text.trim() === t));
    const shown = [...new Set(texts.map((t) => value.get(t)!))];
    return problem('drifted-copy', shown.join(' or '), `the same rule with ${shown.map((v) => `"${v}"`).join(' vs ')}`, sides);
  });
}

/**
 * Whether two lines share enough words to keep half of the longer one (a bound read before any diff:
 * lines that only open or end alike are most pairs of a group). Words, not tokens: a code span of two
 * words is one token, so the bound is looser than editOf's.
 */
function mayBeCopies(a: readonly string[], b: readonly string[]): boolean {
  let [i, j, shared] = [0, 0, 0];
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared >= MIN_KEPT && shared >= 0.35 * Math.max(a.length, b.length);
}

/**
 * What was edited between two copies of a line, as each side shows it, or null when they are not
 * one rule with a value edited: too little kept, a replaced word that is not a value, two different
 * edits, words added other than at the end, or one token changed alone (drifted-values.ts).
 */
export function editOf(a: readonly string[], b: readonly string[]): [string, string] | null {
  const parts = diffArrays(a as string[], b as string[]);
  const kept = parts.filter((p) => !p.added && !p.removed).reduce((n, p) => n + p.value.length, 0);
  if (kept < MIN_KEPT || kept < KEPT_SHARE * Math.max(a.length, b.length)) return null;
  // Each replaced run with the token before it (a capital after a dash or a colon starts a sentence: no name).
  const runs: [string[], string[], string | undefined][] = [];
  let added = 0;
  let index = 0;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    const next = parts[k + 1];
    if (!part.added && !part.removed) index += part.value.length;
    else if (part.removed && next?.added) {
      let [x, y] = [part.value, next.value];
      // A run that ends the line may hold words added after the value (`a/b` / `a/c (kept small)`).
      if (k + 2 === parts.length && x.length !== y.length) {
        const extra = Math.abs(x.length - y.length);
        added += extra;
        [x, y] = x.length > y.length ? [x.slice(0, -extra), y] : [x, y.slice(0, -extra)];
      }
      runs.push([x, y, a[index - 1]]);
      index += part.value.length;
      k++;
    } else if (k === parts.length - 1) added += part.value.length;
    else return null;
  }
  if (runs.length === 0 || added > MAX_ADDED) return null;
  if (runs.length === 1 && added === 0 && runs[0]![0].length === 1 && runs[0]![1].length === 1) return null;
  const isValue = (t: string, before: string | undefined) =>
    valueKind(t, before === undefined || /^[-\u2013\u2014]$|[:.]$/.test(before)) !== null;
  if (!runs.every(([x, y, before]) => [...x, ...y].every((t) => isValue(t, before)))) return null;
  const edits = runs.map(([x, y]) => innerEdit(x.join(' '), y.join(' ')));
  const first = edits[0];
  if (!first || edits.some((e) => e?.key !== first.key)) return null;
  // Shown as the edit inside the values (`brix` vs `quill`), or the whole values when one side only adds to it.
  return first.removed && first.added ? [first.removed, first.added] : [runs[0]![0].join(' '), runs[0]![1].join(' ')];
}

/**
 * The edit inside two values, by their segments (`npm run build` / `pnpm run build`: npm -> pnpm),
 * or null when one only extends the other (`Environment` / `Environment.php` name one thing).
 */
function innerEdit(x: string, y: string): { key: string; removed: string; added: string } | null {
  const [s, t] = [valueTokens(x).map((v) => v.text), valueTokens(y).map((v) => v.text)];
  const bare = [x, y].map((v) => v.replace(/`/g, '').toLowerCase());
  if (bare[0]!.startsWith(bare[1]!) || bare[1]!.startsWith(bare[0]!)) return null;
  const parts = diffArrays(s, t).filter((p) => p.added || p.removed);
  const side = (added: boolean) => [...new Set(parts.filter((p) => !!p.added === added).map((p) => p.value.join(' ')))].join(', ');
  return { key: JSON.stringify(parts.map((p) => [p.added ? '+' : '-', ...p.value])), removed: side(false), added: side(true) };
}

/**
 * Another line of the group in one of the two files is the other line, or a parallel of it: items of
 * one list, not a copy (a list copied whole into a second file holds both items in both).
 */
function parallelInOneFile(g: readonly Line[], p: Line, q: Line, tokensOf: (l: Line) => string[]): boolean {
  const alike = (r: Line, other: Line) => r.text.trim() === other.text.trim() || editOf(tokensOf(r), tokensOf(other)) !== null;
  return g.some(
    (r) =>
      r !== p &&
      r !== q &&
      ((r.path === p.path && r.text.trim() !== p.text.trim() && alike(r, q)) ||
        (r.path === q.path && r.text.trim() !== q.text.trim() && alike(r, p))),
  );
}

/** The separators inside a name (`-`, `_`, `.` between letters or digits) taken out. */
const squeeze = (t: string) => t.replace(/(?<=[\p{L}\p{N}])[-_.](?=[\p{L}\p{N}])/gu, '');
const hasSeparator = (t: string) => /[\p{L}\p{N}][-_.][\p{L}\p{N}]/u.test(t);

/**
 * One name spelled with other separators in a copy of its line (`data-test-id` / `data-testid`,
 * `module.guide.md` / `module-guide.md`): the same line once the separators inside names are taken
 * out, every differing token a name with separators on both sides (`e-mail` / `email` is one word
 * written two ways, not a name). Lines of any length: a lone path on its line is a rule's object.
 */
export function respelledNames(lines: Line[]): Drifted[] {
  // Keyed by the line without any separator (a plain replace, cheap on every line); checked token by token after.
  const groups = new Map<string, Line[]>();
  for (const l of lines) pushTo(groups, l.text.trim().replace(/[-_.]/g, ''), l);
  const out: Drifted[] = [];
  for (const { texts, sides } of writtenTwoWays(groups)) {
    const [a, b] = texts.map((t) => tokens(t));
    if (a!.length !== b!.length) continue;
    const changed = a!.flatMap((t, i) => (t === b![i] ? [] : [[t, b![i]!] as const]));
    const respelled = ([x, y]: readonly [string, string]) =>
      /\p{L}/u.test(x) && hasSeparator(x) && hasSeparator(y) && squeeze(x) === squeeze(y);
    if (changed.length === 0 || !changed.every(respelled)) continue;
    const [x, y] = changed[0]!.map((v) => v.replace(/`/g, ''));
    out.push(problem('drifted-name', `${x} or ${y}`, `one name written two ways, \`${x}\` vs \`${y}\``, sides));
  }
  return out;
}

/** Characters from which on a line of code is a rule's example, not a fragment (`x = list()`). */
const MIN_CODE_LINE = 30;

/**
 * A line of code copied into another file with names in another case (`List[str]` / `list[str]`,
 * `Set[str]` / `set[str]`): the same line case aside, in files whose scopes meet, each spelling in its
 * own files. In code another case is another name, so one of the copies was edited.
 */
export function recasedCode(lines: Line[]): Drifted[] {
  const groups = new Map<string, Line[]>();
  for (const l of lines) {
    const text = l.text.trim();
    if (text.length >= MIN_CODE_LINE) pushTo(groups, text.toLowerCase(), l);
  }
  const out: Drifted[] = [];
  for (const { texts, sides } of writtenTwoWays(groups)) {
    const [a, b] = texts.map((t) => t.split(/([\w.]+)/).filter((w) => /\w/.test(w))) as [string[], string[]];
    const changed = [...new Set(a.flatMap((w, i) => (w !== b[i] ? [`${w}/${b[i]}`] : [])))];
    out.push(
      problem(
        'drifted-copy',
        changed.join(', '),
        `the same line of code with ${changed.map((c) => `"${c.replace('/', '" vs "')}"`).join(', ')}`,
        sides,
      ),
    );
  }
  return out;
}

/**
 * The groups of lines written exactly two ways, each way in files of its own, in files whose scopes
 * meet: the two texts (sorted) and the lines of each.
 */
function writtenTwoWays(groups: Map<string, Line[]>): { texts: string[]; sides: Line[][] }[] {
  const out: { texts: string[]; sides: Line[][] }[] = [];
  for (const g of groups.values()) {
    if (g.length < 2 || g.length > MAX_GROUP) continue;
    const texts = [...new Set(g.map((l) => l.text.trim()))].sort();
    if (texts.length !== 2) continue;
    const sides = texts.map((t) => g.filter((l) => l.text.trim() === t));
    const paths = sides.map((s) => new Set(s.map((l) => l.path)));
    if ([...paths[0]!].some((p) => paths[1]!.has(p))) continue;
    if (sides[0]!.some((p) => sides[1]!.some((q) => meet(p, q)))) out.push({ texts, sides });
  }
  return out;
}
