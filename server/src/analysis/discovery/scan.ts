import path from 'node:path';
import { byCodeUnit } from '../../common/collections.js';
import { splitText } from '../../common/text.js';
import type { InstructionDoc } from '../../model/model.js';
import type { SourceInfo } from '../../model/source.js';
import { instructionFilesIn, repositoryFiles } from './discover.js';
import type { ImportCap, ImportRef } from './imports.js';
import { followImports } from './import-walk.js';
import { resolvingLinks } from './link-targets.js';
import { leaveOutNoise } from './noise.js';
import { findCopies, type Copy } from '../repeats/copies.js';
import { formatRank } from '../formats/registry.js';
import { loadYaml, type YamlParse } from '../../model/frontmatter.js';
import { RepoPaths } from '../../repo/repo-path.js';
import {
  deniedSource,
  isDenied,
  SourceReader,
  unreadableName,
  type ReadableSource,
  type SkippedSource,
  type SourceRead,
} from '../../repo/source-file.js';

export type { SourceInfo } from '../../model/source.js';

export interface ScanResult {
  root: string;
  sources: SourceInfo[];
  /** Readable documents, including aliases and non-rules (check aliasOf and notRule). */
  docs: InstructionDoc[];
  /** Readable files by path, with their exact bytes. */
  files: Map<string, ReadableSource>;
  skipped: SkippedSource[];
  /** Every `@path` import line of CLAUDE.md, GEMINI.md and the files they import, and what became of it. */
  imports: ImportRef[];
  /** Importing files whose import lines went past a cap (analysis/discovery/imports.ts): those were not followed. */
  importCaps: ImportCap[];
  /** Files left out as copies of another instruction file (their `notRule` says so too). */
  copies: Copy[];
  /**
   * Files left out by default that the person may still migrate (vendored skills, Cursor meta-rules,
   * copies): their `notRule` says why. A README or a workflow in `.clinerules/` is not among them.
   */
  optional: string[];
  /** Every file of the repository (git's listing, or a walk): what a rule's paths are looked up in. */
  listing: readonly string[];
  /** The repository paths the sources' relative links lead to that are there (analysis/discovery/link-targets.ts). */
  linkTargets?: ReadonlySet<string>;
}

/** Documents whose rules count: not an alias of another source, and a rule at all. */
export function contentDocs(scan: ScanResult): InstructionDoc[] {
  return scan.docs.filter((d) => d.aliasOf === null && d.notRule === null);
}

/** Whether a repository path is there: a link target found by the scan, or a file of its listing (read into a set when first asked). */
export function fileThere(scan: Pick<ScanResult, 'linkTargets' | 'listing'>): (repoPath: string) => boolean {
  let listed: Set<string> | null = null;
  return (p) => (scan.linkTargets?.has(p) ?? false) || (listed ??= new Set(scan.listing)).has(p);
}

/** Find the instruction files of a repository and parse the readable ones. */
/** Called as files are read: how many of how many. */
export type ScanProgress = (done: number, total: number) => void;

/** Files read between two turns of the event loop (and two progress reports). */
const READ_BATCH = 25;

/** `listed`: git's listing of `root`, when the caller started it before the scan (the CLI's analyze does). */
export async function scanRepository(root: string, onProgress?: ScanProgress, listed?: Promise<string[] | null>): Promise<ScanResult> {
  const paths = new RepoPaths(root);
  const result: ScanResult = {
    root,
    sources: [],
    docs: [],
    files: new Map(),
    skipped: [],
    imports: [],
    importCaps: [],
    copies: [],
    optional: [],
    listing: await repositoryFiles(root, listed),
  };
  const found = instructionFilesIn(result.listing).sort(
    (a, b) => formatRank(a.format.id) - formatRank(b.format.id) || byCodeUnit(a.rel, b.rel),
  );
  const reader = new SourceReader(paths, await paths.realRoot());
  const reads: (SourceRead | null)[] = [];
  for (const { rel } of found) {
    reads.push(readUnlessGone(reader, rel));
    // The reads are synchronous: every batch, report progress and let the event loop turn.
    if (reads.length % READ_BATCH === 0 || reads.length === found.length) {
      onProgress?.(reads.length, found.length);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  let yaml: YamlParse | undefined;
  for (let i = 0; i < found.length; i++) {
    const { rel, format } = found[i]!;
    const read = reads[i];
    if (!read) continue;
    if (read.status === 'skipped') {
      result.skipped.push(read);
      result.sources.push({ path: rel, kind: format.id, bytes: read.size, sha256: read.sha256 });
      continue;
    }
    result.files.set(rel, read);
    // The YAML parser is loaded before the first file whose front matter needs it (model/frontmatter.ts).
    const { lines } = splitText(read.text);
    if (yaml === undefined && format.needsYaml(lines)) yaml = await loadYaml();
    result.docs.push(format.parse(read, { lines, yaml }));
  }
  // An alias counts only when it points at another instruction file; otherwise its content is its own.
  const known = new Set(result.docs.map((d) => d.path));
  for (const doc of result.docs) {
    doc.aliasOf ??=
      importTarget(doc.path, doc.importOnly ?? null, known) ?? symlinkStoredAsText(doc.path, result.files.get(doc.path)!.text, known);
    if (doc.aliasOf !== null && !known.has(doc.aliasOf)) doc.aliasOf = null;
  }
  const byPath = breakAliasCycles(result.docs);
  const imported = await followImports(paths, result.docs, yaml);
  result.imports = imported.refs;
  result.importCaps = imported.caps;
  for (const file of imported.files) result.files.set(file.path, file);
  result.docs.push(...imported.docs);
  // A file made only of imports, one of them an instruction file, points at that file (like a one-line import).
  for (const doc of result.docs) {
    if (doc.aliasOf !== null || doc.units.length > 0) continue;
    // Only at a file that holds rules itself: two files that only import each other point nowhere.
    const holds = (p: string | null) => p !== null && (byPath.get(p)?.units.length ?? 0) > 0;
    doc.aliasOf = imported.refs.find((r) => r.from === doc.path && r.status === 'source' && holds(r.target))?.target ?? null;
  }
  const noise = leaveOutNoise(result.docs, (p) => result.files.get(p)!.text, result.listing);
  result.copies = findCopies(result.docs, (p) => result.files.get(p)!.text);
  result.optional = [...noise, ...result.copies.map((c) => c.path)];
  result.linkTargets = await resolvingLinks(paths, result.docs);
  for (const doc of result.docs) {
    const file = result.files.get(doc.path)!;
    result.sources.push({
      path: doc.path,
      kind: doc.kind,
      bytes: file.bytes.length,
      sha256: file.sha256,
      aliasOf: doc.aliasOf,
      notRule: doc.notRule,
    });
  }
  const order = new Map(found.map((f, i) => [f.rel, i]));
  // Imported files come after the instruction files, in the order they were reached.
  const rank = (p: string) => order.get(p) ?? found.length;
  result.sources.sort((a, b) => rank(a.path) - rank(b.path));
  return result;
}

/** Two files that only import each other are no alias of anything: neither holds the rules. The docs by path. */
function breakAliasCycles(docs: ScanResult['docs']): Map<string, ScanResult['docs'][number]> {
  const byPath = new Map(docs.map((d) => [d.path, d]));
  for (const doc of docs) {
    if (doc.aliasOf === null) continue;
    const seen = new Set<string>([doc.path]);
    for (let at: string | null = doc.aliasOf; at !== null; at = byPath.get(at)?.aliasOf ?? null) {
      if (seen.has(at)) {
        for (const p of seen) byPath.get(p)!.aliasOf = null;
        break;
      }
      seen.add(at);
    }
  }
  return byPath;
}

/**
 * The instruction file an `@path` import names. Claude Code resolves it against the importing
 * file's folder; files in `.claude/` are also tried against the folder that holds `.claude/`, and
 * the repository root last, since people write both.
 */
function importTarget(rel: string, raw: string | null, known: Set<string>): string | null {
  if (raw === null || raw.startsWith('~') || raw.startsWith('/')) return null;
  const folder = path.posix.dirname(rel);
  const bases = [folder, folder.replace(/(^|\/)\.claude$/, '') || '.', '.'];
  for (const base of bases) {
    const target = path.posix.normalize(path.posix.join(base, raw));
    if (target !== rel && !target.startsWith('../') && known.has(target)) return target;
  }
  return null;
}

/**
 * A checkout without symlink support (git's core.symlinks=false) stores a link as a tiny file that
 * holds only the target path. Such a file naming another instruction file is that file's alias.
 */
function symlinkStoredAsText(rel: string, text: string, known: Set<string>): string | null {
  if (text.length > 512 || /\s/.test(text.trim()) || text.includes('\n')) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), text.trim()));
  return target !== rel && known.has(target) ? target : null;
}

/**
 * A file git lists but the work tree no longer has is left out; one listed under a name that is not
 * valid UTF-8 (U+FFFD in its place) cannot be opened by that name, and is listed as not read; so
 * is one this process may not open.
 */
function readUnlessGone(reader: SourceReader, rel: string): SourceRead | null {
  try {
    return reader.read(rel);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return rel.includes('\uFFFD') ? unreadableName(rel) : null;
    if (isDenied(err)) return deniedSource(rel);
    throw err;
  }
}
