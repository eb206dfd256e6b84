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
}

export type Scope = { kind: 'repo' } | { kind: 'globs'; globs: string[] } | { kind: 'folder'; folder: string };

export interface InstructionDoc {
  path: string;
  /** Format id from the registry. */
  kind: string;
  scope: Scope;
  units: Unit[];
}

export const unitText = (u: Unit): string => u.lines.join('\n');

/** Text used to compare units: trimmed lines, collapsed inner whitespace. */
export function normalizedText(u: Unit): string {
  return u.lines.map(normalizeLine).filter((l) => l !== '').join('\n');
}

export function normalizeLine(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}
