import type { Format } from './types.js';
import { FORMATS_FACTS, type FormatId } from '../../model/formats.js';
import { globList, needsYaml, readFrontMatter, type FrontMatter } from '../../model/frontmatter.js';
import { splitBody, splitUnits } from '../../model/markdown-units.js';
import type { GlobRewrite, InstructionDoc, Scope, Unit } from '../../model/model.js';
import { splitText } from '../../common/text.js';
import { escapedFolder, folderGlob, unwritableFolderWhy } from '../../model/folder-glob.js';

/** What a format module says about one of its files, beyond the Markdown body. */
export interface FileMeta {
  scope: Scope;
  description?: string | null;
  excludeAgent?: string[];
  notRule?: string | null;
  /** Globs written differently in `applyTo` than in the file (a glob without a slash), as written and as planned. */
  globRewrites?: GlobRewrite[];
}

/** A format's code; its facts (title, role, whether it has front matter) are its row in the registry. */
export interface MarkdownFormatSpec {
  id: FormatId;
  detect(relPath: string): boolean;
  /** Scope and metadata from the path and front matter (null when the file has none). */
  meta(relPath: string, fm: FrontMatter | null): FileMeta;
}

/** Build a format whose files are Markdown, optionally with front matter. */
export function markdownFormat(spec: MarkdownFormatSpec): Format {
  const facts = FORMATS_FACTS[spec.id];
  const frontMatter = facts.frontMatter !== null;
  return {
    id: spec.id,
    title: facts.title,
    detect: spec.detect,
    needsYaml: (lines) => frontMatter && needsYaml(lines),
    parse(file, { lines = splitText(file.text).lines, yaml } = {}): InstructionDoc {
      const fm = frontMatter ? readFrontMatter(lines, yaml) : null;
      // Front matter read into the fields is no unit of the body.
      const units = fm ? splitBody(file.path, lines, fm.lineCount) : splitUnits(file.path, lines);
      const meta = spec.meta(file.path, fm);
      return {
        path: file.path,
        kind: spec.id,
        scope: meta.scope,
        units,
        role: facts.role,
        description: meta.description ?? null,
        frontMatterKeys: fm ? Object.keys(fm.data) : [],
        excludeAgent: meta.excludeAgent ?? [],
        aliasOf: file.linkTarget,
        importOnly: importOnlyTarget(units),
        notRule: meta.notRule ?? null,
        ...(meta.globRewrites?.length ? { globRewrites: meta.globRewrites } : {}),
      };
    },
  };
}

/** The folder a file sits in, '' for the repository root. */
export function folderOf(relPath: string): string {
  const i = relPath.lastIndexOf('/');
  return i < 0 ? '' : relPath.slice(0, i);
}

export const basename = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);

/** The folder that holds a tool's dot-folder (`.cursor`, `.windsurf`, `.clinerules`): its rules apply below it. */
export function ownerOf(relPath: string, dotDir: string): string {
  const i = relPath.indexOf(`${dotDir}/`);
  return i <= 0 ? '' : relPath.slice(0, i - 1);
}

/**
 * Rules of a file in `folder` apply below it: the root is repository-wide. The folder is escaped in
 * the glob (model/folder-glob.ts); one that cannot be written so keeps its plain glob for analysis,
 * and `notRule` leaves the file out of the migration with the reason.
 */
export function folderScope(folder: string): { scope: Scope; notRule?: string } {
  if (folder === '') return { scope: { kind: 'repo' } };
  const glob = folderGlob(folder);
  return glob === null
    ? { scope: { kind: 'globs', globs: [`${folder}/**`] }, notRule: unwritableFolderWhy(folder) }
    : { scope: { kind: 'globs', globs: [glob] } };
}

/**
 * A rule file's globs as Copilot's `applyTo`, and the ones written differently. Cursor, Windsurf,
 * Claude Code and Cline match a glob without a slash (`*.tsx`, `package.json`) at any depth, as
 * .gitignore does; GitHub matches `applyTo` against the whole repository-relative path, where `*.tsx`
 * matches only at the root. So such a glob becomes `**\/<glob>`, and every glob of a nested folder's
 * rules is put below that folder.
 */
export function globScope(folder: string, globs: string[]): { scope: Scope; globRewrites: GlobRewrite[]; notRule?: string } {
  const globRewrites: GlobRewrite[] = [];
  // The folder is literal: escaped (model/folder-glob.ts); the globs after it are the file's own.
  const escaped = folder === '' ? '' : escapedFolder(folder);
  const planned = globs.map((g) => {
    const bare = g.replace(/^\.?\//, '');
    const anyDepth = !g.includes('/') && g !== '**';
    const relative = anyDepth ? `**/${bare}` : bare;
    const to = folder === '' ? (anyDepth ? relative : g) : `${escaped ?? folder}/${relative}`;
    if (anyDepth) globRewrites.push({ from: g, to });
    return to;
  });
  return { scope: { kind: 'globs', globs: planned }, globRewrites, ...(escaped === null ? { notRule: unwritableFolderWhy(folder) } : {}) };
}

export function stringField(fm: FrontMatter | null, key: string): string | null {
  const v = fm?.data[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

export function truthy(fm: FrontMatter | null, key: string): boolean {
  const v = fm?.data[key];
  return v === true || v === 'true';
}

export { globList };
export type { GlobRewrite };

const IMPORT_ONLY = /^@(\S+)$/;

/** A file whose every non-blank line is an `@path` import only points at that file (CLAUDE.md, GEMINI.md). */
function importOnlyTarget(units: Unit[]): string | null {
  let only: string | null = null;
  for (let u = 0; u < units.length; u++) {
    const lines = units[u]!.lines;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === '') continue;
      if (only !== null) return null;
      only = line;
    }
  }
  const m = only === null ? null : IMPORT_ONLY.exec(only.trim());
  return m ? m[1]! : null;
}
