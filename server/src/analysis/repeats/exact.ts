import { normalizedText, normalizeLine, type Scope, type Unit } from '../../model/model.js';
import type { FoundDuplication, Location } from '../../model/problem.js';
import { groupBy, repeatedKeys } from '../../common/collections.js';
import { proseLines } from '../contradictions/claims.js';
import { meetingMembers, scopesOverlap } from '../scope/scope-overlap.js';
import type { NormalizedOf } from './normalized.js';
import { isTrivial, stripMarker } from './trivial.js';

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
): FoundDuplication[] {
  const problems: FoundDuplication[] = [];
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

const loc = (u: Unit): Location => ({ path: u.path, line: u.line });
const excerpt = (t: string): string => {
  const one = t.replace(/\n/g, ' ');
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
};
