import type { DocKind } from './formats.js';

/**
 * The one model in the middle: every format parses into units of instruction text with
 * provenance; analysis and planning work only on these.
 */
export type UnitKind = 'frontmatter' | 'heading' | 'list-item' | 'paragraph' | 'code' | 'html';

export interface Unit {
  kind: UnitKind;
  /** Repository path of the file the unit came from. */
  path: string;
  /** 1-based line of the unit's first line in that file. */
  line: number;
  /** The unit's lines, byte for byte (without line endings). */
  lines: string[];
  /** Heading level, for headings. */
  level?: number;
  /** Whether a blank line preceded the unit in its file. */
  blankBefore: boolean;
  /** Set on each line of a paragraph the planner took apart into one unit per rule line (planning/outline.ts). */
  split?: true;
  /** Set on a line the planner reads as a heading (a numbered step, a bold label; planning/outline.ts): the author's words, no Markdown heading. */
  pseudo?: true;
}

/**
 * Where a document's rules apply: the whole repository, files matching globs (repository-relative),
 * or only when the agent asks for them (a description and no globs), or when referenced by hand.
 */
export type Scope = { kind: 'repo' } | { kind: 'globs'; globs: string[] } | { kind: 'request'; description: string | null };

export interface InstructionDoc {
  path: string;
  /** Format id from the registry (model/formats.ts), or `imported`. */
  kind: DocKind;
  scope: Scope;
  /** Body units; front matter is read into the fields below, not kept as a unit. */
  units: Unit[];
  /** Copilot's own files are the target layout; legacy files are what gets migrated. */
  role: 'copilot' | 'legacy';
  /** The keys of the file's front matter, as written (empty without front matter). */
  frontMatterKeys?: string[];
  /** `description` from front matter, when given. */
  description: string | null;
  /** Copilot `excludeAgent` values, when given. */
  excludeAgent: string[];
  /** Set when the file only points at another instruction file (a symlink or an `@path` import). */
  aliasOf: string | null;
  /** The `@path` a file holds as its only content, as written (resolved against the repository by the scan). */
  importOnly?: string | null;
  /** Set when a file sits among rules but is not one (a README in .clinerules/, a workflow). */
  notRule: string | null;
  /** Globs of the file written differently in `applyTo` (formats/markdown-format.ts, `globScope`). */
  globRewrites?: GlobRewrite[];
}

/** A glob as the file wrote it, and as `applyTo` has it. */
export interface GlobRewrite {
  from: string;
  to: string;
}

export const unitText = (u: Unit): string => u.lines.join('\n');

/** Text used to compare units: trimmed lines, collapsed inner whitespace. */
export function normalizedText(u: Unit): string {
  if (u.lines.length === 1) return normalizeLine(u.lines[0]!);
  return u.lines
    .map(normalizeLine)
    .filter((l) => l !== '')
    .join('\n');
}

/** Whitespace that normalizing changes: at either end, two in a row, or any but a plain space. */
const UNNORMALIZED = /^\s|\s$|\s\s|[^\S ]/;

export function normalizeLine(line: string): string {
  // Most lines are already normal: a test allocates nothing, a replace a new string.
  return UNNORMALIZED.test(line) ? line.trim().replace(/\s+/g, ' ') : line;
}
