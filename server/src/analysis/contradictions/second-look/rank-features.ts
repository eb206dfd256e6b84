import { alignLines, lineWords } from './align.js';
import type { RuleLine } from './rule-lines.js';

/**
 * What the learned ranking (rank.ts) reads of a pair of lines: how alike they are, what each holds
 * that the other does not (code spans, numbers, names, words of grammar that turn or weaken a rule),
 * where they stand (headings, list items, code, scoped files) and whether the finder's own reading
 * marked them. Shapes and grammar only: no name of a tool, package or product.
 */
export const FEATURES = [
  'cosine',
  'rarest',
  'rareShared',
  'sectionsAlike',
  'bothSpans',
  'oneCode',
  'bothCode',
  'oneNegated',
  'otherModals',
  'otherSpans',
  'kept',
  'lengthRatio',
  'marked',
  'markedRank',
  'bothItems',
  'hedged',
  'otherNumbers',
  'sameSection',
  'sameFirstWord',
  'sameLabel',
  'sharedSpans',
  'otherNames',
  'shortLength',
  'scoped',
  'cosineNegated',
  'cosineSquared',
  'rarestOtherSpans',
  // Filled by placeInRepository, once every pair of the repository is read.
  'rarestInRepository',
  'rareSharedInRepository',
] as const;

/** Grammar that turns a rule around. */
const NEGATED = /\b(?:never|not|no|don't|do not|avoid|avoiding|without|instead of)\b/i;
/** Grammar that sets how strongly a rule holds. */
const MODALS = ['always', 'never', 'must', 'should', 'only', 'prefer', 'avoid', 'may', 'can', 'optional', 'required', 'default'];
const MODAL = new RegExp(`\\b(?:${MODALS.join('|')})\\b`, 'gi');
/** Grammar that narrows a rule to some cases. */
const HEDGE = /\b(?:when possible|if possible|if needed|unless|where possible|edge cases?|when necessary)\b/i;
const SPAN = /`([^`]+)`/g;
const LABEL = /^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*([^*]{2,40})\*\*|([A-Z][\w ]{1,25}):)/;
const NAME = /(?<=[a-z,]\s+)[A-Z][A-Za-z0-9]+/g;

/** What a line holds, read once. */
interface LineFacts {
  spans: ReadonlySet<string>;
  modals: string;
  numbers: string;
  firstWord: string;
  label: string;
  names: ReadonlySet<string>;
  negated: boolean;
  hedged: boolean;
  /** The words of its heading, three letters or more. */
  sectionWords: ReadonlySet<string>;
}

const factsRead = new WeakMap<RuleLine, LineFacts>();
function factsOf(l: RuleLine): LineFacts {
  let f = factsRead.get(l);
  if (f) return f;
  const label = LABEL.exec(l.text);
  f = {
    spans: new Set([...l.text.matchAll(SPAN)].map((m) => m[1]!.toLowerCase())),
    modals: [...new Set((l.text.match(MODAL) ?? []).map((m) => m.toLowerCase()))].sort().join(','),
    numbers: (l.text.match(/\d+(?:\.\d+)*/g) ?? []).join(','),
    firstWord: (/^[A-Za-z]+/.exec(l.text.replace(/^[\s>*+\-\d.)]+/, ''))?.[0] ?? '').toLowerCase(),
    label: (label?.[1] ?? label?.[2] ?? '').toLowerCase().replace(/:$/, '').trim(),
    names: new Set((l.text.match(NAME) ?? []).map((n) => n.toLowerCase())),
    negated: NEGATED.test(l.text),
    hedged: HEDGE.test(l.text),
    sectionWords: new Set(l.section.split(/\W+/).filter((w) => w.length >= 3)),
  };
  factsRead.set(l, f);
  return f;
}

/** How alike two lines are by their words (alike-pairs.ts). */
export interface Likeness {
  cosine: number;
  rarest: number;
  rareShared: number;
}

const some = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => [...a].some((v) => !b.has(v));

/** The pair's features, in the order of FEATURES. `rank`: its place in the finder's own list (1 = first), or 0 when it holds no mark. */
export function pairFeatures(
  a: RuleLine,
  b: RuleLine,
  like: Likeness,
  wordsA: readonly string[],
  wordsB: readonly string[],
  rank: number,
): number[] {
  const [fa, fb] = [factsOf(a), factsOf(b)];
  const [sa, sb] = [fa.sectionWords, fb.sectionWords];
  let common = 0;
  for (const w of sa) if (sb.has(w)) common++;
  const union = sa.size + sb.size - common;
  const sectionsAlike = union === 0 ? 0 : common / union;
  let kept = 0;
  if (like.cosine >= 0.25) {
    const [la, lb] = [lineWords(a.text), lineWords(b.text)];
    kept = alignLines(la, lb).common / Math.max(1, la.length, lb.length);
  }
  const otherSpans = some(fa.spans, fb.spans) && some(fb.spans, fa.spans) ? 1 : 0;
  const oneNegated = fa.negated !== fb.negated ? 1 : 0;
  // A name each side has and the other's words have not (read only where both lines hold names).
  const otherNames =
    fa.names.size > 0 &&
    fb.names.size > 0 &&
    [...fa.names].some((n) => !wordsB.includes(n)) &&
    [...fb.names].some((n) => !wordsA.includes(n))
      ? 1
      : 0;
  return [
    like.cosine,
    like.rarest,
    like.rareShared,
    sectionsAlike,
    fa.spans.size > 0 && fb.spans.size > 0 ? 1 : 0,
    a.code !== b.code ? 1 : 0,
    a.code && b.code ? 1 : 0,
    oneNegated,
    fa.modals !== fb.modals ? 1 : 0,
    otherSpans,
    kept,
    Math.min(wordsA.length, wordsB.length) / Math.max(1, wordsA.length, wordsB.length),
    rank > 0 ? 1 : 0,
    rank > 0 ? 1 / rank : 0,
    a.item && b.item ? 1 : 0,
    fa.hedged || fb.hedged ? 1 : 0,
    fa.numbers !== '' && fb.numbers !== '' && fa.numbers !== fb.numbers ? 1 : 0,
    a.section === b.section ? 1 : 0,
    fa.firstWord !== '' && fa.firstWord === fb.firstWord ? 1 : 0,
    fa.label !== '' && fa.label === fb.label ? 1 : 0,
    [...fa.spans].filter((s) => fb.spans.has(s)).length,
    otherNames,
    Math.min(wordsA.length, wordsB.length) / 20,
    a.scope.kind !== 'repo' || b.scope.kind !== 'repo' ? 1 : 0,
    like.cosine * oneNegated,
    like.cosine ** 2,
    like.rarest * otherSpans,
    0,
    0,
  ];
}

/**
 * Where each pair's shared words stand among its repository's pairs: the share of the other pairs whose
 * shared words are less rare (0 for the least rare, 1 for the rarest). How rare a word is depends on how
 * many lines a repository has; a pair's place among its neighbours carried over better to repositories
 * left out of the fit (docs/analysis.md).
 */
export function placeInRepository(rows: number[][]): void {
  for (const name of ['rarest', 'rareShared'] as const) {
    const from = FEATURES.indexOf(name);
    const to = FEATURES.indexOf(`${name}InRepository`);
    const sorted = rows.map((r) => r[from]!).sort((x, y) => x - y);
    for (const r of rows) r[to] = rows.length <= 1 ? 1 : below(sorted, r[from]!) / (rows.length - 1);
  }
}

/** How many values of ascending `sorted` are below `v`. */
function below(sorted: readonly number[], v: number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
