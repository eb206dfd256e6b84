import { normalizedTexts, type NormalizedOf } from './repeats/normalized.js';
import type { InstructionDoc, Scope, Unit } from '../model/model.js';
import { contentDocs, type ScanResult } from './discovery/scan.js';
import type { Analysis } from '../model/analysis.js';
import { findNearDuplicates } from './repeats/near-duplicates.js';
import { collapseCopies, findReworded } from './repeats/duplicates.js';
import { groupRepeats } from './repeats/repeat-groups.js';
import { findDuplicates } from './repeats/exact.js';
import { certaintyOf, type TypedKind } from '../model/findings.js';
import type { Found, Problem } from '../model/problem.js';
import { headLength, isToolMark } from '../model/unit-shape.js';
import type { SkippedSource } from '../repo/source-file.js';
import { importCapProblem } from './discovery/imports.js';
import { findHiddenCharacters } from './discovery/hidden-characters.js';
import { findMissingPaths } from './discovery/missing-paths.js';
import { findContradictions } from './contradictions/find-contradictions.js';
import { findDrift } from './drift/drift.js';
import { filesThatMayMeet } from './scope/scope-overlap.js';
import { leaveToolOwned } from './contradictions/tool-owned.js';
import { describePattern, patternFacts } from './pattern.js';
import type { Copy } from './repeats/copies.js';
import { secondLookProblems } from './contradictions/second-look/problems.js';

export type { Analysis, Pattern } from '../model/analysis.js';
export type { Location, Problem } from '../model/problem.js';
export { findDuplicates } from './repeats/exact.js';
export { findContradictions } from './contradictions/find-contradictions.js';
export { findHiddenCharacters } from './discovery/hidden-characters.js';

/** Non-blank lines allowed before the first `## ` section in a structured file (besides the title). */
const MAX_PREAMBLE_LINES = 6;

/** What every finder is given: the scan, and its documents and units read once for all of them. */
export interface FinderInput {
  scan: ScanResult;
  /** The documents whose rules count (contentDocs), and their units (tool marks aside). */
  docs: InstructionDoc[];
  units: Unit[];
  /** Files left out as copies of another: repeats and drift are still looked for in them. */
  copies: Copy[];
  /** The documents and units repeats and drift read: `docs` and `units`, with the copies'. */
  repeatDocs: InstructionDoc[];
  repeatUnits: Unit[];
  scopeOf: (u: Unit) => Scope;
  normalizedOf: NormalizedOf;
  /** The files whose scope may meet another file's (more, never fewer): a file outside it pairs with no other file. */
  meeting: ReadonlySet<string>;
}

/** A finder: its name, the kinds of problem it reports (each a row of model/findings.ts), and the function. */
export interface Finder {
  name: string;
  kinds: readonly TypedKind[];
  /** `earlier`: what the finders before it found (pairs worth a second look leave out pairs already reported). */
  find: (input: FinderInput, earlier: readonly Found[]) => Found[];
  /** Run only when asked for (`analyze(scan, FINDERS)`): measured, not yet shown (docs/analysis.md says why). */
  optIn?: true;
}

/**
 * Every finder, in the order their problems are listed. A new kind of problem is a row of
 * model/findings.ts and a finder here (or a kind added to one); tests/analysis/analyze.test.ts holds
 * that every kind has exactly one finder.
 */
export const FINDERS: readonly Finder[] = [
  {
    name: 'repeats',
    kinds: [
      'duplication/exact',
      'duplication/heading',
      'duplication/near',
      'duplication/reworded',
      'duplication/copied-file',
      'duplication/copied-section',
    ],
    find: findRepeats,
  },
  {
    name: 'contradictions',
    kinds: [
      'contradiction/tool-choice',
      'contradiction/version',
      'contradiction/setup-step',
      'contradiction/action',
      'contradiction/command',
      'contradiction/always-never',
      'contradiction/command-use',
      'contradiction/fact',
    ],
    find: (i) => leaveToolOwned(findContradictions(i.units, i.scopeOf), fileText(i)),
  },
  {
    name: 'drift',
    kinds: [
      'contradiction/drifted-copy',
      'contradiction/drifted-name',
      'contradiction/drifted-line',
      'contradiction/drifted-flag',
      'contradiction/style-pair',
      'contradiction/stale-path',
      'contradiction/frequency',
    ],
    find: (i) => leaveToolOwned(findDrift(i.repeatUnits, i.scopeOf, i.copies, i.meeting), fileText(i)),
  },
  { name: 'hidden-characters', kinds: ['ambiguity/hidden-character'], find: (i) => i.docs.flatMap((d) => findHiddenCharacters(d.units)) },
  { name: 'imports-not-followed', kinds: ['ambiguity/imports-not-followed'], find: (i) => i.scan.importCaps.map(importCapProblem) },
  {
    name: 'missing-paths',
    kinds: ['ambiguity/missing-path'],
    find: (i) => findMissingPaths(i.docs, i.scan.listing, new Set(i.scan.sources.map((s) => s.path))),
  },
  // Last: pairs worth a second look by subject (issue 39), ranked, never on a pair of lines already
  // reported; a person is shown the first few (model/second-looks-shown.ts), --json lists them all.
  // On by default since two held-out sets nobody had read while building it showed it finds what the
  // other finders miss (set d 2 of 20 conflicts, set e 6 of 15 with the reports; docs/analysis.md).
  {
    name: 'subject',
    kinds: ['contradiction/subject', 'contradiction/alike'],
    find: (i, earlier) => {
      const read = withCopies(i);
      // Two lines inside blocks a tool writes are no question either: the plan keeps those blocks as they stand.
      return leaveToolOwned(secondLookProblems(read.units, read.scopeOf, earlier, i.scan.copies, i.meeting), fileText(i));
    },
  },
];

/** The text of a scanned file by its path (a managed block's lines are read from it). */
const fileText =
  (i: FinderInput) =>
  (path: string): string | undefined =>
    i.scan.files.get(path)?.text;

/** The finders analysis runs unless told otherwise: all but the opt-in ones. */
export const DEFAULT_FINDERS: readonly Finder[] = FINDERS.filter((f) => !f.optIn);

export function analyze(scan: ScanResult, finders: readonly Finder[] = DEFAULT_FINDERS): Analysis {
  const input = finderInput(scan);
  const found: Found[] = [];
  for (const f of finders) found.push(...f.find(input, found));
  dedupeByLocations(found);
  const problems = found.map((p) => ({ ...p, certainty: certaintyOf(p) }) as Problem);
  const structured = Object.fromEntries(input.docs.map((d) => [d.path, isStructured(d)]));
  const facts = patternFacts(scan, input.docs, problems, structured);
  return {
    pattern: facts.pattern,
    patternDetail: describePattern(facts),
    sources: scan.sources,
    problems,
    skipped: scan.skipped.map((s: SkippedSource) => ({ path: s.path, reason: s.reason, detail: s.detail })),
    structured,
  };
}

export function finderInput(scan: ScanResult): FinderInput {
  const docs = contentDocs(scan);
  const units = docs.flatMap((d) => d.units).filter((u) => !isToolMark(u));
  const scopes = new Map(docs.map((d) => [d.path, d.scope]));
  // A file left out of the migration as a copy of another is still a copy a reader should hear about:
  // repeats are looked for with it, and collapse to one report per copied file.
  const copies = scan.copies.filter((c) => c.relation === 'copy');
  const copyPaths = new Set(copies.map((c) => c.path));
  const copyDocs = scan.docs.filter((d) => copyPaths.has(d.path));
  for (const d of copyDocs) scopes.set(d.path, d.scope);
  const repeatDocs = copyDocs.length === 0 ? docs : [...docs, ...copyDocs];
  // Without copies, the units searched for repeats are the units: not a second list of thousands.
  const repeatUnits = copyDocs.length === 0 ? units : repeatDocs.flatMap((d) => d.units).filter((u) => !isToolMark(u));
  const scopeOf = (u: Unit): Scope => scopes.get(u.path) ?? { kind: 'repo' };
  // Read once for drift and second looks, over every file scanned (the units of either are among them).
  const meeting = filesThatMayMeet(scan.docs);
  return { scan, docs, units, copies, repeatDocs, repeatUnits, scopeOf, normalizedOf: normalizedTexts(), meeting };
}

/**
 * The units with those of every file left out as a copy, a twin or a synced source of another: where
 * two copies of one file differ, one of them drifted, and the person keeping one should hear which line.
 */
export function withCopies(i: FinderInput): { units: Unit[]; scopeOf: (u: Unit) => Scope } {
  if (i.scan.copies.length === 0) return i;
  const paths = new Set(i.scan.copies.map((c) => c.path));
  const docs = i.scan.docs.filter((d) => paths.has(d.path) && d.aliasOf === null);
  const scopes = new Map(docs.map((d) => [d.path, d.scope]));
  const units = [...i.units, ...docs.flatMap((d) => d.units).filter((u) => !isToolMark(u))];
  return { units, scopeOf: (u) => scopes.get(u.path) ?? i.scopeOf(u) };
}

/** Exact, near and reworded repeats; the ones a copied file or section stands for collapse into it, and one rule said alike in many places is one report. */
function findRepeats(i: FinderInput): Found[] {
  const repeats = [
    ...findDuplicates(i.repeatUnits, i.scopeOf, i.normalizedOf),
    ...findNearDuplicates(i.repeatUnits, i.scopeOf, i.normalizedOf, i.meeting),
    ...findReworded(i.repeatUnits, i.scopeOf, i.normalizedOf),
  ];
  dedupeByLocations(repeats);
  return groupRepeats(collapseCopies(repeats, i.repeatDocs, i.normalizedOf));
}

/** Two findings about exactly the same lines say one thing: keep the first. */
function dedupeByLocations(problems: Found[]): void {
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
