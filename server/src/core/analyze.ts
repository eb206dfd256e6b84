import { extractClaims, findConflicts } from './claims.js';
import { normalizedText, normalizeLine, type InstructionDoc, type Scope, type Unit } from './model.js';
import { contentDocs, type ScanResult, type SourceInfo } from './scan.js';
import { findNearDuplicates } from './near-duplicates.js';
import { headLength } from './structure.js';
import { groupBy } from './collections.js';
import type { SkippedSource } from './source-file.js';

export type Pattern = 'clean' | 'structured' | 'unstructured' | 'messy';

export interface Location {
  path: string;
  line: number;
}

export interface Problem {
  type: 'duplication' | 'contradiction' | 'ambiguity';
  description: string;
  locations: Location[];
}

export interface Analysis {
  pattern: Pattern;
  sources: SourceInfo[];
  problems: Problem[];
  skipped: { path: string; reason: string; detail: string }[];
  /** Per readable document: whether it is already organised in `## ` sections. */
  structured: Record<string, boolean>;
}

/** Lines shorter than this are too generic to call a repetition ("---", "Notes:"). */
const MIN_REPEATED_LINE = 12;
/** Non-blank lines allowed before the first `## ` section in a structured file (besides the title). */
const MAX_PREAMBLE_LINES = 6;

export function analyze(scan: ScanResult): Analysis {
  const docs = contentDocs(scan);
  const units = docs.flatMap((d) => d.units).filter((u) => !isToolMark(u));
  const scopes = new Map(docs.map((d) => [d.path, d.scope]));
  const problems = [
    ...findDuplicates(units),
    ...findNearDuplicates(units),
    ...findContradictions(units, (u) => scopes.get(u.path) ?? { kind: 'repo' }),
  ];
  const structured = Object.fromEntries(docs.map((d) => [d.path, d.kind !== 'copilot-instructions' || isStructured(d)]));
  dedupeByLocations(problems);
  return {
    pattern: classify(docs, problems, structured),
    sources: scan.sources,
    problems,
    skipped: scan.skipped.map((s: SkippedSource) => ({ path: s.path, reason: s.reason, detail: s.detail })),
    structured,
  };
}

/**
 * clean: no instructions at all. messy: rules repeat or contradict. structured: everything is
 * already in Copilot's layout and organised. unstructured: there is organising or migrating to do.
 */
function classify(docs: InstructionDoc[], problems: Problem[], structured: Record<string, boolean>): Pattern {
  const withContent = docs.filter((d) => d.units.some((u) => u.kind !== 'frontmatter'));
  if (withContent.length === 0) return 'clean';
  if (problems.some((p) => p.type === 'contradiction' || p.type === 'duplication')) return 'messy';
  return withContent.every((d) => d.role === 'copilot' && structured[d.path]) ? 'structured' : 'unstructured';
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

/** Lines copilot-onboard itself put in a file (conflict marks) are not rules. */
export function isToolMark(u: Unit): boolean {
  return u.kind === 'html' && u.lines[0]!.startsWith('<!-- copilot-onboard:');
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

export function findDuplicates(units: Unit[]): Problem[] {
  const problems: Problem[] = [];
  const coveredLines = new Set<string>();

  const headings = groupBy(units.filter((u) => u.kind === 'heading'), (u) => normalizeLine(u.lines[0]!.replace(/^\s*#+\s*/, '')).toLowerCase());
  for (const [text, group] of headings) {
    if (group.length < 2 || text === '') continue;
    problems.push({ type: 'duplication', description: `Repeated heading "${text}"`, locations: group.map(loc) });
  }

  const blocks = groupBy(units.filter((u) => u.kind !== 'heading' && u.kind !== 'frontmatter'), normalizedText);
  for (const [text, group] of blocks) {
    if (group.length < 2 || text.length < MIN_REPEATED_LINE) continue;
    const what = group[0]!.lines.length > 1 ? 'paragraph' : group[0]!.kind === 'list-item' ? 'rule' : 'line';
    problems.push({ type: 'duplication', description: `Repeated ${what}: "${excerpt(text)}"`, locations: group.map(loc) });
    for (const u of group) u.lines.forEach((_, i) => coveredLines.add(`${u.path}:${u.line + i}`));
  }

  const lines: { text: string; at: Location }[] = [];
  for (const u of units) {
    if (u.kind === 'code' || u.kind === 'heading' || u.kind === 'frontmatter') continue;
    u.lines.forEach((l, i) => {
      const at = { path: u.path, line: u.line + i };
      if (!coveredLines.has(`${at.path}:${at.line}`)) lines.push({ text: stripMarker(normalizeLine(l)), at });
    });
  }
  for (const [text, group] of groupBy(lines, (l) => l.text)) {
    if (group.length < 2 || text.length < MIN_REPEATED_LINE) continue;
    problems.push({ type: 'duplication', description: `Repeated line: "${excerpt(text)}"`, locations: group.map((g) => g.at) });
  }
  return problems;
}

export function findContradictions(units: Unit[], scopeOf?: (u: Unit) => Scope): Problem[] {
  return findConflicts(extractClaims(units, scopeOf)).map((c) => ({
    type: 'contradiction' as const,
    description: `Contradicting rules about ${c.topicTitle}: ${c.summary}`,
    locations: c.claims.map((cl) => ({ path: cl.path, line: cl.line })),
  }));
}

const loc = (u: Unit): Location => ({ path: u.path, line: u.line });
const stripMarker = (l: string): string => l.replace(/^([-*+]|\d+[.)])\s+/, '');
const excerpt = (t: string): string => {
  const one = t.replace(/\n/g, ' ');
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
};
