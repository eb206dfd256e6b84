import path from 'node:path';
import { FORMAT_IDS, FORMATS_FACTS, IMPORTED_KIND, type DocKind } from '../../model/formats.js';
import type { InstructionDoc, Unit } from '../../model/model.js';
import type { Found } from '../../model/problem.js';
import type { ReadableSource } from '../../repo/source-file.js';
import { showPath } from '../../show/untrusted.js';

/**
 * `@path` imports. Claude Code (CLAUDE.md and its rules) and Gemini CLI (GEMINI.md) read an `@path`
 * line as "put that file's text here". Codex and Copilot do not: in AGENTS.md or a Copilot file an
 * `@name` is text. Only a line that holds nothing but one import (a bullet of one import counts) is
 * an import here: `@path` inside a sentence or a code block is left as it is written.
 */
export const IMPORTING_KINDS: ReadonlySet<DocKind> = new Set([...FORMAT_IDS.filter((id) => FORMATS_FACTS[id].imports), IMPORTED_KIND]);

export { IMPORTED_KIND };

/** How deep imports are followed (Claude Code stops at five hops). */
export const MAX_IMPORT_DEPTH = 5;

/**
 * How many import lines of one file are followed: a real CLAUDE.md imports a handful of files (a few
 * dozen at most); thousands of import lines are a repository trying to make analysis slow.
 */
export const MAX_IMPORTS_PER_FILE = 200;
/** How many import lines are followed in all, over every importing file and the files they import. */
export const MAX_IMPORTS = 1000;

/** Import lines of one file past a cap: not followed, and not copied (they are import lines, not rules). */
export interface ImportCap {
  /** The importing file. */
  from: string;
  /** 1-based line of its first import not followed. */
  line: number;
  notFollowed: number;
  /** Which cap was reached: this file's (MAX_IMPORTS_PER_FILE) or the whole scan's (MAX_IMPORTS). */
  cap: 'file' | 'total';
}

const IMPORT_LINE = /^\s*(?:[-*+]\s+)?@([^\s`@]+)\s*$/;

export type ImportStatus =
  /** The named file is an instruction file of its own: its rules are placed once, where that file goes. */
  | 'source'
  /** A text file in the repository, read and placed where the importing file's rules go. */
  | 'followed'
  /** Already placed through another import: placed once. */
  | 'placed'
  /** Outside the repository (`~/…`, absolute, `../` past the root, a link out): never read. */
  | 'outside'
  | 'missing'
  /** Not a text file of rules (`@package.json`), or unreadable: left as a reference. */
  | 'not_text'
  /** Imports past the depth limit, or back into a file on the way: not followed again. */
  | 'cycle'
  /** A file git ignores, or in `.git`, `node_modules` and the like: personal or local, never copied into committed files. */
  | 'ignored';

export interface ImportRef {
  /** The importing file. */
  from: string;
  /** 1-based line of the import. */
  line: number;
  /** The `@path` as written, without `@`. */
  raw: string;
  /** The repository path it names, when it names one inside the repository. */
  target: string | null;
  status: ImportStatus;
}

/** An import line: `@path` alone (or as a one-import bullet); null for anything else. */
export function importOnLine(line: string): string | null {
  const m = IMPORT_LINE.exec(line);
  if (!m) return null;
  const raw = m[1]!;
  // `@Override`, `@param`: a decorator or a mention, not a path.
  return /[./~]/.test(raw) ? raw : null;
}

/** Units made of import lines only (blank lines aside). */
export function importUnits(doc: InstructionDoc): Unit[] {
  if (!IMPORTING_KINDS.has(doc.kind)) return [];
  return doc.units.filter(
    (u) => (u.kind === 'paragraph' || u.kind === 'list-item') && u.lines.every((l) => l.trim() === '' || importOnLine(l) !== null),
  );
}

/** Where an import points, relative to the importing file; null when it leaves the repository. */
export function resolveImport(from: string, raw: string, known: Set<string>): string | null {
  if (raw.startsWith('~') || raw.startsWith('/') || /^[a-z]:[\\/]/i.test(raw)) return null;
  const folder = path.posix.dirname(from);
  const own = path.posix.normalize(path.posix.join(folder, raw));
  if (own === '..' || own.startsWith('../')) return null;
  if (known.has(own)) return own;
  // Files in `.claude/` are also resolved against the folder that holds `.claude/`, then the root: people write both.
  for (const base of [folder.replace(/(^|\/)\.claude$/, '') || '.', '.']) {
    const target = path.posix.normalize(path.posix.join(base, raw));
    if (!target.startsWith('../') && known.has(target)) return target;
  }
  return own;
}

export interface ImportResult {
  refs: ImportRef[];
  /** Files read because they are imported (not instruction files by themselves), with their documents. */
  docs: InstructionDoc[];
  files: ReadableSource[];
  /** Importing files with import lines past a cap. */
  caps: ImportCap[];
}

/** What the plan says about one import. */
export function importNote(ref: ImportRef): string | null {
  const at = `${showPath(ref.from)}:${ref.line} imports @${ref.raw}`;
  switch (ref.status) {
    case 'source':
      return `${at}, an instruction file of its own: its rules are placed once, where ${showPath(ref.target ?? '')} goes, and the import line is not copied.`;
    case 'followed':
      return `${at}: its text is placed once, where the rules of ${showPath(ref.from)} go, instead of the import line.`;
    case 'placed':
      return `${at}, which another import already places: it is placed once.`;
    case 'outside':
      return `${at}, which is outside the repository: it is never read or copied (a personal or machine file stays where it is); the import line is not copied.`;
    case 'missing':
      return `${at}, which does not exist in the repository: there is nothing to place, and the import line is not copied.`;
    case 'not_text':
      return `${at}, which is not a text file of rules: it is left out, and the import line is not copied.`;
    case 'ignored':
      return `${at}, which git ignores (or which sits in a folder such as .git or node_modules): a personal or local file is never copied into files meant to be committed, and the import line is not copied.`;
    case 'cycle':
      return `${at}, which imports lead back to (or go deeper than ${MAX_IMPORT_DEPTH} files): it is placed once, not again.`;
  }
}

/** Why import lines were not followed, for a person. */
function capWords(cap: ImportCap): string {
  const n = cap.notFollowed;
  const limit =
    cap.cap === 'file'
      ? `one file's import lines are followed up to ${MAX_IMPORTS_PER_FILE}`
      : `import lines are followed up to ${MAX_IMPORTS} in all`;
  return `${showPath(cap.from)} has ${n} more import line${n === 1 ? '' : 's'} from line ${cap.line} on that ${n === 1 ? 'was' : 'were'} not followed (${limit})`;
}

/** What the plan says about import lines past a cap. */
export function importCapNote(cap: ImportCap): string {
  return `${capWords(cap)}: the text of the files they name is not placed in Copilot's files, and the import lines are not copied. Put those rules in the file itself, or in fewer imported files, and propose again.`;
}

/** Import lines past a cap, as analysis reports them: what those files hold was not read. */
export function importCapProblem(cap: ImportCap): Found {
  return {
    type: 'ambiguity',
    kind: 'imports-not-followed',
    description: `${capWords(cap)}: what they import was not read, so neither analysis nor the migration covers it`,
    locations: [{ path: cap.from, line: cap.line }],
  };
}
