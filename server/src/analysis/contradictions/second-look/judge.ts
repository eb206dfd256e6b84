import { scopesOverlap } from '../../scope/scope-overlap.js';
import { pairKey } from '../../../model/place-pairs.js';
import { alignLines, compareValues, lineWords, type Token } from './align.js';
import type { RuleLine } from './rule-lines.js';
import { valueTokens, type LineTerms, type Value } from './terms.js';
import { flipped, inValue } from './polarity.js';

/** A pair of lines worth a second look, with what marks it and how high it ranks. */
export interface SecondLook {
  a: RuleLine;
  b: RuleLine;
  score: number;
  /** The rarest term both lines share, as written in them (lower-cased). */
  subject: string;
  /** What marks the pair: two values of one slot, opposite polarity, or both; or nothing but two lines alike (rank.ts). */
  mark: 'values' | 'polarity' | 'both' | 'alike';
  /** The two values, for a pair marked by values. */
  values?: [string, string];
  /** Further lines on `b`'s side: for a rule saying not to (`a`), every line found doing it, best first; for a drifted line, its other copies. */
  more?: RuleLine[];
  /** Lines saying what `a` says (its copies in other files). */
  also?: RuleLine[];
  /** Two copies of one line with values changed (a drifted copy): one more copy of it joins this pair. */
  drift?: boolean;
}

/** What judging a pair needs to know of the repository: its terms' weights, the text of each file, pairs already reported. */
export interface PairContext {
  weight: ReadonlyMap<string, number>;
  /** A value's tokens (align.ts), read once per value. */
  tokensOf: (value: string) => Token[];
  /** The largest weight: a term's weight is read against it. */
  topWeight: number;
  /** The values each file holds: a value the other file holds too is no drift. */
  fileValues: ReadonlyMap<string, ReadonlySet<string>>;
  /** How many of the repository's values extend a name (`x-` or `x_` after it): a family of names (`x-core`, `x-web`, `x-cli`). */
  familySize: (name: string) => number;
  /** How many of the repository's values are the name and a number (`phase 1`, `phase 2`, `phase 3`): the steps of a series. */
  seriesSize: (name: string) => number;
  taken: ReadonlySet<string>;
  /** Whether a file holds a line of this text. */
  holds: (path: string, text: string) => boolean;
}

// Grammar, not names: the words that turn a line around.
const NEGATION_WORD = /^(?:not|never|no|don't|dont|do not|avoid|without)$/;

/** Lines at least this alike (cosine of weighted terms) are aligned word by word. */
const LINE_ALIKE = 0.3;

/** A slot filled twice, by two values or by the words two aligned lines differ in. */
interface Slot {
  values: [string, string];
  strength: number;
  /** Found by aligning the whole lines, not two values. */
  line?: boolean;
  /** One path written in two cases. */
  cased?: boolean;
  /** Read from the lines' own words (two naming styles): the words naming themselves is the point. */
  worded?: boolean;
}

/**
 * Whether two lines are worth a second look, and how high they rank. Structure decides what is no
 * pair: one rule with itself, scopes that never meet, two lines alike, items of one list (a
 * catalogue), two examples of one file. And what ranks low: a line whose own value is its file's or
 * heading's own subject (each package names itself), values both files hold, hedged lines, lists of
 * alternatives.
 */
export function judgePair(
  a: RuleLine,
  b: RuleLine,
  ra: LineTerms,
  rb: LineTerms,
  bTerms: ReadonlySet<string>,
  similarity: number,
  c: PairContext,
): SecondLook | null {
  // Cheap first: a pair can be marked only by values on both sides, a negation against a value, or lines alike.
  const valuesBoth = ra.values.length > 0 && rb.values.length > 0;
  const negation = (ra.negated.size > 0 && rb.values.length > 0) || (rb.negated.size > 0 && ra.values.length > 0);
  if (!valuesBoth && !negation && similarity < LINE_ALIKE) return null;
  if (a.unit === b.unit || !scopesOverlap(a.scope, b.scope)) return null;
  // One line is in the other's file too (a copy of the file, or a line said in both): the pair is one
  // inside that file, ranked as such (not higher for standing across files; asked once with its copy).
  const oneFile = a.path === b.path || c.holds(b.path, a.text) || c.holds(a.path, b.text);
  if (a.code && b.code && oneFile) return null;
  if (a.path === b.path && a.section === b.section && a.item && b.item) return null;
  // Aligning whole lines word by word costs most: only lines alike enough to be one frame are aligned.
  const aligned = similarity >= LINE_ALIKE ? alignLines(lineWords(a.text), lineWords(b.text)) : null;
  // The same line twice is a repeat, not a second look (one in another case is read by its values).
  if (aligned && aligned.onlyA.length === 0 && aligned.onlyB.length === 0 && a.text.trim() === b.text.trim()) return null;
  const turned = aligned !== null && negationOnly(aligned.onlyA, aligned.onlyB) && aligned.common >= 3;
  const lined = aligned && (lineSlot(aligned, ra, rb) ?? (oneFile ? null : wordedSlot(aligned, a, b, c)));
  const found = turned ? null : (lined ?? styleSlot(a.text, b.text) ?? valueSlot(ra, rb, c) ?? orderSlot(a.text, b.text, ra, rb));
  const slot = found && !found.line && !found.cased && !found.worded && namesItself(found.values, a, b) ? null : found;
  const turn = turned ? { strength: 1, against: aligned.onlyA.length > 0 ? 'a' : 'b' } : flipped(ra, rb, bTerms, c.weight, c.topWeight);
  const polarity = turn.strength;
  if (!slot && polarity === 0) return null;
  if (c.taken.has(pairKey(a, b))) return null;
  let score = (0.3 + similarity) * ((slot ? slot.strength : 0) + polarity * 0.8);
  // A path in two cases is one name misspelt, whatever its folder is called.
  if (slot && !slot.cased && ownPart(slot.values, a, b)) score *= 0.25;
  if (slot && !slot.line && !slot.cased && a.path !== b.path && bothHold(slot.values, a.path, b.path, c.fileValues)) score *= 0.3;
  // A name and one of a family of names built on it (`x` / `x-web`, with `x-core` and `x-cli` beside): a member, not a drift.
  if (slot && !slot.cased && FAMILY_OF(slot.values, c.familySize)) score *= 0.3;
  if (ra.hedged || rb.hedged) score *= 0.5;
  // A glossary entry names a value (what it is); a line using it, or a longer name, sets nothing against it.
  if (slot && !slot.line && (ra.entry || rb.entry)) score *= 0.3;
  if (ra.catalogue || rb.catalogue) score *= 0.3;
  if (a.code && b.code) score *= 0.6;
  if (!oneFile) score *= 1.5;
  else if (a.section !== b.section) score *= 0.8;
  // Two values in one file are most often parallel items (each step, each package), not a drift; a
  // rule and a line of its own file doing what it forbids, most often its example or its exception.
  if (oneFile) score *= 0.5;
  // A pair marked only by polarity puts the line that says not to first: the rule, then the lines doing it.
  const swap = !slot && turn.against === 'b';
  return {
    a: swap ? b : a,
    b: swap ? a : b,
    score,
    subject: subjectOf(ra, bTerms, c.weight),
    mark: slot && polarity > 0 ? 'both' : slot ? 'values' : 'polarity',
    ...(slot ? { values: slot.values } : {}),
    ...(slot?.line && !turned ? { drift: true } : {}),
  };
}

/**
 * Two lines that are one frame with a word or two changed, and a changed word is a value (in a code
 * span or command, or with a digit): a drifted copy. Other words changed are a copy reworded.
 */
function lineSlot(x: { common: number; onlyA: string[]; onlyB: string[] }, ra: LineTerms, rb: LineTerms): Slot | null {
  // Only values changed: a changed word of prose beside a value (`2` spaces in `yaml`, `4` in
  // `python`) makes two statements about two things, or a copy reworded.
  const valued = (words: string[], r: LineTerms) => words.every((w) => /\d/.test(w) || inValue(r, w));
  if (!valued(x.onlyA, ra) || !valued(x.onlyB, rb)) return null;
  const changed = Math.max(x.onlyA.length, x.onlyB.length);
  // A version put on a copied line ("custom parts" / "custom parts v1"): the copy says which one, the other no longer does.
  const versioned = (more: string[], less: string[]) => less.length === 0 && more.length === 1 && VERSION_WORD.test(more[0]!);
  if (x.common >= 4 && (versioned(x.onlyA, x.onlyB) || versioned(x.onlyB, x.onlyA)))
    return { values: [x.onlyA[0] ?? '(none)', x.onlyB[0] ?? '(none)'], strength: 0.6, line: true };
  if (x.common < 4 || x.onlyA.length === 0 || x.onlyB.length === 0 || changed > Math.max(3, x.common / 4)) return null;
  // The changed words say the same in other punctuation, or one side only adds to the other
  // (`custom-sections.md` / "custom sections", `i18n.md overview` / `i18n`): reworded, not drifted.
  const [ta, tb] = [new Set(x.onlyA.flatMap(valueTokens)), new Set(x.onlyB.flatMap(valueTokens))];
  if ([...ta].every((t) => tb.has(t)) || [...tb].every((t) => ta.has(t))) return null;
  const kept = x.common / (x.common + changed);
  if (kept < 0.7) return null;
  // Said as the values that hold the changed words (`pnpm run build` / `vp build`), else the words.
  const holding = (words: string[], r: LineTerms) =>
    r.values.filter((v) => words.some((w) => v.text === w || v.text.split(/[\s]+/).includes(w))).map((v) => v.text);
  const [ha, hb] = [holding(x.onlyA, ra), holding(x.onlyB, rb)];
  const values: [string, string] = ha.length > 0 && hb.length > 0 ? [ha.join(', '), hb.join(', ')] : [x.onlyA.join(' '), x.onlyB.join(' ')];
  return { values, strength: (0.5 + 0.5 * kept) * (twoFiles(...values) ? OTHER_FILE : 1), line: true };
}

/**
 * A copy in another file with a word of its prose replaced, outside its values (`(lintly)` / `(prettly)`,
 * "submodule with custom" / "vendored"): the changed words are rare here (not grammar reworded), on
 * both sides, of no one stem. A number changed beside them makes two statements about two things.
 */
function wordedSlot(x: { common: number; onlyA: string[]; onlyB: string[] }, a: RuleLine, b: RuleLine, c: PairContext): Slot | null {
  if (x.onlyA.some((w) => /\d/.test(w)) && x.onlyB.some((w) => /\d/.test(w))) return null;
  // What a table row or a link says of its target is a description, said in other words each time it is copied.
  if ([a, b].some((l) => l.code || DESCRIBES.test(l.text))) return null;
  // A number added on one side (a timing, `[~10s]`) changes no word.
  const changed = Math.max(...[x.onlyA, x.onlyB].map((words) => words.filter((w) => !/\d/.test(w)).length));
  if (x.common < 4 || changed > 3 || x.common / (x.common + changed) < 0.6) return null;
  // A word of prose (outside code spans), of four letters or more ("a", "at", "eg" are grammar), rare here.
  const content = (words: string[], line: RuleLine) =>
    words.filter((w) => /^\p{L}{4,}$/u.test(w) && proseWordsOf(line).has(w) && (c.weight.get(w) ?? c.topWeight) >= 0.5 * c.topWeight);
  const [wa, wb] = [content(x.onlyA, a), content(x.onlyB, b)];
  if (wa.length === 0 || wb.length === 0 || wa.some((w) => wb.some((v) => oneStem(w, v)))) return null;
  const kept = x.common / (x.common + changed);
  return { values: [wa.join(' '), wb.join(' ')], strength: 0.3 + 0.3 * kept, line: true };
}

/** A version of its own: `v1`, `2.3`, `v4.1.0`. */
const VERSION_WORD = /^v?\d+(?:\.\d+)*$/;

/** A table row, or a line holding a link. */
const DESCRIBES = /^\s*\||\]\(/;

/**
 * One command said to run before a step in one line and after it in the other ("Run `x ready` after
 * commits" / "x ready   # before committing"): the same value, two times. Grammar only: the step is
 * the word after "before" or "after", the same word or one stem (commits, committing).
 */
function orderSlot(ta: string, tb: string, ra: LineTerms, rb: LineTerms): Slot | null {
  if (!ra.values.some((v) => rb.values.some((w) => w.text === v.text))) return null;
  const [oa, ob] = [ORDER.exec(ta), ORDER.exec(tb)];
  if (!oa || !ob || oa[1]!.toLowerCase() === ob[1]!.toLowerCase()) return null;
  if (!oneStem(oa[2]!.toLowerCase(), ob[2]!.toLowerCase())) return null;
  return { values: [oa[0].toLowerCase(), ob[0].toLowerCase()], strength: 0.7, line: true };
}
/** Two words of one stem: a common start of four letters or more, most of the shorter word (merges, merging; not comments, committing). */
function oneStem(x: string, y: string): boolean {
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n >= 4 && n >= 0.6 * Math.min(x.length, y.length);
}
const ORDER = /\b(before|after)\s+(?:each\s+|every\s+|the\s+|a\s+)?(\p{L}{4,})/iu;

/** A naming style's name, by its shape: a word joined to "case" (`camelCase`, `snake_case`, `kebab-case`, `UPPER_SNAKE_CASE`). */
const NAMING_STYLE = /\b[A-Za-z]+(?:[-_][A-Za-z]+)*(?:Case|[-_]case|_CASE)\b/g;

/** Two lines about one thing, each naming first another naming style for it ("keys are `TitleCase`" / "keys are UPPER_SNAKE_CASE"). */
function styleSlot(ta: string, tb: string): Slot | null {
  if (!/case\b/i.test(ta) || !/case\b/i.test(tb)) return null;
  const [sa, sb] = [ta, tb].map((t) => [...new Set((t.match(NAMING_STYLE) ?? []).map((m) => m.toLowerCase()))]);
  // Each line's first style is its own choice (a later one may be the style it overrides).
  if (sa!.length === 0 || sb!.length === 0 || sa![0] === sb![0]) return null;
  return { values: [sa![0]!, sb![0]!], strength: 0.7, worded: true };
}

/** One line is the other with a negation added: the same action, said and forbidden. */
const negationOnly = (onlyA: string[], onlyB: string[]): boolean => {
  const [more, less] = onlyA.length > 0 ? [onlyA, onlyB] : [onlyB, onlyA];
  return less.length === 0 && more.length > 0 && more.length <= 2 && more.some((w) => NEGATION_WORD.test(w));
};

/** The closest two values one line has and the other has not, by their tokens (align.ts). */
function valueSlot(ra: LineTerms, rb: LineTerms, c: PairContext): Slot | null {
  const tokensOf = c.tokensOf;
  // A value a line says not to use is no choice of a slot: "never `x`" and "use `x --check`" agree.
  const [va, vb] = [ra.values.filter((v) => !ra.negated.has(v.text)), rb.values.filter((v) => !rb.negated.has(v.text))];
  let best: Slot | null = null;
  for (const x of va) {
    const same = vb.find((y) => y.text === x.text);
    if (same) {
      // One path written in two cases names two files on most systems: one of them is wrong; so does
      // one line of code in two cases (`List[str]` / `list[str]`: case is meaning in code).
      if (same.written !== x.written && (isPath(x.text) || (ra.code && rb.code)) && CASE_DRIFT > (best?.strength ?? 0))
        best = { values: [x.written, same.written], strength: CASE_DRIFT, cased: true };
      continue;
    }
    for (const y of vb) {
      if (va.some((z) => z.text === y.text)) continue;
      // The line names another command that `y` runs with more words (`x e2e` / `x e2e path/a.spec.ts`): `y` is its own, not another value for `x`.
      if (extendsOther(y, x, va) || extendsOther(x, y, vb)) continue;
      // A folder and a path inside it (`lib/acme`, `lib/acme/tools`): one narrows the other. A name
      // and the same name with a dotted part more (`.env`, `.env.example`) are two files of one family.
      if (!(namesList(x) && namesList(y)) && (within(x.text, y.text) || within(y.text, x.text))) continue;
      if (dottedKin(x.text, y.text) || treeEntryOn(x.text, y.text) || treeEntryOn(y.text, x.text)) continue;
      // Steps of one numbered series (`step 1` … `step 4`), or a name and a command using a part of it (`zorb_ast` / `just ast`): two things.
      if (sameSeries(x.text, y.text, c) || nameAndCommand(x.text, y.text, tokensOf) || nameAndCommand(y.text, x.text, tokensOf)) continue;
      const d = compareValues(x.text, y.text, tokensOf);
      // No token in common: the same frame around them (`main` branch, `canary` branch) still makes one slot.
      let strength = d ? d.strength : sameFrame(x, y, c) && !shareToken(x.text, y.text, tokensOf) ? 0.45 : 0;
      if (strength > 0 && twoFiles(x.text, y.text)) strength *= OTHER_FILE;
      // Two names of one family, a part replaced inside one word (`web-tests` / `core-tests`): two things.
      if (d?.change === 'replaced' && oneWord(x.text, tokensOf) && oneWord(y.text, tokensOf)) strength *= FAMILY_MEMBER;
      // What one value adds, the other line says too (`x sync` "(optionally `--all`)" / `x sync --all`): it agrees.
      if (strength > 0 && addsOnlyWhatOtherSays(x.text, y.text, rb, tokensOf) && addsOnlyWhatOtherSays(y.text, x.text, ra, tokensOf))
        continue;
      if (strength > (best?.strength ?? 0)) best = { values: [x.text, y.text], strength };
    }
  }
  return best;
}

/** `v` is a command another value of the line (not `than`) runs with more words. */
const extendsOther = (v: Value, than: Value, line: readonly Value[]) =>
  line.some((z) => z !== than && z.command && v.text.startsWith(`${z.text} `));

const SERIES = /^(.+) (\d+)$/;
function sameSeries(x: string, y: string, c: PairContext): boolean {
  const [sx, sy] = [SERIES.exec(x), SERIES.exec(y)];
  return sx !== null && sy !== null && sx[1] === sy[1] && c.seriesSize(sx[1]!) >= 3;
}

/** One word joining several parts (an identifier, `zorb_ast`) against a command of several words: the name is no command. */
const nameAndCommand = (name: string, command: string, tokensOf: (v: string) => Token[]) =>
  !/\s/.test(name) && /[_]/.test(name) && tokensOf(name).length >= 2 && /\s/.test(command.trim());

/** How much two names of one family (a part replaced inside one word) mark a pair, against two commands. */
const FAMILY_MEMBER = 0.3;

/** All of a value's tokens are in one word of it (a name, `x-tests`, maybe after a tree's marks). */
const oneWord = (v: string, tokensOf: (v: string) => Token[]) => new Set(tokensOf(v).map((t) => t.word)).size === 1;

/** Every token `mine` has that `other` has not is said elsewhere in the other line (as a word, a flag or inside a value). */
function addsOnlyWhatOtherSays(mine: string, other: string, otherLine: LineTerms, tokensOf: (v: string) => Token[]): boolean {
  const theirs = new Set(tokensOf(other).map((t) => t.text));
  const said = new Set(otherLine.terms.flatMap((t) => [t, ...tokensOf(t).map((x) => x.text)]));
  return tokensOf(mine).every((t) => theirs.has(t.text) || said.has(t.text) || said.has(t.text.replace(/^--?/, '')));
}

/** Names joined by slashes, each capitalised (`Quill/Sparrow`): a list of names, not a folder and a path inside it. */
const namesList = (v: Value) => /^\p{Lu}[\p{L}\p{N}]*(?:\/\p{Lu}[\p{L}\p{N}]*)+$/u.test(v.written);
const within = (inner: string, outer: string) => inner.startsWith(`${outer}/`) && !/\s/.test(inner);

/** A structure tree's entry (`├── web/src`) whose folders the other path goes through (`packages/web/src/x`): one place, drawn relative to its parent. */
function treeEntryOn(entry: string, path: string): boolean {
  if (!/^[\s|*+-]*[\u2500-\u257f]/.test(entry) || /\s/.test(path)) return false;
  const parts = entry
    .replace(/^[\s|*+\u2500-\u257f-]+/, '')
    .split('/')
    .filter(Boolean);
  const through = path.split('/');
  return parts.length > 0 && !/\s/.test(parts.join('/')) && parts.every((p) => through.includes(p));
}

function dottedKin(x: string, y: string): boolean {
  if (/\s/.test(x) || /\s/.test(y) || !(x.includes('.') || y.includes('.'))) return false;
  const [px, py] = [x.split('.').filter(Boolean), y.split('.').filter(Boolean)];
  const [short, long] = px.length < py.length ? [px, py] : [py, px];
  return short.length < long.length && short.every((part) => long.includes(part));
}

/** A line's words outside its code spans, read once per line (a line meets many others). */
const proseWords = new WeakMap<RuleLine, ReadonlySet<string>>();
function proseWordsOf(line: RuleLine): ReadonlySet<string> {
  let words = proseWords.get(line);
  if (!words)
    proseWords.set(
      line,
      (words = new Set(
        line.text
          .replace(/`[^`]*`/g, ' ')
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu) ?? [],
      )),
    );
  return words;
}

/** Each value's own words name its line's own label ("Unit tests: `x test:unit`", "E2E tests: `x test:e2e`"): parallel items. */
function namesItself(values: [string, string], a: RuleLine, b: RuleLine): boolean {
  const [ta, tb] = [valueTokens(values[0]), valueTokens(values[1])];
  const own = (mine: string[], other: string[], line: RuleLine) => {
    const distinct = mine.filter((t) => !other.includes(t) && !/^\d+$/.test(t));
    if (distinct.length === 0) return false;
    const words = proseWordsOf(line);
    return distinct.every((t) => words.has(t));
  };
  return own(ta, tb, a) && own(tb, ta, b);
}

/** How strongly one path written in two cases marks a pair: as strongly as a copy with a value changed. */
const CASE_DRIFT = 0.9;
/** Two paths to files of other names are most often a list of files side by side (each its own), rarely one drifted. */
const OTHER_FILE = 0.2;

/** A file's name, with its folders or not: a name with an extension (`docs/setup.md`, `SKILL.md`), no spaces. */
const isPath = (v: string) => /[\p{L}\p{N}_-]\.[\p{L}][\p{L}\p{N}]{0,4}$/u.test(v) && !/\s/.test(v);
/** Two paths whose last segments are other names: other files (the same name under other folders is one file moved). */
function twoFiles(x: string, y: string): boolean {
  const file = (v: string) => !/\s/.test(v) && (v.includes('/') || isPath(v));
  if (!file(x) || !file(y)) return false;
  return x.slice(x.lastIndexOf('/') + 1).toLowerCase() !== y.slice(y.lastIndexOf('/') + 1).toLowerCase();
}

/** Values with a token in common that still compare to nothing narrow one another (an argument added). */
const shareToken = (x: string, y: string, tokensOf: (v: string) => Token[]) =>
  tokensOf(x).some((t) => tokensOf(y).some((u) => u.text === t.text));
/** The same word around two values of one kind (`main` branch, `canary` branch): a word of four letters or more ("the" frames anything), two paths or two names. */
const sameFrame = (x: Value, y: Value, c: PairContext) =>
  ((x.before.length >= 4 && x.before === y.before && rareWord(x.before, c)) ||
    (x.after.length >= 4 && x.after === y.after && rareWord(x.after, c))) &&
  (x.text.includes('/') || isPath(x.text)) === (y.text.includes('/') || isPath(y.text)) &&
  // A name and a command (`debug` / `make web-dev`) fill two slots.
  /\s/.test(x.text) === /\s/.test(y.text);
/** A word rare enough here to frame a slot (`branch`), not one of grammar every other line has (`with`, `from`). */
const rareWord = (w: string, c: PairContext) => (c.weight.get(w) ?? c.topWeight) >= 0.5 * c.topWeight;

/** What one value has and the other has not names its own line's file or heading (`x review -p store` in `crates/store/`): it narrows to itself. */
function ownPart(values: [string, string], a: RuleLine, b: RuleLine): boolean {
  const [ta, tb] = [valueTokens(values[0]).map((t) => t.toLowerCase()), valueTokens(values[1]).map((t) => t.toLowerCase())];
  const names = (mine: string[], other: string[], line: RuleLine) => {
    const place = `${line.path.toLowerCase()} ${line.section}`;
    return mine.some((t) => !other.includes(t) && t.length >= 3 && !/^\d+$/.test(t) && place.includes(t));
  };
  return names(ta, tb, a) || names(tb, ta, b);
}

const FAMILY_OF = ([x, y]: [string, string], size: (name: string) => number): boolean => {
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return /^[-_]/.test(long.slice(short.length)) && long.startsWith(short) && size(short) >= 3;
};

/** Both files hold both values: each file names both, so neither drifted from the other. */
const bothHold = (values: [string, string], pa: string, pb: string, held: ReadonlyMap<string, ReadonlySet<string>>): boolean =>
  values.every((v) => held.get(pa)?.has(v) && held.get(pb)?.has(v));

/** The rarest term both lines share. */
function subjectOf(ra: LineTerms, bTerms: ReadonlySet<string>, weight: ReadonlyMap<string, number>): string {
  let subject = '';
  let best = -1;
  for (const t of ra.terms) {
    const w = bTerms.has(t) ? (weight.get(t) ?? -1) : -1;
    if (w > best) [best, subject] = [w, t];
  }
  return subject;
}
