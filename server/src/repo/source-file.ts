import fs from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { sha256 } from '../common/hash.js';
import { isInside, RepoPaths } from './repo-path.js';
import { NotAFileError, readResolvedFileSync } from './safe-fs.js';

export const MAX_SOURCE_BYTES = 1024 * 1024;

export type SkipReason = 'too_large' | 'binary' | 'not_utf8' | 'symlink_outside' | 'not_a_file';

export interface ReadableSource {
  status: 'ok';
  path: string;
  bytes: Buffer;
  text: string;
  sha256: string;
  /** Set when the path is a symlink (inside the repository) to this repository path. */
  linkTarget: string | null;
  /** Set when the path itself is a symlink: its target as written (`../AGENTS.md`). */
  link: string | null;
}

export interface SkippedSource {
  status: 'skipped';
  path: string;
  reason: SkipReason;
  detail: string;
  size: number;
  sha256: string | null;
}

export type SourceRead = ReadableSource | SkippedSource;

/** Read an instruction file, refusing (not parsing) what is binary, oversized, not UTF-8 or outside. */
export async function readSource(paths: RepoPaths, rel: string): Promise<SourceRead> {
  return new SourceReader(paths, await paths.realRoot()).read(rel);
}

/**
 * Reads a repository's instruction files, synchronously: a scan reads hundreds of small local files,
 * and five synchronous calls per file cost a fraction of their promise forms (docs/performance.md).
 * A caller that reads many yields to the event loop between batches. Folders' real paths are
 * worked out once each.
 */
export class SourceReader {
  private readonly folders = new Map<string, { real: string; inRepo: string | null }>();

  constructor(
    private readonly paths: RepoPaths,
    private readonly realRoot: string,
  ) {}

  /** Throws ENOENT for a path that is not there at all (listed by git, removed from the work tree). */
  read(rel: string): SourceRead {
    const abs = this.paths.abs(rel);
    const own = fs.lstatSync(abs);
    const link = own.isSymbolicLink() ? fs.readlinkSync(abs) : null;
    // Resolve the whole path: a symlinked folder on the way can lead out as well as a symlinked file.
    let inRepo: string | null;
    let target: string;
    if (link === null) {
      const folder = this.folder(path.dirname(abs));
      target = path.join(folder.real, path.basename(abs));
      inRepo = folder.inRepo === null ? null : folder.inRepo === '' ? path.basename(abs) : `${folder.inRepo}/${path.basename(abs)}`;
    } else {
      try {
        target = fs.realpathSync.native(abs);
      } catch {
        return skipped(rel, 'not_a_file', `is a broken symlink (its target ${link} does not exist)`, 0, null);
      }
      inRepo = this.repoPathOf(target);
    }
    if (inRepo === null) {
      const how = link !== null ? `a symlink that leaves the repository (${link})` : 'inside a symlinked folder that leaves the repository';
      return skipped(rel, 'symlink_outside', `is ${how}`, 0, null);
    }
    const linkTarget = inRepo === rel ? null : inRepo;
    // The path itself is no link: its lstat is the stat of the file.
    const st = link === null ? own : fs.statSync(target);
    if (!st.isFile()) return skipped(rel, 'not_a_file', 'is not a regular file', 0, null);
    if (st.size > MAX_SOURCE_BYTES) {
      return skipped(rel, 'too_large', `is ${st.size} bytes, over the ${MAX_SOURCE_BYTES}-byte limit`, st.size, null);
    }
    // Opened no-follow and non-blocking, and only as a regular file: a FIFO swapped in since the stat does not block.
    let bytes: Buffer;
    try {
      bytes = readResolvedFileSync(target, rel);
    } catch (err) {
      if (err instanceof NotAFileError) return skipped(rel, 'not_a_file', 'is not a regular file', 0, null);
      throw err;
    }
    const hash = sha256(bytes);
    // Any NUL, not only in the first 8 KB: a NUL never reaches a Copilot file.
    const nul = bytes.indexOf(0);
    if (nul >= 0) return skipped(rel, 'binary', `looks binary (a NUL byte at offset ${nul})`, bytes.length, hash);
    if (!isUtf8(bytes)) return skipped(rel, 'not_utf8', 'is not valid UTF-8', bytes.length, hash);
    // toString keeps a BOM in the text, so that planned content can keep it too.
    return { status: 'ok', path: rel, bytes, text: bytes.toString('utf8'), sha256: hash, linkTarget, link };
  }

  /** A folder's real path, and its repository path (null when it lies outside), worked out once. */
  private folder(abs: string): { real: string; inRepo: string | null } {
    let folder = this.folders.get(abs);
    if (folder === undefined) {
      const real = fs.realpathSync.native(abs);
      this.folders.set(abs, (folder = { real, inRepo: this.repoPathOf(real) }));
    }
    return folder;
  }

  /** The repository path of a real path, or null when it lies outside the repository. */
  private repoPathOf(real: string): string | null {
    return isInside(this.realRoot, real) ? path.relative(this.realRoot, real).split(path.sep).join('/') : null;
  }
}

function skipped(p: string, reason: SkipReason, detail: string, size: number, hash: string | null): SkippedSource {
  return { status: 'skipped', path: p, reason, detail: `${p} ${detail}; it was left untouched`, size, sha256: hash };
}
