import { extractClaims, proseLines } from './contradictions/claims.js';
import { findConflicts } from './contradictions/conflicts.js';
import { normalizedTexts, type NormalizedOf } from './repeats/normalized.js';
import { normalizedText, normalizeLine, type InstructionDoc, type Scope, type Unit } from '../model/model.js';
import { contentDocs, type ScanResult } from './discovery/scan.js';
import type { Analysis } from '../model/analysis.js';
import { findNearDuplicates } from './repeats/near-duplicates.js';
import { collapseCopies, findReworded } from './repeats/duplicates.js';
import { groupRepeats } from './repeats/repeat-groups.js';
import { certaintyOf } from './certainty.js';
import type { Location, Problem } from '../model/problem.js';
import { headLength, isToolMark } from '../model/unit-shape.js';
import { isTrivial, stripMarker } from './repeats/trivial.js';
import { groupBy, repeatedKeys } from '../common/collections.js';
import { meetingMembers, scopesOverlap } from './scope/scope-overlap.js';
import type { SkippedSource } from '../repo/source-file.js';
import { charName, hiddenIn, showExcerpt } from '../show/untrusted.js';
import { importCapProblem } from './discovery/imports.js';
import { findDrift } from './drift/drift.js';
import { describePattern, patternFacts } from './pattern.js';

export type { Analysis, Pattern } from '../model/analysis.js';
export type { Location, Problem } from '../model/problem.js';

/** Non-blank lines allowed before the first `## ` section in a structured file (besides the title). */
const MAX_PREAMBLE_LINES = 6;

export function analyze(scan: ScanResult): Analysis {
  const normalizedOf = normalizedTexts();
  const docs = contentDocs(scan);
  const units = docs.flatMap((d) => d.units).filter((u) => !isToolMark(u));
  const scopes = new Map(docs.map((d) => [d.path, d.scope]));
  const scopeOf = (u: Unit): Scope => scopes.get(u.path) ?? { kind: 'repo' };
  // A file left out of the migration as a copy of another is still a copy a reader should hear about:
  // repeats are looked for with it, and collapse to one report per copied file.
  const copyPaths = new Set(scan.copies.filter((c) => c.relation === 'copy').map((c) => c.path));
  const copyDocs = scan.docs.filter((d) => copyPaths.has(d.path));
  const repeatDocs = copyDocs.length === 0 ? docs : [...docs, ...copyDocs];
  // Without copies, the units searched for repeats are the units: not a second list of thousands.
  const repeatUnits = copyDocs.length === 0 ? units : repeatDocs.flatMap((d) => d.units).filter((u) => !isToolMark(u));
  for (const d of copyDocs) scopes.set(d.path, d.scope);
  const repeats = [
    ...findDuplicates(repeatUnits, scopeOf, normalizedOf),
    ...findNearDuplicates(repeatUnits, scopeOf, normalizedOf),
    ...findReworded(repeatUnits, scopeOf, normalizedOf),
  ];
  dedupeByLocations(repeats);
  const collapsed = groupRepeats(collapseCopies(repeats, repeatDocs, normalizedOf));
  const contradictions = contradictionsIn(units, scopeOf);
  const drifted = findDrift(
    repeatUnits,
    scopeOf,
    scan.copies.filter((c) => c.relation === 'copy'),
  );
  const topics = new Map([...contradictions, ...drifted].map((c) => [c.problem, c.topic]));
  const problems = [
    ...collapsed,
    ...contradictions.map((c) => c.problem),
    ...drifted.map((d) => d.problem),
    ...docs.flatMap((d) => findHiddenCharacters(d.units)),
    ...scan.importCaps.map(importCapProblem),
  ];
  const structured = Object.fromEntries(docs.map((d) => [d.path, isStructured(d)]));
  dedupeByLocations(problems);
  for (const p of problems) p.certainty = certaintyOf(p);
  const facts = patternFacts(scan, docs, problems, structured);
  return {
    pattern: facts.pattern,
    patternDetail: describePattern(facts),
    sources: scan.sources,
    problems,
    skipped: scan.skipped.map((s: SkippedSource) => ({ path: s.path, reason: s.reason, detail: s.detail })),
    structured,
    contradictionTopics: problems.filter((p) => p.type === 'contradiction').map((p) => topics.get(p)!),
  };
}

/** Two findings about exactly the same lines say one thing: keep the first. */
function dedupeByLocations(problems: Problem[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < problems.length; i++) {
    const key = `${problems[i]!.type}|${problems[i]!.locations.map((l) => `${l.path}:${l.line}`).join(',')}`;
    if (seen.has(key)) problems.splice(i--, 1);
    else seen.add(key);
  }
}

/**
 * Organised: at least one `## ` section, and before the first one only the head that `restructure`
 * keeps on top (front matter, the title, the prose under it) and at most a few other lines.
 */
export function isStructured(doc: InstructionDoc): boolean {
  const firstSection = doc.units.findIndex((u) => u.kind === 'heading' && u.level === 2);
  if (firstSection < 0) return false;
  const preamble = doc.units
    .slice(Math.min(headLength(doc.units), firstSection), firstSection)
    .filter((u) => u.kind !== 'frontmatter' && !(u.kind === 'heading' && u.level === 1));
  return preamble.reduce((n, u) => n + u.lines.filter((l) => l.trim() !== '').length, 0) <= MAX_PREAMBLE_LINES;
}

/**
 * Exact repeats of rules: paragraphs and list items, then single lines. Headings count only when a
 * file repeats one among siblings (a section split in two); across files, or under different parents
 * ("### Examples" under each rule), they are structure. Labels ("**Example:**"), code examples and
 * repeats in files whose scopes never meet (each needs its own copy) are not reported.
 */
export function findDuplicates(
  units: Unit[],
  scopeOf: (u: Unit) => Scope = () => ({ kind: 'repo' }),
  normalizedOf: NormalizedOf = normalizedText,
): Problem[] {
  const problems: Problem[] = [];
  // The lines of the repeated blocks reported, by file: their lines are not reported again one by one.
  const coveredLines = new Map<string, Set<number>>();

  for (const group of groupBy(siblingHeadings(units), (h) => h.key).values()) {
    if (group.length < 2) continue;
    problems.push({
      type: 'duplication',
      kind: 'heading',
      description: `Repeated heading "${group[0]!.text}"`,
      locations: group.map((h) => loc(h.unit)),
    });
  }

  const rules = units.filter((u) => u.kind !== 'heading' && u.kind !== 'frontmatter' && u.kind !== 'code' && !isComment(u));
  // Only the repeated texts are grouped: a repository of thousands of rules has thousands of texts, nearly all used once.
  const unitTexts = rules.map(normalizedOf);
  for (const indexes of repeatedKeys(unitTexts)) {
    const all = indexes.map((i) => rules[i]!);
    const text = unitTexts[indexes[0]!]!;
    if (isTrivial(text) || isFragment(text)) continue;
    for (const group of meetingGroups(all, (u) => u, scopeOf)) {
      const what = group[0]!.lines.length > 1 ? 'paragraph' : group[0]!.kind === 'list-item' ? 'rule' : 'line';
      problems.push({ type: 'duplication', kind: 'exact', description: `Repeated ${what}: "${excerpt(text)}"`, locations: group.map(loc) });
      for (const u of group) {
        let covered = coveredLines.get(u.path);
        if (!covered) coveredLines.set(u.path, (covered = new Set()));
        for (let i = 0; i < u.lines.length; i++) covered.add(u.line + i);
      }
    }
  }

  // Each line as three columns, not an object: an object is made only for the lines that repeat.
  const texts: string[] = [];
  const lineUnits: Unit[] = [];
  const offsets: number[] = [];
  for (let r = 0; r < rules.length; r++) {
    const u = rules[r]!;
    const covered = coveredLines.get(u.path);
    const prose = proseLines(u);
    for (let k = 0; k < prose.length; k++) {
      const i = prose[k]!;
      if (covered?.has(u.line + i)) continue;
      // A one-line unit's normalised text is its line's, already worked out.
      texts.push(stripMarker(u.lines.length === 1 ? unitTexts[r]! : normalizeLine(u.lines[i]!)));
      lineUnits.push(u);
      offsets.push(i);
    }
  }
  for (const indexes of repeatedKeys(texts)) {
    const all = indexes.map((i) => ({ text: texts[i]!, unit: lineUnits[i]!, offset: offsets[i]! }));
    const text = all[0]!.text;
    if (isTrivial(text) || isFragment(text)) continue;
    for (const group of meetingGroups(all, (l) => l.unit, scopeOf))
      problems.push({
        type: 'duplication',
        kind: 'exact',
        description: `Repeated line: "${excerpt(text)}"`,
        locations: group.map((g) => ({ path: g.unit.path, line: g.unit.line + g.offset })),
      });
  }
  return problems;
}

/** Fewer than three words once the list marker is gone ("- See above."): a fragment, not a rule. */
const isFragment = (text: string): boolean =>
  stripMarker(text)
    .split(/\s+/)
    .filter((w) => /\p{L}/u.test(w)).length < 3;

const isComment = (u: Unit): boolean => u.kind === 'html' && u.lines[0]!.trimStart().startsWith('<!--');

/** Headings keyed by file, parent heading, level and text: equal keys are siblings with one title. */
function siblingHeadings(units: Unit[]): { key: string; text: string; unit: Unit }[] {
  const out: { key: string; text: string; unit: Unit }[] = [];
  const parents = new Map<string, Unit[]>();
  for (const u of units) {
    if (u.kind !== 'heading') continue;
    const stack = parents.get(u.path) ?? [];
    while (stack.length > 0 && stack[stack.length - 1]!.level! >= u.level!) stack.pop();
    const text = normalizeLine(u.lines[0]!.replace(/^\s*#+\s*/, '').replace(/\s+#+\s*$/, '')).toLowerCase();
    if (text !== '') out.push({ key: `${u.path}|${stack[stack.length - 1]?.line ?? 0}|${u.level}|${text}`, text, unit: u });
    stack.push(u);
    parents.set(u.path, stack);
  }
  return out;
}

/** Above this many repeats of one text, its members that meet are reported as one group (pairs cost too much). */
const MAX_PAIRED_REPEATS = 64;

/**
 * The repeats of one text, in groups whose members can apply to the same files: two copies count as
 * a duplicate only where their scopes overlap (the same file, or applyTo folders and globs that
 * meet). Copies in `packages/a/**` and in `packages/b/**` are two groups, each with the copy that
 * meets it, never one duplicate across folders that do not overlap. Groups of one are not repeats.
 */
function meetingGroups<T>(group: T[], unitOf: (x: T) => Unit, scopeOf: (u: Unit) => Scope): T[][] {
  if (group.length > MAX_PAIRED_REPEATS) {
    const met = meeting(group, unitOf, scopeOf);
    return met.length >= 2 ? [met] : [];
  }
  const parent = group.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < group.length; i++)
    for (let j = i + 1; j < group.length; j++) {
      const a = unitOf(group[i]!);
      const b = unitOf(group[j]!);
      if (a.path === b.path || scopesOverlap(scopeOf(a), scopeOf(b))) parent[find(j)] = find(i);
    }
  const byRoot = new Map<number, T[]>();
  group.forEach((x, i) => {
    const root = find(i);
    const members = byRoot.get(root);
    if (members) members.push(x);
    else byRoot.set(root, [x]);
  });
  return [...byRoot.values()].filter((members) => members.length >= 2);
}

/** The members of a group of repeats that share a scope with another member. */
function meeting<T>(group: T[], unitOf: (x: T) => Unit, scopeOf: (u: Unit) => Scope): T[] {
  if (group.length <= 8)
    return group.filter((x, i) =>
      group.some((y, j) => j !== i && (unitOf(x).path === unitOf(y).path || scopesOverlap(scopeOf(unitOf(x)), scopeOf(unitOf(y))))),
    );
  // A line repeated in many files: through an index of the scopes, not every pair.
  const meets = meetingMembers(group.map((x) => ({ path: unitOf(x).path, scope: scopeOf(unitOf(x)) })));
  return group.filter((_, i) => meets[i]);
}

export function findContradictions(units: Unit[], scopeOf?: (u: Unit) => Scope): Problem[] {
  return contradictionsIn(units, scopeOf).map((c) => c.problem);
}

/** A contradiction found, and its topic as data. */
interface Contradiction {
  problem: Problem;
  topic: string;
}

function contradictionsIn(units: Unit[], scopeOf?: (u: Unit) => Scope): Contradiction[] {
  return findConflicts(extractClaims(units, scopeOf)).map((c) => ({
    problem: {
      type: 'contradiction' as const,
      description: contradictionDescription(c.topicTitle, c.summary),
      locations: c.claims.map((cl) => ({ path: cl.path, line: cl.line })),
      sides: c.sides,
      ...(c.mentions.length > 0 ? { mentions: c.mentions.map((m) => ({ path: m.claim.path, line: m.claim.line, side: m.side })) } : {}),
      kind: c.kind,
      topic: c.topicTitle,
      said: c.summary,
    },
    topic: c.topicTitle,
  }));
}

/** How a contradiction's problem says what it is about: its topic (never with a colon), then what each side says. */
const contradictionDescription = (topic: string, summary: string): string => `Contradicting rules about ${topic}: ${summary}`;

/**
 * Characters a person cannot see or that a terminal acts on (controls, ESC, a lone CR, bidi
 * controls, zero-width characters; see show/untrusted.ts), in any line of an instruction file: one
 * problem per line, naming each character. `Use p\u200bnpm` is not `Use pnpm`, whatever it looks like.
 */
export function findHiddenCharacters(units: Unit[]): Problem[] {
  const problems: Problem[] = [];
  for (const u of units) {
    for (let i = 0; i < u.lines.length; i++) {
      const line = u.lines[i]!;
      const hidden = hiddenIn(line);
      if (hidden.length === 0) continue;
      problems.push({
        type: 'ambiguity',
        kind: 'hidden-character',
        description: `Hidden character${hidden.length > 1 ? 's' : ''} ${hidden.map(charName).join(', ')} in "${showExcerpt(line.replace(/^[ \t]+|[ \t]+$/g, ''), 80)}": the text is not what it looks like`,
        locations: [{ path: u.path, line: u.line + i }],
      });
    }
  }
  return problems;
}

const loc = (u: Unit): Location => ({ path: u.path, line: u.line });
const excerpt = (t: string): string => {
  const one = t.replace(/\n/g, ' ');
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
};
