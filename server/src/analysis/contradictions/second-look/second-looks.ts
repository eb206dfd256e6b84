import type { Scope, Unit } from '../../../model/model.js';
import { valueTokens, type Token } from './align.js';
import { judgePair, type PairContext, type SecondLook } from './judge.js';
import { copyPairs, type CopyOf } from './copy-pairs.js';
import { oneJobPairs } from './one-job.js';
import { ruleLines, type RuleLine } from './rule-lines.js';
import { lineTerms, mayMark, type LineTerms } from './terms.js';
import { filesThatMayMeet } from '../../scope/scope-overlap.js';
import { sectionTitle } from '../claims.js';
import { candidatesOf, rankCandidates, type Candidate } from './rank.js';
import { SHOWN_SECOND_LOOKS } from '../../../model/second-looks-shown.js';

export { type SecondLook } from './judge.js';

/**
 * Pairs worth a second look, found by subject rather than by phrasing (issue 39). Two lines from
 * different rules are about the same thing when they share subject terms, each weighed by how rare
 * it is among this repository's own lines (tf-idf); a pair is marked when the same slot holds two
 * different values (two commands, versions, names, paths) or when one line says not to do what the
 * other does. Nothing here names a tool, package or product: it must work on text never seen.
 * The pairs are ranked; a person is shown the first few (shown.ts), the JSON output has them all.
 */

/** At most this many pairs are kept for a repository, best first (the client's model reads about 40). */
export const LISTED_SECOND_LOOKS = 40;
/** A line takes part in at most this many pairs: one busy line must not fill the list. */
const PAIRS_PER_LINE = 2;
/** A line is judged against at most this many later lines, the most alike first. */
const PARTNERS_PER_LINE = 16;
/** Below this share of weighted terms in common, two lines are about different things. */
export const MIN_SIMILARITY = 0.1;
/** Terms on more lines than this share (and at least 30 lines) are weighed but pair no lines by themselves. */
const COMMON_SHARE = 20;

export function findSecondLooks(
  units: Unit[],
  scopeOf: (u: Unit) => Scope,
  taken: ReadonlySet<string> = new Set(),
  limit = LISTED_SECOND_LOOKS,
  copies: readonly CopyOf[] = [],
  /** The files whose scope may meet another file's (analyze reads them once; scope-overlap.ts). */
  meeting?: ReadonlySet<string>,
  /** How many of them a person is shown (the places left after the second looks found earlier). */
  shown = SHOWN_SECOND_LOOKS,
): SecondLook[] {
  return rankCandidates(secondLookCandidates(units, scopeOf, taken, limit, copies, meeting), limit, shown);
}

/** The pairs the finder marked, best first by its own reading, with the alike lines of other files (rank.ts): what the ranking orders. */
export function secondLookCandidates(
  units: Unit[],
  scopeOf: (u: Unit) => Scope,
  taken: ReadonlySet<string>,
  limit: number,
  copies: readonly CopyOf[],
  meeting?: ReadonlySet<string>,
): Candidate[] {
  // Where no two lines could be judged a pair, or no two lines could be marked, nothing more is read.
  if (copies.length === 0 && !mayPair(units, scopeOf, meeting)) return [];
  if (!twoMayMark(units)) return [];
  const all = ruleLines(units, scopeOf);
  const index = indexLines(all, taken);
  if (!index) return [];
  const { lines, read, weight, postings, norms, context } = index;
  const n = lines.length;
  // A sparse dot product, line by line: the weight of the terms each later line shares with this one.
  // The terms of a line as a set, made only for lines that meet another.
  const sets: (ReadonlySet<string> | undefined)[] = [];
  const termSet = (j: number) => (sets[j] ??= new Set(read[j]!.terms));
  const dot = new Float64Array(n);
  const touched: number[] = [];
  const found: SecondLook[] = [];
  for (let i = 0; i < n; i++) {
    for (const t of read[i]!.terms) {
      const list = postings.get(t);
      if (!list) continue;
      const w = weight.get(t)! ** 2;
      for (let k = list.length - 1; k >= 0 && list[k]! > i; k--) {
        const j = list[k]!;
        if (dot[j] === 0) touched.push(j);
        dot[j]! += w;
      }
    }
    const met: { j: number; similarity: number }[] = [];
    for (const j of touched) {
      const similarity = dot[j]! / (norms[i]! * norms[j]!);
      dot[j] = 0;
      // A line that says not to do what another's value does may share only that one term with it.
      if (similarity < MIN_SIMILARITY && !(similarity >= MIN_SIMILARITY / 4 && turnsAgainst(read[i]!, read[j]!))) continue;
      met.push({ j, similarity });
    }
    touched.length = 0;
    // Judging a pair costs most: a line is judged against the lines most alike it only (a bound on large repositories).
    if (met.length > PARTNERS_PER_LINE) met.sort((x, y) => y.similarity - x.similarity || x.j - y.j).length = PARTNERS_PER_LINE;
    for (const { j, similarity } of met) {
      const pair = judgePair(lines[i]!, lines[j]!, read[i]!, read[j]!, termSet(j), similarity, context);
      if (pair) found.push(pair);
    }
  }
  found.push(...copyPairs(all, copies, context), ...oneJobPairs(lines, read, weight, norms, context));
  return candidatesOf(all, keepBest(found, limit), taken);
}

/**
 * Whether any two lines could be judged a pair (judge.ts judges lines of two units whose scopes meet,
 * never two items of one list under one heading of one file), from the units' places alone: two
 * files whose scopes meet, or one file with two rules that are not items under one heading. Rule
 * files scoped to their own folders, each one list under one heading, hold no such two lines.
 */
function mayPair(units: readonly Unit[], scopeOf: (u: Unit) => Scope, meeting?: ReadonlySet<string>): boolean {
  if (meeting && meeting.size > 0) return true;
  // Per file: its rules, and the heading of its items while they all stand under one.
  const files = new Map<string, { scope: Scope; rules: number; itemsUnder?: string; apart: boolean }>();
  const section = new Map<string, string>();
  for (const u of units) {
    let file = files.get(u.path);
    if (!file) files.set(u.path, (file = { scope: scopeOf(u), rules: 0, apart: false }));
    if (u.kind === 'heading') section.set(u.path, sectionTitle(u));
    if (u.kind === 'heading' || u.kind === 'frontmatter' || u.kind === 'html') continue;
    file.rules++;
    const under = section.get(u.path) ?? '';
    if (u.kind !== 'list-item' || (file.itemsUnder ?? under) !== under) file.apart = true;
    file.itemsUnder = under;
    if (file.rules >= 2 && file.apart) return true;
  }
  return (meeting ?? filesThatMayMeet([...files].map(([path, f]) => ({ path, scope: f.scope })))).size > 0;
}

/** At least two lines of the units may be marked (a unit of several lines, or code, counts as marked: read whole later). */
function twoMayMark(units: readonly Unit[]): boolean {
  let n = 0;
  for (const u of units) {
    if (u.kind === 'heading' || u.kind === 'frontmatter' || u.kind === 'html') continue;
    n += u.kind === 'code' || u.lines.length > 1 ? 2 : mayMark({ text: u.lines[0]!, code: false, wrong: false }) ? 1 : 0;
    if (n >= 2) return true;
  }
  return false;
}

/** One line negates something and the other has a value: the two may be opposite on one action. */
export const turnsAgainst = (a: LineTerms, b: LineTerms) =>
  (a.negated.size > 0 && b.values.length > 0) || (b.negated.size > 0 && a.values.length > 0);

/**
 * The lines worth pairing, read, with each term's weight and the lines it is on. A first, cheap
 * reading counts each word's lines: a line none of whose words is shared by a few other lines meets
 * no line; nor does one with no value and no negation (nothing could mark a pair). Neither is read further.
 */
export function indexLines(all: RuleLine[], taken: ReadonlySet<string>) {
  // A line nothing could mark (no value, no negation: mayMark, a cheap test read before any word) pairs
  // with no line; with fewer than two lines left, no word is counted at all.
  const marked = all.map(mayMark);
  if (marked.filter(Boolean).length < 2) return null;
  const cap = Math.max(20, Math.ceil(all.length / COMMON_SHARE));
  const { wordLines, meets } = countWordLines(all, cap);
  const meeting = all.filter((_, i) => marked[i] && meets(i));
  const readAll = meeting.map((l) => lineTerms(l.text, l.code, l.wrong));
  const keep = readAll.map((r) => r.values.length > 0 || r.negated.size > 0);
  const lines = meeting.filter((_, i) => keep[i]);
  const read = readAll.filter((_, i) => keep[i]);
  if (lines.length < 2) return null;
  const df = new Map<string, number>();
  for (const r of read) for (const t of r.terms) df.set(t, (df.get(t) ?? 0) + 1);
  // A term's weight is its rarity here (idf, over every line): rare terms weigh most, but a common
  // subject (the package manager, "interfaces") still counts; only terms on very many lines pair no
  // lines by themselves (their lists would be read for every line).
  const weight = new Map<string, number>();
  for (const [t, d] of df) weight.set(t, Math.log((all.length + 1) / Math.max(d, wordLines.get(t) ?? 0)));
  const postings = new Map<string, number[]>();
  const norms = new Float64Array(lines.length);
  read.forEach((r, i) => {
    let sum = 0;
    for (const t of r.terms) {
      sum += weight.get(t)! ** 2;
      if (df.get(t)! < 2 || Math.max(df.get(t)!, wordLines.get(t) ?? 0) > cap) continue;
      const list = postings.get(t) ?? postings.set(t, []).get(t)!;
      list.push(i);
    }
    norms[i] = Math.sqrt(sum);
  });
  const fileValues = new Map<string, Set<string>>();
  lines.forEach((l, i) => {
    const held = fileValues.get(l.path) ?? fileValues.set(l.path, new Set()).get(l.path)!;
    for (const v of read[i]!.values) held.add(v.text);
  });
  const tokens = new Map<string, Token[]>();
  const tokensOf = (v: string) => tokens.get(v) ?? tokens.set(v, valueTokens(v)).get(v)!;
  let topWeight = 0;
  for (const w of weight.values()) topWeight = Math.max(topWeight, w);
  const allValues = [...new Set([...fileValues.values()].flatMap((held) => [...held]))];
  const families = new Map<string, number>();
  const familySize = (name: string) =>
    families.get(name) ??
    families
      .set(name, allValues.filter((v) => v.length > name.length + 1 && v.startsWith(name) && /[-_]/.test(v[name.length]!)).length)
      .get(name)!;
  const series = new Map<string, number>();
  const seriesSize = (name: string) =>
    series.get(name) ??
    series.set(name, allValues.filter((v) => v.startsWith(`${name} `) && /^\d+$/.test(v.slice(name.length + 1))).length).get(name)!;
  const fileLines = new Map<string, Set<string>>();
  for (const l of all) (fileLines.get(l.path) ?? fileLines.set(l.path, new Set()).get(l.path)!).add(l.text.trim());
  const holds = (path: string, text: string) => fileLines.get(path)?.has(text.trim()) ?? false;
  const context: PairContext = { weight, tokensOf, topWeight, fileValues, taken, familySize, seriesSize, holds };
  return { lines, read, weight, postings, norms, context };
}

/** The best pairs first, each line in at most a few of them, at most `limit`. */
export function keepBest(all: SecondLook[], limit: number): SecondLook[] {
  all.sort((p, q) => q.score - p.score || p.a.path.localeCompare(q.a.path) || p.a.line - q.a.line || p.b.line - q.b.line);
  const found = joinRules(all);
  const uses = new Map<string, number>();
  const asked = new Map<string, SecondLook>(); // the two lines' texts -> the pair kept for them
  const kept: SecondLook[] = [];
  const drifts = new Map<string, SecondLook>(); // a line of a drifted pair kept -> that pair
  const slots = new Map<string, SecondLook>(); // the two values of a pair kept, sorted -> that pair
  for (const p of found) {
    const [ka, kb] = [`${p.a.path}:${p.a.line}`, `${p.b.path}:${p.b.line}`];
    // One line drifted in three copies is one question: the third copy joins the pair of the first two.
    const joined = p.drift ? (drifts.get(ka) ?? drifts.get(kb)) : undefined;
    if (joined) {
      const other = drifts.has(ka) ? p.b : p.a;
      addCopy(joined, other);
      drifts.set(`${other.path}:${other.line}`, joined);
      continue;
    }
    // The same two values of one slot on other lines (`x tidy` / `x neaten` said twice in each file): one question, every line on its side.
    const slot = p.values && !p.drift ? [...p.values].sort().join('\n') : undefined;
    const same = slot === undefined ? undefined : slots.get(slot);
    if (same) {
      joinSlot(same, p);
      continue;
    }
    // The same two lines again, in a copied file (AGENTS.md and CLAUDE.md alike): one question, asked
    // once, with the copies' lines beside the first two (each copy is to be set right too).
    const question = [p.a.text.trim(), p.b.text.trim()].sort().join('\n');
    const again = asked.get(question);
    if (again) {
      addCopy(again, p.a);
      addCopy(again, p.b);
      continue;
    }
    if ((uses.get(ka) ?? 0) >= PAIRS_PER_LINE || (uses.get(kb) ?? 0) >= PAIRS_PER_LINE) continue;
    asked.set(question, p);
    uses.set(ka, (uses.get(ka) ?? 0) + 1);
    uses.set(kb, (uses.get(kb) ?? 0) + 1);
    if (p.drift) drifts.set(ka, p).set(kb, p);
    if (slot !== undefined) slots.set(slot, p);
    kept.push(p);
    if (kept.length === limit) break;
  }
  return kept;
}

/** Lines one pair of values may gather beyond its first two. */
const LINES_PER_SLOT = 4;

/** A pair with the same two values joins the pair kept for them: each of its lines beside the line holding its value. */
function joinSlot(pair: SecondLook, p: SecondLook): void {
  const [mine, theirs] = p.values![0] === pair.values![0] ? [p.a, p.b] : [p.b, p.a];
  const lines = [pair.a, pair.b, ...(pair.more ?? []), ...(pair.also ?? [])];
  const absent = (l: RuleLine) => !lines.some((x) => x.path === l.path && x.line === l.line);
  if (lines.length - 2 >= LINES_PER_SLOT) return;
  if (absent(mine)) (pair.also ??= []).push(mine);
  if (absent(theirs)) (pair.more ??= []).push(theirs);
}

/** A line joins a pair: beside the side whose line it repeats (`also` for `a`), else as one more line of `b`'s side. */
function addCopy(pair: SecondLook, line: RuleLine): void {
  const lines = [pair.a, pair.b, ...(pair.more ?? []), ...(pair.also ?? [])];
  if (lines.some((l) => l.path === line.path && l.line === line.line)) return;
  if (line.text.trim() === pair.a.text.trim()) (pair.also ??= []).push(line);
  else (pair.more ??= []).push(line);
}

/**
 * On how many lines each plain word stands (a line counted once per word), and whether a line has a
 * word a few other lines share. Words are numbered once: thousands of lines are read, one map look-up a word.
 */
function countWordLines(all: readonly RuleLine[], cap: number) {
  const ids = new Map<string, number>();
  const count: number[] = [];
  const last: number[] = [];
  const lineWords = all.map((l, i) => {
    const words = plainWords(l.text);
    const out = new Int32Array(words.length);
    words.forEach((w, k) => {
      let id = ids.get(w);
      if (id === undefined) ids.set(w, (id = count.push(0) - 1));
      out[k] = id;
      if (last[id] === i) return;
      last[id] = i;
      count[id]!++;
    });
    return out;
  });
  const wordLines = new Map<string, number>();
  for (const [w, id] of ids) wordLines.set(w, count[id]!);
  const meets = (i: number) => lineWords[i]!.some((id) => count[id]! >= 2 && count[id]! <= cap);
  return { wordLines, meets };
}

/** Plain words of a line (three letters or more, not only digits): the first, cheap reading. */
const plainWords = (text: string): string[] =>
  (text.toLowerCase().match(/^[\t -~]*$/.test(text) ? /[a-z0-9]{3,}/g : /[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !/^\d+$/.test(w));

/** Lines one rule's pairs of polarity may gather: the rule, then at most this many lines doing what it forbids. */
const LINES_AGAINST_A_RULE = 4;

/**
 * A rule saying not to do what several lines do is one question, not several: its pairs marked only
 * by polarity become one, the rule against every line found doing it (best first), ranked as its best.
 */
function joinRules(sorted: SecondLook[]): SecondLook[] {
  const byRule = new Map<string, SecondLook>();
  const out: SecondLook[] = [];
  for (const p of sorted) {
    if (p.mark !== 'polarity') {
      out.push(p);
      continue;
    }
    const rule = byRule.get(`${p.a.path}:${p.a.line}`);
    if (!rule) {
      const first = { ...p, more: [] };
      byRule.set(`${p.a.path}:${p.a.line}`, first);
      out.push(first);
    } else if (rule.more!.length < LINES_AGAINST_A_RULE - 1 && ![rule.b, ...rule.more!].some((l) => l.text.trim() === p.b.text.trim()))
      // The same line in another file shows nothing more: the rule's few lines are other lines doing it.
      rule.more!.push(p.b);
  }
  return out;
}
