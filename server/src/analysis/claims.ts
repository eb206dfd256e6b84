import type { Scope, Unit } from '../model/model.js';
import { byCodeUnit, pushTo } from '../common/collections.js';
import { languagesMeet, languagesOf, scopesOverlap } from './scope-overlap.js';
import { readOption } from './option-claims.js';
import { CLAIM_TOPICS, MODALS } from './topics.js';
import { compatibleVersions, versionClaims } from './versions.js';

export interface Claim {
  topic: string;
  topicTitle: string;
  value: string;
  positive: boolean;
  path: string;
  line: number;
  /** The unit (paragraph, list item with its nested lines) the claim is in: `path:line`. */
  unit: string;
  text: string;
  scope: Scope;
  langs: Set<string>;
}

const REPO: Scope = { kind: 'repo' };

/** Read every line of the units for statements about the claim topics and language versions. */
export function extractClaims(units: Unit[], scopeOf: (u: Unit) => Scope = () => REPO): Claim[] {
  const claims: Claim[] = [];
  for (const unit of units) {
    // Headings name a section; the rules are the lines under them.
    if (unit.kind === 'code' || unit.kind === 'frontmatter' || unit.kind === 'heading') continue;
    const scope = scopeOf(unit);
    for (const offset of proseLines(unit)) {
      const text = unit.lines[offset]!;
      const at = { path: unit.path, line: unit.line + offset, unit: `${unit.path}:${unit.line}`, text, scope, langs: languagesOf(text, scope) };
      for (const topic of CLAIM_TOPICS) {
        if (topic.context && !topic.context.test(text)) continue;
        for (const option of topic.options) {
          if (option.context && !option.context.test(text)) continue;
          for (const match of text.matchAll(option.pattern)) {
            const positive = readOption(topic, option, text, match.index, match[0].length);
            if (positive !== null) claims.push({ topic: topic.id, topicTitle: topic.title, value: option.value, positive, ...at });
          }
        }
      }
      for (const v of versionClaims(text)) {
        claims.push({ topic: `version:${v.key}`, topicTitle: `${v.name} version`, value: v.value, positive: true, ...at });
      }
      for (const modal of MODALS) {
        for (const match of text.matchAll(modal.pattern)) {
          const object = ruleObject(text.slice(match.index + match[0].length));
          if (object) claims.push({ topic: `rule:${object}`, topicTitle: `"${object}"`, value: object, positive: modal.positive, ...at });
        }
      }
    }
  }
  return claims;
}

/** Indexes of a unit's lines outside the code blocks nested in it (an example under a list item). */
export function proseLines(u: Unit): number[] {
  const out: number[] = [];
  let fence: string | null = null;
  u.lines.forEach((l, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(l)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && marker && l.trim() === marker && marker.length >= fence.length && marker[0] === fence[0]) fence = null;
    else if (fence === null) out.push(i);
  });
  return out;
}

export interface Conflict {
  topicTitle: string;
  /** One claim for each line involved, in place order. */
  claims: Claim[];
  /** For each claim, the side it is on: lines on one side agree (the same option, both for or both against). */
  sides: number[];
  summary: string;
}

/** Why two claims of one topic cannot both hold, or null when they can. */
function clash(a: Claim, b: Claim): string | null {
  // One line or one unit that names two options qualifies them ("pnpm, not npm"; "double quotes for
  // user-visible strings" with "single quotes for internal ones" below it): it is one rule.
  if (a.unit === b.unit || a.text.trim() === b.text.trim()) return null;
  if (!scopesOverlap(a.scope, b.scope) || !languagesMeet(a.langs, b.langs)) return null;
  if (a.positive && b.positive && a.value !== b.value) {
    if (a.topic.startsWith('version:') && compatibleVersions(a.value, b.value)) return null;
    return [a.value, b.value].sort().map((v) => `"${v}"`).join(' vs ');
  }
  if (a.positive !== b.positive && a.value === b.value) return `"${a.value}" both required and ruled out`;
  return null;
}

/**
 * The contradictions: per topic, each set of lines linked by contradictions, with the side each line
 * is on. The person settles a conflict by choosing a side: its lines stand, the others go. Two sides
 * that never meet (4 spaces in CSS, 2 in TypeScript) are still one conflict when a third line
 * contradicts both (2 spaces everywhere in src/).
 */
export function findConflicts(claims: Claim[]): Conflict[] {
  const byTopic = new Map<string, Claim[]>();
  for (const c of claims) pushTo(byTopic, c.topic, c);
  const conflicts: Conflict[] = [];
  for (const list of byTopic.values()) {
    const pairs: [Claim, Claim, string][] = [];
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const reason = clash(list[i]!, list[j]!);
        if (reason) pairs.push([list[i]!, list[j]!, reason]);
      }
    }
    if (pairs.length === 0) continue;
    // Lines are what a person keeps or drops: one claim stands for each line.
    const lines: Claim[] = [];
    for (const c of pairs.flatMap(([a, b]) => [a, b]).sort(byPlace)) if (lines.length === 0 || lineKey(lines[lines.length - 1]!) !== lineKey(c)) lines.push(c);
    const index = new Map(lines.map((c, i) => [lineKey(c), i]));
    const group = lines.map((_, i) => i);
    const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i]!)));
    for (const [a, b] of pairs) group[find(index.get(lineKey(a))!)] = find(index.get(lineKey(b))!);
    const components = new Map<number, number[]>();
    lines.forEach((_, i) => pushTo(components, find(i), i));
    for (const members of components.values()) {
      const sideOf = new Map<string, number>();
      const sides = members.map((m) => {
        const key = `${lines[m]!.positive}:${lines[m]!.value}`;
        if (!sideOf.has(key)) sideOf.set(key, sideOf.size);
        return sideOf.get(key)!;
      });
      const claims = members.map((m) => lines[m]!);
      conflicts.push({ topicTitle: list[0]!.topicTitle, claims, sides, summary: sideSummary(claims, sides) });
    }
  }
  return conflicts;
}

/**
 * Each side's value with its own locations, sides in place order: `"pnpm" (a.md:5) vs "npm" (b.md:3)`;
 * one value required and ruled out: `"npm" both required (a.md:1) and ruled out (b.md:4)`.
 */
function sideSummary(claims: Claim[], sides: number[]): string {
  const groups: Claim[][] = [];
  claims.forEach((c, i) => (groups[sides[i]!] ??= []).push(c));
  const at = (g: Claim[]) => `(${g.map(lineKey).join(', ')})`;
  const values = new Set(groups.map((g) => g[0]!.value));
  if (values.size === 1) {
    const required = groups.filter((g) => g[0]!.positive).flat();
    const ruledOut = groups.filter((g) => !g[0]!.positive).flat();
    return `"${claims[0]!.value}" both required ${at(required)} and ruled out ${at(ruledOut)}`;
  }
  return groups.map((g) => `${g[0]!.positive ? '' : 'not '}"${g[0]!.value}" ${at(g)}`).join(' vs ');
}

const lineKey = (c: Claim): string => `${c.path}:${c.line}`;
const byPlace = (a: Claim, b: Claim): number => byCodeUnit(a.path, b.path) || a.line - b.line;

const FILLER = new Set(['the', 'a', 'an', 'to', 'any', 'your', 'our']);

/** The thing a modal rule is about: its next few words, lower-cased, without filler. */
function ruleObject(rest: string): string | null {
  const words = rest
    .split(/[.;:,!?()]/)[0]!
    .toLowerCase()
    .replace(/[`*_"']/g, '')
    .split(/\s+/)
    .filter((w) => w !== '' && !FILLER.has(w))
    .slice(0, 4);
  return words.length >= 2 ? words.join(' ') : null;
}
