import { loadYaml, type YamlParse } from '../../model/frontmatter.js';
import { splitText } from '../../common/text.js';
import type { InstructionDoc, Unit } from '../../model/model.js';
import type { RepoPaths } from '../../repo/repo-path.js';
import { SourceReader, type SourceRead } from '../../repo/source-file.js';
import { claudeMd } from '../formats/agent-md.js';
import { inToolFolder, settleTargets, type TargetState } from './import-targets.js';
import {
  IMPORTED_KIND,
  IMPORTING_KINDS,
  importOnLine,
  importUnits,
  MAX_IMPORT_DEPTH,
  MAX_IMPORTS,
  MAX_IMPORTS_PER_FILE,
  resolveImport,
  type ImportCap,
  type ImportRef,
  type ImportResult,
  type ImportStatus,
} from './imports.js';

/** Text files worth placing among instructions; `@package.json` is a reference, not rules. */
const TEXT_FILE = /\.(md|mdc|markdown|txt)$/i;

/**
 * Follow the imports of every importing document. Import lines are taken out of their document's
 * units (they are not rules); a followed file becomes a document of kind `imported` with the scope of
 * the file that first imports it, so its rules land where that file's rules land, once.
 *
 * The imports are walked in memory, depth first, as often as it takes to learn what stands at the
 * targets met: each walk collects the targets not settled yet, and all of them are settled at once
 * (import-targets.ts: no git at all for missing ones, one git process for the rest). A walk meets
 * new targets only in files the walk before read, so this ends within MAX_IMPORT_DEPTH + 1 walks.
 */
export async function followImports(paths: RepoPaths, docs: InstructionDoc[], loaded?: YamlParse): Promise<ImportResult> {
  let yaml = loaded;
  const states = new Map<string, TargetState>();
  const reads = new Map<string, SourceRead | null>();
  const reader = new SourceReader(paths, await paths.realRoot());
  const read = (rel: string): SourceRead | null => {
    if (!reads.has(rel)) reads.set(rel, readOrNull(reader, rel));
    return reads.get(rel)!;
  };
  for (;;) {
    const walk = new ImportWalk(docs, states, read, yaml);
    walk.run();
    if (walk.pending.size === 0 && !walk.yamlNeeded) {
      // Only the last walk takes the import lines out of the documents it was given.
      for (const [doc, units] of walk.strip) doc.units = doc.units.filter((u) => !units.includes(u));
      return walk.out;
    }
    // An imported file's front matter needs the YAML parser: loaded once, before the next walk reads it.
    if (walk.yamlNeeded) yaml = await loadYaml();
    await settleTargets(paths, walk.pending, states);
  }
}

/** A file that is not there (or a folder on the way is a file) reads as null. */
function readOrNull(reader: SourceReader, rel: string): SourceRead | null {
  try {
    return reader.read(rel);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw err;
  }
}

/** One walk over the imports, with what is known of their targets so far. */
class ImportWalk {
  readonly out: ImportResult = { refs: [], docs: [], files: [], caps: [] };
  /** Targets met whose state is not known yet. */
  readonly pending = new Set<string>();
  /** Each document's import units, taken out when the walk is the last. */
  readonly strip: [InstructionDoc, Unit[]][] = [];
  /** Set when a file met needs the YAML parser, not loaded yet: the walk is run again with it. */
  yamlNeeded = false;
  private readonly known: Set<string>;
  private readonly placed = new Set<string>();
  private total = 0;

  constructor(
    private readonly docs: InstructionDoc[],
    private readonly states: Map<string, TargetState>,
    private readonly read: (rel: string) => SourceRead | null,
    private readonly yaml: YamlParse | undefined,
  ) {
    this.known = new Set(docs.map((d) => d.path));
  }

  run(): void {
    for (const doc of this.docs) {
      // Only the kinds that import (a scan of 500 rules has none).
      if (doc.aliasOf !== null || doc.notRule !== null || !IMPORTING_KINDS.has(doc.kind)) continue;
      this.visit(doc, 0, [doc.path]);
    }
  }

  private visit(doc: InstructionDoc, depth: number, chain: string[]): void {
    const units = importUnits(doc);
    if (units.length === 0) return;
    this.strip.push([doc, units]);
    let own = 0;
    let cap: ImportCap | null = null;
    for (const u of units) {
      for (const [i, l] of u.lines.entries()) {
        const raw = importOnLine(l);
        if (raw === null) continue;
        const line = u.line + i;
        if (own >= MAX_IMPORTS_PER_FILE || this.total >= MAX_IMPORTS) {
          cap ??= { from: doc.path, line, notFollowed: 0, cap: own >= MAX_IMPORTS_PER_FILE ? 'file' : 'total' };
          cap.notFollowed++;
          continue;
        }
        own++;
        this.total++;
        const target = resolveImport(doc.path, raw, this.known);
        const ref: ImportRef = { from: doc.path, line, raw, target, status: 'outside' };
        this.out.refs.push(ref);
        if (target !== null) ref.status = this.follow(doc, target, depth, chain);
      }
    }
    if (cap) this.out.caps.push(cap);
  }

  /** What becomes of one import of `target` from `doc`; a file followed is read and walked in turn. */
  private follow(doc: InstructionDoc, target: string, depth: number, chain: string[]): ImportStatus {
    if (this.known.has(target)) return 'source';
    if (chain.includes(target) || depth >= MAX_IMPORT_DEPTH) return 'cycle';
    if (this.placed.has(target)) return 'placed';
    if (!TEXT_FILE.test(target)) return 'not_text';
    if (inToolFolder(target)) return 'ignored';
    const state = this.states.get(target);
    if (state === undefined) {
      this.pending.add(target);
      return 'missing'; // for this walk only: the next one knows
    }
    if (state !== 'readable') return state;
    const read = this.read(target);
    if (read === null) return 'missing';
    if (read.status === 'skipped') return read.reason === 'symlink_outside' ? 'outside' : 'not_text';
    const { lines } = splitText(read.text);
    if (this.yaml === undefined && claudeMd.needsYaml(lines)) {
      this.yamlNeeded = true;
      return 'missing'; // for this walk only: the next one has the parser
    }
    this.placed.add(target);
    const parsed = claudeMd.parse(read, { lines, yaml: this.yaml });
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
    this.out.docs.push(imported);
    this.out.files.push(read);
    this.visit(imported, depth + 1, [...chain, target]);
    return 'followed';
  }
}
