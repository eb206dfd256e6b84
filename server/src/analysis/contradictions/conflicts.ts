import { isWeak, type ActionClaimRead, type Claim, type RoleClaimRead } from './claim.js';
import { byCodeUnit, groupBy, pushTo } from '../../common/collections.js';
import { languagesMeet, scopesOverlap } from '../scope/scope-overlap.js';
import { compatibleVersions } from './versions.js';
import { sameCommand } from './claim-reader.js';
import type { Polarity } from './verb-polarity.js';
import type { ProblemKind } from '../../model/findings.js';

/**
 * Conflict is a relation between claims (claims.ts reads them): the same topic with another value,
 * the same action with the other polarity, the same role given other commands; grouped by topic
 * into sides, with what each side says.
 */

export interface Conflict {
  topicTitle: string;
  /** Which reading found it: tool-choice, version, setup-step (a setup command against a rule), always-never, action, command. */
  kind: ProblemKind<'contradiction'>;
  /** One claim for each line involved, in place order. */
  claims: Claim[];
  /** For each claim, the side it is on: lines on one side agree (the same option, both for or both against). */
  sides: number[];
  /** Lines that only use a side's tool or value (a step that runs `pnpm test`): named with the conflict, never dropped by a choice. */
  mentions: { claim: Claim; side: number }[];
  summary: string;
}

/**
 * One line or one unit that names two options qualifies them ("pnpm, not npm"; "double quotes for
 * user-visible strings" with "single quotes for internal ones" below it): it is one rule.
 */
const sameRule = (a: Claim, b: Claim): boolean => a.unit === b.unit || a.text.trim() === b.text.trim();

/**
 * The part of the project a line names as its subject ("the web package uses Jest", "the worker uses
 * Vitest", "in `packages/api`"): two rules about two named parts are about different things.
 */
const PART =
  /\bthe\s+`?([\w@/.-]+)`?\s+(?:package|app|application|service|module|library|workspace|project|crate|client|server)\b|\bthe\s+(worker|frontend|backend|server|client|api|cli|dashboard|website|sdk|docs site)\b(?!\s+(?:package|app|application|service|module|library|workspace|project|crate)\b)|\b(?:in|for|under)\s+`?((?:packages|apps|services|libs|crates)\/[\w.-]+)/i;
const partOf = (text: string) => {
  const m = PART.exec(text);
  return m ? (m[1] ?? m[2] ?? m[3])!.toLowerCase() : null;
};

/**
 * The case a line opens with ("For the backend components, we use X", "In tests: use Y"): its words.
 * Two rules that open with different cases are about different things.
 */
const LEAD_CASE = /^\W*(?:for|in|inside|within|under)\s+([^,:;.]{1,60}?)\s*(?:[,:]|\s(?:we|you|use|run|prefer|it|they)\b)/i;
const CASE_NOISE = new Set(['the', 'a', 'an', 'and', 'or', 'other', 'all', 'our', 'this', 'of']);
function leadCase(text: string): Set<string> | null {
  const m = LEAD_CASE.exec(text);
  return m
    ? new Set(
        m[1]!
          .toLowerCase()
          .replace(/[`*_]/g, '')
          .split(/\s+/)
          .filter((w) => !CASE_NOISE.has(w)),
      )
    : null;
}
const casesApart = (a: Set<string> | null, b: Set<string> | null) => a !== null && b !== null && ![...a].some((w) => b.has(w));

/** Why two claims from different rules cannot both hold, or null when they can. */
function clashApart(a: Claim, b: Claim): string | null {
  if (!scopesOverlap(a.scope, b.scope) || !languagesMeet(a.langs, b.langs)) return null;
  const [pa, pb] = [partOf(a.text), partOf(b.text)];
  if (pa !== null && pb !== null && pa !== pb) return null;
  if (casesApart(leadCase(a.text), leadCase(b.text))) return null;
  if (a.kind === 'action') return actionClash(a, b);
  if (a.kind === 'role') return roleClash(a, b);
  // Two setup steps that run different tools are examples, not rules: a rule must be among them.
  if (isWeak(a) && isWeak(b) && a.kind !== 'version') return null;
  if (a.positive && b.positive && a.value !== b.value) {
    if (a.topic.startsWith('version:') && compatibleVersions(a.value, b.value)) return null;
    return [a.value, b.value]
      .sort()
      .map((v) => `"${v}"`)
      .join(' vs ');
  }
  if (a.positive !== b.positive && a.value === b.value) return `"${a.value}" both required and ruled out`;
  return null;
}

const POLARITY_WORD: Record<Polarity, string> = { must: 'always', may: 'may', never: 'never' };

/**
 * "Always update X" against "never edit X", or "may force-push to main" against "force-pushing to
 * main is forbidden". A prohibition with an exception in it ("except in scripts/"), or narrowed to
 * some cases the other rule does not name ("with file arguments"), leaves room for the other.
 */
function actionClash(a: ActionClaimRead, b: Claim): string | null {
  // One topic is one kind of claim (`act:` topics are actions): the check only narrows b.
  if (b.kind !== 'action') return null;
  const never = a.polarity === 'never' ? a : b.polarity === 'never' ? b : null;
  const other = never === a ? b : a;
  if (!never || other.polarity === 'never' || never.excepted) return null;
  // "**Unit Tests**: should NOT use the database" and "**Feature Tests**: may use the database" are
  // about different things; so is a permission under another heading ("#### Feature Tests").
  if (a.label && b.label && a.label !== b.label && !/^(?:must|never|always|may|do|don'?t|note|important)/.test(a.label + b.label))
    return null;
  // A copy of the file elsewhere keeps its headings, so this holds across files too.
  if (other.polarity === 'may' && a.section && b.section && a.section !== b.section) return null;
  // "Never run bare `x`" leaves `x --check` alone, not "Run `x`".
  if (never.qualifier && never.qualifier !== other.qualifier && !(never.qualifier === 'bare' && other.qualifier === '')) return null;
  const what = a.objectKind === 'act' ? '' : `, same ${OBJECT_WORDS[a.objectKind]} ${a.topicTitle}`;
  return `${POLARITY_WORD[a.polarity]} ${a.verb} vs ${POLARITY_WORD[b.polarity]} ${b.verb}${what}`;
}
const OBJECT_WORDS: Record<Exclude<ActionClaimRead['objectKind'], 'act'>, string> = {
  file: 'file',
  branch: 'branch',
  command: 'command',
  identifier: 'name',
  words: 'object',
};

/** Two lines that give one role different commands, one of them insisting ("MUST", "NOT `x`"). */
function roleClash(a: RoleClaimRead, b: Claim): string | null {
  // One topic is one kind of claim (`role:` topics are roles): the check only narrows b.
  if (b.kind !== 'role') return null;
  if (!a.strict && !b.strict) return null;
  if (a.commands.some((x) => b.commands.some((y) => sameCommand(x, y)))) return null;
  return `\`${a.commands[0]}\` vs \`${b.commands[0]}\``;
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
  for (const ofTopic of byTopic.values()) {
    if (ofTopic.length < 2) continue;
    const list = ofTopic[0]!.kind === 'version' ? leaveCatalogues(ofTopic) : ofTopic;
    const own = ofTopic[0]!.kind === 'version' ? setupsOfOneFile(list) : null;
    const pairs = clashingPairs(list, ofTopic[0]!.kind === 'option' ? jobsGiven(list) : NO_JOBS).filter(([a, b]) => !own?.(a, b));
    if (pairs.length === 0) continue;
    // Lines are what a person keeps or drops: one claim stands for each line.
    const lines: Claim[] = [];
    // A line with several claims ("Use pnpm, not npm") is represented by the one it states first.
    const order = new Map(list.map((c, i) => [c, i]));
    const involved = [...new Set(pairs.flatMap(([a, b]) => [a, b]))].sort((a, b) => byPlace(a, b) || order.get(a)! - order.get(b)!);
    for (const c of involved) if (lines.length === 0 || lineKey(lines[lines.length - 1]!) !== lineKey(c)) lines.push(c);
    const index = new Map(lines.map((c, i) => [lineKey(c), i]));
    const group = lines.map((_, i) => i);
    const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i]!)));
    for (const [a, b] of pairs) group[find(index.get(lineKey(a))!)] = find(index.get(lineKey(b))!);
    const components = new Map<number, number[]>();
    lines.forEach((_, i) => pushTo(components, find(i), i));
    // The reason of a conflict: that of the first pair naming one of its lines (one pass over the pairs).
    const lineOf = new Map(lines.map((c, i) => [c, i]));
    const reasonOf = new Map<number, string>();
    for (const [x, y, why] of pairs) {
      for (const c of [x, y]) {
        const m = lineOf.get(c);
        if (m !== undefined && !reasonOf.has(find(m))) reasonOf.set(find(m), why);
      }
    }
    const ruled = new Set(involved.filter(makesClaim).map(lineKey));
    for (const all of components.values()) {
      const members = rulesOnly(all, lines, pairs, ruled);
      const sideOf = new Map<string, number>();
      const side = (m: number) => {
        const key = `${lines[m]!.positive}:${lines[m]!.value}`;
        if (!sideOf.has(key)) sideOf.set(key, sideOf.size);
        return sideOf.get(key)!;
      };
      const sides = members.map(side);
      const kept = new Set(members);
      const mentions = all.filter((m) => !kept.has(m)).map((m) => ({ claim: lines[m]!, side: side(m) }));
      const claims = members.map((m) => lines[m]!);
      const first = list[0]!;
      const reason = reasonOf.get(find(members[0]!)) ?? '';
      const kind = conflictKind(first, claims);
      const summary = first.kind === 'action' || first.kind === 'role' ? quotedSummary(reason, claims, sides) : sideSummary(claims, sides);
      conflicts.push({ topicTitle: first.topicTitle, kind, claims, sides, mentions, summary });
    }
  }
  return conflicts;
}

const NO_JOBS: ReadonlySet<string> = new Set();
const valuePair = (a: string, b: string) => (a < b ? `${a}\0${b}` : `${b}\0${a}`);

/** An option named with what it is for: "`pnpm` as the package manager", "`bun` to run scripts", "x for the docs". */
/** A choice that claims the whole field ("pnpm for all package management", "only pnpm"): another tool's job contradicts it. */
const EXCLUSIVE = /\b(?:all|every|any|only|always|must|never|exclusively)\b/i;
const JOB_AFTER = new Map<string, RegExp>();
const givesJob = (c: Claim): boolean => {
  let re = JOB_AFTER.get(c.value);
  if (!re) JOB_AFTER.set(c.value, (re = new RegExp(`\\b${c.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`?\\s+(?:as|to|for)\\s`, 'i')));
  return re.test(c.text);
};

/**
 * The pairs of options one section of one file chooses both of, on lines that say what each is for
 * ("Use pnpm as the package manager", "Use bun to run npm scripts"): the file gives each its job, and
 * the two do not contradict anywhere in the repository ("Use pnpm." and "Use yarn." give none, and
 * do). Only rules count, not a step or a command that uses one.
 */
function jobsGiven(list: Claim[]): ReadonlySet<string> {
  if (list.every((c) => c.value === list[0]!.value)) return NO_JOBS;
  const chosen = new Map<string, Set<string>>(); // file and section -> the values chosen there
  const jobLines = new Set(list.filter((c) => c.positive && givesJob(c) && !EXCLUSIVE.test(c.text)).map(lineKey));
  if (jobLines.size < 2) return NO_JOBS;
  let out: Set<string> | null = null;
  for (const c of list) {
    if (!c.positive || !makesClaim(c) || !jobLines.has(lineKey(c))) continue;
    const key = `${c.path}\0${c.section}`;
    const values = chosen.get(key) ?? new Set<string>();
    chosen.set(key, values);
    for (const v of values) if (v !== c.value) (out ??= new Set()).add(valuePair(v, c.value));
    values.add(c.value);
  }
  return out ?? NO_JOBS;
}

/**
 * Two setup steps pinning versions one file pins both of ("uv venv --python 3.11" where it sets up a
 * contributor's environment, "3.12" in its quickstart): that file's own contexts, not a conflict, nor
 * with another file that repeats one of them.
 */
function setupsOfOneFile(list: Claim[]): (a: Claim, b: Claim) => boolean {
  const pinned = new Map<string, Set<string>>();
  for (const c of list) if (isWeak(c)) (pinned.get(c.path) ?? pinned.set(c.path, new Set()).get(c.path)!).add(c.value);
  return (a, b) => isWeak(a) && isWeak(b) && [...pinned.values()].some((v) => v.has(a.value) && v.has(b.value));
}

/** Distinct versions of one name in one section of one file from which on they are a catalogue. */
const CATALOGUE_VERSIONS = 3;

/**
 * The version claims of one name, without the catalogues: one section of one file that names three
 * versions of it or more ("Claude 4.5 family", "3.7 family", "3.5 family") lists what exists or is
 * supported, and chooses none of them.
 */
function leaveCatalogues(list: Claim[]): Claim[] {
  const values = new Map<string, Set<string>>();
  for (const c of list) {
    const key = `${c.path}\0${c.section}`;
    const seen = values.get(key);
    if (seen) seen.add(c.value);
    else values.set(key, new Set([c.value]));
  }
  if (values.size === list.length) return list;
  return list.filter((c) => values.get(`${c.path}\0${c.section}`)!.size < CATALOGUE_VERSIONS);
}

/**
 * The lines of one conflict that make its claim. A line that only uses a tool (a step that runs
 * `pnpm test`, an example command) is a side only when the conflict needs it: when rules clash
 * without it, it merely mentions the tool, and a choice must not drop it. `ruled`: the lines with a
 * claim that is neither weak nor a mention (claims.ts).
 */
const makesClaim = (c: Claim): boolean => !isWeak(c) && !(c.kind === 'option' && c.mention);

function rulesOnly(members: number[], lines: Claim[], pairs: [Claim, Claim, string][], ruled: Set<string>): number[] {
  const rules = members.filter((m) => ruled.has(lineKey(lines[m]!)));
  if (rules.length === members.length) return members;
  const keys = new Set(rules.map((m) => lineKey(lines[m]!)));
  const clash = pairs.some(([a, b]) => makesClaim(a) && makesClaim(b) && keys.has(lineKey(a)) && keys.has(lineKey(b)));
  return clash ? rules : members;
}

/**
 * What decides whether an option or version claim clashes with another, besides the rule it is in:
 * claims with one signature clash with the same claims. Actions and roles depend on more (their
 * section, label, qualifier), and each is its own group; their topics are one object each, and small.
 */
function signature(c: Claim, i: number): string {
  if (c.kind !== 'option' && c.kind !== 'version') return `#${i}`;
  const scope = c.scope.kind === 'globs' ? c.scope.globs.join('\0') : c.scope.kind;
  return `${c.positive}|${c.value}|${c.weak ? 1 : 0}|${scope}|${[...c.langs].sort().join(',')}`;
}

/**
 * The clashing pairs of one topic, through an index: claims are grouped by signature, one pair of
 * groups is judged once, and each claim of a clashing pair of groups is linked to one claim of the
 * other group from another rule. The links join the same lines into the same conflicts as every
 * pair would, without comparing every pair of rules (a repository that says "use pnpm" 500 times).
 */
function clashingPairs(list: Claim[], jobs: ReadonlySet<string>): [Claim, Claim, string][] {
  const groups = [
    ...groupBy(
      list.map((c, i) => ({ c, key: signature(c, i) })),
      (x) => x.key,
    ).values(),
  ].map((g) => g.map((x) => x.c));
  const pairs: [Claim, Claim, string][] = [];
  const partner = (x: Claim, g: Claim[]) => g.find((y) => !sameRule(x, y));
  // Groups of one class never clash (see clashClass); a run of them is stepped over at once, so 2,000
  // files saying "Run the linter" are not 2 million comparisons. The pairs left keep their order.
  const oneKind = groups.every((g) => g[0]!.kind === groups[0]![0]!.kind);
  const cls = groups.map((g, i) => (oneKind ? clashClass(g[0]!, i) : `#${i}`));
  const runEnd: number[] = [];
  for (let j = groups.length - 1; j >= 0; j--) runEnd[j] = j + 1 < groups.length && cls[j + 1] === cls[j] ? runEnd[j + 1]! : j + 1;
  for (let i = 0; i < groups.length; i++) {
    if (cls[i] === NO_CLASH) continue;
    for (let j = i + 1; j < groups.length; j++) {
      if (cls[j] === cls[i] || cls[j] === NO_CLASH) {
        j = runEnd[j]! - 1;
        continue;
      }
      const ga = groups[i]!;
      const gb = groups[j]!;
      if (jobs.size > 0 && jobs.has(valuePair(ga[0]!.value, gb[0]!.value))) continue;
      const reason = clashApart(ga[0]!, gb[0]!);
      if (!reason) continue;
      for (const a of ga) {
        const b = partner(a, gb);
        if (b) pairs.push([a, b, reason]);
      }
      for (const b of gb) {
        const a = partner(b, ga);
        if (a) pairs.push([a, b, reason]);
      }
    }
  }
  return pairs;
}

/** A claim that clashes with no other claim of its topic. */
const NO_CLASH = '\0none';

/**
 * Claims of one kind in one class never clash, whatever their scopes (clashApart answers null for
 * them before or after the scope check): two actions that both forbid, or both do not; a forbidding
 * action with an exception clashes with nothing; two roles neither of which insists; two other claims
 * that both require, or both rule out, the same value.
 */
function clashClass(c: Claim, i: number): string {
  if (c.kind === 'action') return c.polarity !== 'never' ? 'other' : c.excepted ? NO_CLASH : 'never';
  if (c.kind === 'role') return c.strict ? `#${i}` : 'lenient';
  return `${c.positive}|${c.value}`;
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

function conflictKind(first: Claim, claims: Claim[]): ProblemKind<'contradiction'> {
  if (first.kind === 'action') return claims.some(isWeak) ? 'command-use' : 'action';
  if (first.kind === 'role') return 'command';
  if (first.kind === 'modal') return 'always-never';
  if (first.kind === 'fact') return 'fact';
  if (claims.some(isWeak)) return 'setup-step';
  return first.kind === 'version' ? 'version' : 'tool-choice';
}

/** The reason, then each side quoted with its place: `always update vs never edit, same file X: "..." (a.md:1) vs "..." (b.md:2)`. */
function quotedSummary(reason: string, claims: Claim[], sides: number[]): string {
  const groups: Claim[][] = [];
  claims.forEach((c, i) => (groups[sides[i]!] ??= []).push(c));
  return `${reason}: ${groups.map((g) => `"${quote(g[0]!.text)}" (${g.map(lineKey).join(', ')})`).join(' vs ')}`;
}

function quote(line: string): string {
  const t = line
    .trim()
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .replace(/"/g, "'");
  return t.length > 100 ? `${t.slice(0, 97)}...` : t;
}

const lineKey = (c: Claim): string => `${c.path}:${c.line}`;
const byPlace = (a: Claim, b: Claim): number => byCodeUnit(a.path, b.path) || a.line - b.line;
