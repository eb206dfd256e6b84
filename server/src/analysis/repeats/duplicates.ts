/**
 * How repeats are reported: reworded duplicates (the same claim in other words), and whole copied
 * files or sections reported once for the pair of files instead of once per line.
 */
import type { FoundDuplication } from '../../model/problem.js';
import { pushTo } from '../../common/collections.js';
import type { NormalizedOf } from './normalized.js';
import { normalizedText, type InstructionDoc, type Scope, type Unit } from '../../model/model.js';
import { scopesOverlap } from '../scope/scope-overlap.js';
import { pairsTogether } from './similar-lines.js';
import { copyClusters, type CopiedPair } from './copy-clusters.js';
import { normalizeCommand } from '../contradictions/tools.js';
import { isTrivial, stripMarker } from './trivial.js';

/** Word-set similarity from which two short rules say the same thing. */
const REWORDED = 0.6;
/** Rules longer than this are left to near-duplicates.ts. */
const MAX_WORDS = 25;
/** Words in more rules than this say nothing about which rules are alike. */
const MAX_POSTINGS = 60;

const NEGATION =
  /\b(?:never|don'?t|do not|does not|doesn'?t|must not|mustn'?t|should not|shouldn'?t|avoid|no|without|cannot|can'?t|not)\b/gi;
/** Words of grammar and of every instruction ("to", "the", "use", "always"): no subject of a line. */
export const GRAMMAR_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'and',
  'or',
  'for',
  'with',
  'in',
  'on',
  'at',
  'by',
  'all',
  'any',
  'every',
  'each',
  'your',
  'our',
  'this',
  'that',
  'these',
  'those',
  'is',
  'are',
  'be',
  'use',
  'using',
  'run',
  'keep',
  'make',
  'always',
  'must',
  'should',
  'please',
  'prefer',
  'write',
  'it',
  'its',
  'as',
  'from',
  'into',
  'under',
  'over',
  'before',
  'after',
  'when',
  'then',
  'only',
  'do',
  'does',
  'just',
  'we',
  'you',
  'type',
  'instead',
  'also',
  'new',
  'code',
  'repository',
  'repo',
  'sure',
]);
const SYNONYMS: Record<string, string> = {
  development: 'dev',
  chars: 'character',
  char: 'character',
  validation: 'validate',
  tests: 'test',
  testing: 'test',
  wrap: 'line-limit',
};

interface Tokens {
  words: Set<string>;
  /** Numbers, file names and commands: two rules about different ones are different rules. */
  anchors: string;
  negated: boolean;
}

/** The claim a short rule makes, as a set of normalised words, its numbers, and whether it forbids. */
function tokens(text: string): Tokens | null {
  const spans: string[] = [];
  const anchors: string[] = [];
  let t = stripMarker(text).replace(/`([^`]+)`/g, (_, c: string) => {
    const code = normalizeCommand(c).toLowerCase();
    spans.push(`code:${code}`);
    if (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(code)) return ' ';
    anchors.push(code);
    return ' ';
  });
  const negated = NEGATION.test(t);
  NEGATION.lastIndex = 0;
  t = t.replace(NEGATION, ' ').toLowerCase();
  const raw = t
    .split(/[^\p{L}\p{N}.+#-]+/u)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((w) => w !== '');
  if (raw.length + spans.length > MAX_WORDS) return null;
  const words = new Set(spans);
  for (const w of raw) {
    if (/^\d+(?:\.\d+)*$/.test(w) || /\p{L}[./]\p{L}/u.test(w)) anchors.push(w);
    if (GRAMMAR_WORDS.has(w)) continue;
    const s = w.length > 3 && /[^su]s$/.test(w) ? w.slice(0, -1) : w;
    words.add(SYNONYMS[w] ?? SYNONYMS[s] ?? s);
  }
  if (words.size < (spans.length > 0 ? 1 : 2)) return null;
  return { words, anchors: [...new Set(anchors)].sort().join(','), negated };
}

/** Words a rule starts with when it tells the reader what to do ("Keep", "Never", "Use"). */
const RULE_START = new RegExp(
  `^(?:${[
    'always',
    'never',
    'no',
    'must',
    'should',
    "don'?t",
    'do',
    'avoid',
    'prefer',
    'only',
    'please',
    'make sure',
    'ensure',
    'use',
    'keep',
    'wrap',
    'validate',
    'write',
    'start',
    'run',
    'add',
    'follow',
    'document',
    'name',
    'place',
    'put',
    'check',
    'test',
    'commit',
    'push',
    'limit',
    'format',
    'lint',
    'import',
    'export',
    'return',
    'handle',
    'log',
    'throw',
    'create',
    'define',
    'declare',
    'implement',
    'mock',
    'update',
    'edit',
    'install',
    'call',
    'pass',
    'store',
    'include',
    'remove',
    'delete',
    'split',
    'group',
    'sort',
    'prefix',
    'suffix',
    'favor',
    'favour',
    'stick',
    'treat',
    'wrap',
    'mark',
    'verify',
    'regenerate',
    'rebase',
    'merge',
    'squash',
    'sign',
    'open',
    'link',
    'reference',
  ].join('|')})\\b`,
  'i',
);
/** A rule that tells the reader what to do or not to do, not a description or a label ("**PHPStan**: static analysis"). */
const stripLabel = (t: string): string =>
  t.replace(/^(?:(?:\*\*|__)[^*_]{1,40}(?:\*\*|__)|`[^`]{1,40}`)\s*:\s*|^(?:\*\*|__)[^*_]{1,40}(?:\*\*|__)\s*/, '');
function isRule(text: string, bare = stripMarker(text)): boolean {
  if (text.startsWith('|') || /^\s*(?:[-*+]\s+)?\[[ xX]\]/.test(text)) return false;
  const t = stripLabel(bare).replace(/^[^\p{L}`]+/u, '');
  return RULE_START.test(t) || /\b(?:must|should|never|always)\b/i.test(t);
}

/** Where a text says several things: a sentence's end, then spaces, then a capital or code. */
const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z`])/;

/**
 * What every {@link SENTENCE_BREAK} holds: a `.`, `!` or `?` with whitespace after it. Most rules are
 * one sentence: a text without it is not split (a regular expression without a lookbehind scans a
 * line faster than one with it, or than a loop over its characters in a process that runs once).
 */
const MAY_BREAK = /[.!?]\s/;
export const mayHaveSentenceBreak = (text: string): boolean => MAY_BREAK.test(text);

/** One rule (whole, or one sentence of it) as findReworded compares it; nothing when it is not a rule or has too few words. */
function addRule(items: RuleItem[], u: Unit, part: string, whole: boolean, bare?: string): void {
  if (!isRule(part, bare)) return;
  const t = tokens(part);
  if (t !== null) items.push({ u, text: part, t, whole });
}

interface RuleItem {
  u: Unit;
  text: string;
  t: Tokens;
  whole: boolean;
}

/**
 * Rules that say the same thing in other words: "Wrap lines at 100 characters" and "Keep lines under
 * 100 characters"; "Never use `any`" and "Do not use the `any` type". Short rules only (long ones
 * are near-duplicates.ts's), with the same numbers and both forbidding or both not. Candidates come
 * from shared rare words, so the cost stays near linear in the number of rules.
 */
export function findReworded(
  units: Unit[],
  scopeOf: (u: Unit) => Scope = () => ({ kind: 'repo' }),
  normalizedOf: NormalizedOf = normalizedText,
): FoundDuplication[] {
  // Each one-line rule, and each sentence of one that says several things ("Strict mode. No `any`.").
  const items: RuleItem[] = [];
  for (const u of units) {
    if ((u.kind !== 'paragraph' && u.kind !== 'list-item') || u.lines.length !== 1) continue;
    const text = normalizedOf(u);
    const bare = stripMarker(text);
    if (isTrivial(bare)) continue;
    addRule(items, u, text, true, bare);
    if (!mayHaveSentenceBreak(bare)) continue;
    const sentences = stripLabel(bare).split(SENTENCE_BREAK);
    if (sentences.length > 1) for (const part of sentences) addRule(items, u, part, part === text);
  }
  const postings = new Map<string, number[]>();
  items.forEach((x, i) => x.t.words.forEach((w) => pushTo(postings, w, i)));
  const seen = new Set<number>();
  const reported = new Set<string>();
  const problems: FoundDuplication[] = [];
  for (const ids of postings.values()) {
    if (ids.length < 2 || ids.length > MAX_POSTINGS) continue;
    for (let x = 0; x < ids.length; x++) {
      for (let y = x + 1; y < ids.length; y++) {
        const key = ids[x]! * items.length + ids[y]!;
        if (seen.has(key)) continue;
        seen.add(key);
        const a = items[ids[x]!]!;
        const b = items[ids[y]!]!;
        if (a.u === b.u) continue;
        if (
          (a.whole && b.whole && stripMarker(a.text) === stripMarker(b.text)) ||
          a.t.negated !== b.t.negated ||
          a.t.anchors !== b.t.anchors
        )
          continue;
        if (a.u.path !== b.u.path && !scopesOverlap(scopeOf(a.u), scopeOf(b.u))) continue;
        let common = 0;
        a.t.words.forEach((w) => (common += b.t.words.has(w) ? 1 : 0));
        const similarity = common / (a.t.words.size + b.t.words.size - common);
        if (common < Math.min(2, a.t.words.size, b.t.words.size) || similarity < REWORDED) continue;
        // Named only now: most candidate pairs fail the checks above, and a string per pair is garbage.
        const pair = `${a.u.path}:${a.u.line}|${b.u.path}:${b.u.line}`;
        if (reported.has(pair)) continue;
        reported.add(pair);
        const quoted = [excerpt(stripMarker(a.text)), excerpt(stripMarker(b.text))];
        problems.push({
          type: 'duplication',
          kind: 'reworded',
          description: `Reworded duplicate: "${quoted[0]}" says what "${quoted[1]}" says`,
          locations: [
            { path: a.u.path, line: a.u.line },
            { path: b.u.path, line: b.u.line },
          ],
          quoted,
        });
      }
    }
  }
  return problems;
}

/** Rules two files share from which they are one copy (or hold one copied section), reported once. */
const COPY_MIN = 4;
/** Shared share of the two files' rules from which they are copies of one file rather than share a section. */
const COPY_FILE = 0.6;

/**
 * Per pair of files that share COPY_MIN repeated rules or more, one problem instead of one per rule:
 * "AGENTS.md and CLAUDE.md are 92% the same; 3 sections differ", or a copied section with its lines;
 * files that are copies of one another are one problem per group (copy-clusters.ts).
 * The per-rule reports it stands for are dropped; repeats inside one file stay.
 */
export function collapseCopies(
  problems: FoundDuplication[],
  docs: InstructionDoc[],
  normalizedOf: NormalizedOf = normalizedText,
): FoundDuplication[] {
  const dups = problems.filter((p) => p.type === 'duplication' && p.kind !== 'heading');
  // The pairs of files that COPY_MIN reports or more have in common, through an index (not every pair of every report).
  const together = pairsTogether(
    dups.map((p) => [...new Set(p.locations.map((l) => l.path))].sort()),
    COPY_MIN,
  );
  const pairs = new Map<string, FoundDuplication[]>(together.map((t) => [`${t.a}\0${t.b}`, t.groups.map((k) => dups[k]!)]));
  const byPath = new Map(docs.map((d) => [d.path, d]));
  const absorbed = new Map<FoundDuplication, Set<string>>();
  const copies: FoundDuplication[] = [];
  const copiedFiles: CopiedPair[] = [];
  for (const [key, list] of pairs) {
    if (list.length < COPY_MIN) continue;
    const [a, b] = key.split('\0') as [string, string];
    const da = byPath.get(a);
    const db = byPath.get(b);
    if (!da || !db) continue;
    const shared = (d: InstructionDoc) =>
      new Set(
        list
          .flatMap((p) => p.locations.filter((l) => l.path === d.path).map((l) => unitAt(d, l.line)))
          .filter((u): u is Unit => u !== undefined),
      );
    const sa = shared(da);
    const sb = shared(db);
    const ra = ruleUnits(da, normalizedOf);
    const rb = ruleUnits(db, normalizedOf);
    const pct = Math.round((100 * (sa.size + sb.size)) / Math.max(1, ra.length + rb.length));
    const firstA = Math.min(...[...sa].map((u) => u.line));
    const firstB = Math.min(...[...sb].map((u) => u.line));
    if (pct >= COPY_FILE * 100) {
      const differ = new Set([...differingSections(da, ra, sa), ...differingSections(db, rb, sb)]);
      copiedFiles.push({ a, b, pct, shared: sa.size, firstA, firstB, differ });
    } else {
      const lastA = Math.max(...[...sa].map((u) => u.line + u.lines.length - 1));
      const lastB = Math.max(...[...sb].map((u) => u.line + u.lines.length - 1));
      copies.push({
        type: 'duplication',
        kind: 'copied-section',
        description: `Copied section: ${a} lines ${firstA}-${lastA} and ${b} lines ${firstB}-${lastB} share ${Math.min(sa.size, sb.size)} rules`,
        locations: [
          { path: a, line: firstA },
          { path: b, line: firstB },
        ],
      });
    }
    for (const p of list) {
      const s = absorbed.get(p) ?? new Set<string>();
      s.add(key);
      absorbed.set(p, s);
    }
  }
  copies.push(...copyClusters(copiedFiles));
  if (copies.length === 0) return problems;
  const kept = problems.filter((p) => {
    const s = absorbed.get(p);
    if (!s) return true;
    const paths = p.locations.map((l) => l.path);
    if (new Set(paths).size < paths.length) return true; // also repeated inside one file
    const distinct = [...new Set(paths)].sort();
    for (let i = 0; i < distinct.length; i++)
      for (let j = i + 1; j < distinct.length; j++) if (!s.has(`${distinct[i]}\0${distinct[j]}`)) return true;
    return false;
  });
  return [...kept, ...copies];
}

function ruleUnits(d: InstructionDoc, normalizedOf: NormalizedOf): Unit[] {
  return d.units.filter(
    (u) => u.kind !== 'heading' && u.kind !== 'frontmatter' && u.kind !== 'code' && !isTrivial(stripMarker(normalizedOf(u))),
  );
}

function unitAt(d: InstructionDoc, line: number): Unit | undefined {
  return d.units.find((u) => u.line <= line && line < u.line + u.lines.length);
}

/** Headings (by text) of the sections of `d` that hold a rule not shared. */
function differingSections(d: InstructionDoc, list: Unit[], shared: Set<Unit>): string[] {
  const out: string[] = [];
  const rules = new Set(list);
  let heading = '(top)';
  for (const u of d.units) {
    if (u.kind === 'heading')
      heading = u.lines[0]!.replace(/^\s*#+\s*/, '')
        .trim()
        .toLowerCase();
    else if (rules.has(u) && !shared.has(u)) out.push(heading);
  }
  return out;
}

function excerpt(t: string): string {
  const one = t.replace(/\n/g, ' ');
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}
