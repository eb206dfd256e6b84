import path from 'node:path';
import type { InstructionDoc, Unit } from '../model/model.js';
import type { RepoPaths } from '../repo/repo-path.js';
import { readSource, type ReadableSource } from '../repo/source-file.js';
import { claudeMd } from './formats/agent-md.js';
import { gitIgnores, inSkippedDir } from './discover.js';

/**
 * `@path` imports. Claude Code (CLAUDE.md and its rules) and Gemini CLI (GEMINI.md) read an `@path`
 * line as "put that file's text here". Codex and Copilot do not: in AGENTS.md or a Copilot file an
 * `@name` is text. Only a line that holds nothing but one import (a bullet of one import counts) is
 * an import here: `@path` inside a sentence or a code block is left as it is written.
 */
export const IMPORTING_KINDS = new Set(['claude-md', 'gemini-md', 'claude-rules', 'imported']);

/** The kind of a file that is not an instruction file by itself, read because an instruction file imports it. */
export const IMPORTED_KIND = 'imported';

/** How deep imports are followed (Claude Code stops at five hops). */
export const MAX_IMPORT_DEPTH = 5;

const IMPORT_LINE = /^\s*(?:[-*+]\s+)?@([^\s`@]+)\s*$/;
/** Text files worth placing among instructions; `@package.json` is a reference, not rules. */
const TEXT_FILE = /\.(md|mdc|markdown|txt)$/i;

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
function resolve(from: string, raw: string, known: Set<string>): string | null {
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
}

/**
 * Follow the imports of every importing document. Import lines are taken out of their document's
 * units (they are not rules); a followed file becomes a document of kind `imported` with the scope of
 * the file that first imports it, so its rules land where that file's rules land, once.
 */
export async function followImports(paths: RepoPaths, docs: InstructionDoc[]): Promise<ImportResult> {
  const known = new Set(docs.map((d) => d.path));
  const out: ImportResult = { refs: [], docs: [], files: [] };
  const placed = new Set<string>();
  const visit = async (doc: InstructionDoc, depth: number, chain: string[]) => {
    const units = importUnits(doc);
    if (units.length === 0) return;
    doc.units = doc.units.filter((u) => !units.includes(u));
    for (const u of units) {
      for (const [i, l] of u.lines.entries()) {
        const raw = importOnLine(l);
        if (raw === null) continue;
        const target = resolve(doc.path, raw, known);
        const ref: ImportRef = { from: doc.path, line: u.line + i, raw, target, status: 'outside' };
        out.refs.push(ref);
        if (target === null) continue;
        if (known.has(target)) {
          ref.status = 'source';
          continue;
        }
        if (chain.includes(target) || depth >= MAX_IMPORT_DEPTH) {
          ref.status = 'cycle';
          continue;
        }
        if (placed.has(target)) {
          ref.status = 'placed';
          continue;
        }
        if (!TEXT_FILE.test(target)) {
          ref.status = 'not_text';
          continue;
        }
        if (
          inSkippedDir(target) ||
          target.split('/').some((seg) => seg === '.git' || seg === '.copilot-state') ||
          (await gitIgnores(paths.root, target))
        ) {
          ref.status = 'ignored';
          continue;
        }
        let read;
        try {
          read = await readSource(paths, target);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
            ref.status = 'missing';
            continue;
          }
          throw err;
        }
        if (read.status === 'skipped') {
          ref.status = read.reason === 'symlink_outside' ? 'outside' : 'not_text';
          continue;
        }
        ref.status = 'followed';
        placed.add(target);
        const parsed = claudeMd.parse(read);
        const imported: InstructionDoc = {
          ...parsed,
          kind: IMPORTED_KIND,
          scope: doc.scope,
          aliasOf: null,
          importOnly: null,
          notRule: null,
          description: null,
          frontMatterKeys: [],
        };
        out.docs.push(imported);
        out.files.push(read);
        await visit(imported, depth + 1, [...chain, target]);
      }
    }
  };
  for (const doc of docs) {
    // Only the kinds that import: the others are not awaited one by one (a scan of 500 rules has none).
    if (doc.aliasOf !== null || doc.notRule !== null || !IMPORTING_KINDS.has(doc.kind)) continue;
    await visit(doc, 0, [doc.path]);
  }
  return out;
}

/** What the plan says about one import. */
export function importNote(ref: ImportRef): string | null {
  const at = `${ref.from}:${ref.line} imports @${ref.raw}`;
  switch (ref.status) {
    case 'source':
      return `${at}, an instruction file of its own: its rules are placed once, where ${ref.target} goes, and the import line is not copied.`;
    case 'followed':
      return `${at}: its text is placed once, where the rules of ${ref.from} go, instead of the import line.`;
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
