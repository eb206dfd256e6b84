import fs from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { sha256 } from '../common/hash.js';
import { showPath } from '../show/untrusted.js';
import { isInside, normalizeRepoPath, RepoPaths } from './repo-path.js';
import { NotAFileError, readRegularNoFollowSync, readResolvedFileSync } from './safe-fs.js';

export const MAX_SOURCE_BYTES = 1024 * 1024;

export type SkipReason = 'too_large' | 'binary' | 'not_utf8' | 'symlink_outside' | 'not_a_file' | 'unreadable';

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
  /** For a person: the path (shown, quoted when odd), why it was not read, and that it was left untouched. */
  detail: string;
  /** Why it was not read, without the path (`is 2000000 bytes, over the 1048576-byte limit`). */
  why: string;
  size: number;
  sha256: string | null;
}

export type SourceRead = ReadableSource | SkippedSource;

/** Read an instruction file, refusing (not parsing) what is binary, oversized, not UTF-8 or outside. */
export async function readSource(paths: RepoPaths, rel: string): Promise<SourceRead> {
  return new SourceReader(paths, await paths.realRoot()).read(rel);
}

interface Folder {
  real: string;
  /** Its repository path, or null when it lies outside the repository. */
  inRepo: string | null;
}

/**
 * Reads a repository's instruction files, synchronously: a scan reads hundreds of small local files,
 * and four synchronous calls per file (open, fstat, read, close) cost a fraction of their promise forms (docs/performance-history.md).
 * A caller that reads many yields to the event loop between batches. Folders' real paths are
 * worked out once each.
 */
export class SourceReader {
  /** By repository path ('' for the root). */
  private readonly folders = new Map<string, Folder>();

  constructor(
    private readonly paths: RepoPaths,
    private readonly realRoot: string,
  ) {}

  /** Throws ENOENT for a path that is not there at all (listed by git, removed from the work tree). */
  read(rel: string): SourceRead {
    const norm = normalizeRepoPath(rel);
    const slash = norm.lastIndexOf('/');
    const name = norm.slice(slash + 1);
    const folder = this.folder(slash < 0 ? '' : norm.slice(0, slash));
    if (folder.inRepo !== null) {
      // The common case, a regular file in a folder inside the repository, takes no lstat: it is
      // opened no-follow, and what cannot be opened so (a link, a socket, a missing file) is looked at below.
      const read = readRegularNoFollowSync(inFolder(folder.real, name), MAX_SOURCE_BYTES);
      const inRepo = folder.inRepo === '' ? name : `${folder.inRepo}/${name}`;
      if (read.kind === 'file') return fromBytes(rel, read.bytes, inRepo === rel ? null : inRepo, null);
      if (read.kind === 'not_a_file') return notAFile(rel);
      if (read.kind === 'too_large') return tooLarge(rel, read.size);
    }
    return this.readLooking(rel, folder, name);
  }

  /** Reads a path after an lstat says what it is: a link is resolved, and it and its folders must stay inside. */
  private readLooking(rel: string, folder: Folder, name: string): SourceRead {
    const abs = this.paths.abs(rel);
    const own = fs.lstatSync(abs);
    const link = own.isSymbolicLink() ? fs.readlinkSync(abs) : null;
    // Resolve the whole path: a symlinked folder on the way can lead out as well as a symlinked file.
    let inRepo: string | null;
    let target: string;
    if (link === null) {
      target = path.join(folder.real, name);
      inRepo = folder.inRepo === null ? null : folder.inRepo === '' ? name : `${folder.inRepo}/${name}`;
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
    // The path itself is no link: its lstat is the stat of the file.
    const st = link === null ? own : fs.statSync(target);
    if (!st.isFile()) return notAFile(rel);
    if (st.size > MAX_SOURCE_BYTES) return tooLarge(rel, st.size);
    // Opened no-follow and non-blocking, and only as a regular file: a FIFO swapped in since the stat does not block.
    let bytes: Buffer;
    try {
      bytes = readResolvedFileSync(target, rel);
    } catch (err) {
      if (err instanceof NotAFileError) return notAFile(rel);
      throw err;
    }
    return fromBytes(rel, bytes, inRepo === rel ? null : inRepo, link);
  }

  /** A folder's real path, and its repository path (null when it lies outside), worked out once. */
  private folder(rel: string): Folder {
    let folder = this.folders.get(rel);
    if (folder === undefined) {
      const real = fs.realpathSync.native(rel === '' ? this.paths.root : this.paths.abs(rel));
      this.folders.set(rel, (folder = { real, inRepo: this.repoPathOf(real) }));
    }
    return folder;
  }

  /** The repository path of a real path, or null when it lies outside the repository. */
  private repoPathOf(real: string): string | null {
    return isInside(this.realRoot, real) ? path.relative(this.realRoot, real).split(path.sep).join('/') : null;
  }
}

/** path.join of a real folder and one name, without path.join's normalising of the whole path (a scan joins hundreds). */
const inFolder = (real: string, name: string) => (real.endsWith(path.sep) ? real + name : real + path.sep + name);

/** The checks of the bytes of a file read (as a scan counts them): binary, not UTF-8, or readable. */
function fromBytes(rel: string, bytes: Buffer, linkTarget: string | null, link: string | null): SourceRead {
  const hash = sha256(bytes);
  // Any NUL, not only in the first 8 KB: a NUL never reaches a Copilot file.
  const nul = bytes.indexOf(0);
  if (nul >= 0) return skipped(rel, 'binary', `looks binary (a NUL byte at offset ${nul})`, bytes.length, hash);
  if (!isUtf8(bytes)) return skipped(rel, 'not_utf8', 'is not valid UTF-8', bytes.length, hash);
  // toString keeps a BOM in the text, so that planned content can keep it too.
  return { status: 'ok', path: rel, bytes, text: bytes.toString('utf8'), sha256: hash, linkTarget, link };
}

const notAFile = (rel: string) => skipped(rel, 'not_a_file', 'is not a regular file', 0, null);

const tooLarge = (rel: string, size: number) =>
  skipped(rel, 'too_large', `is ${size} bytes, over the ${MAX_SOURCE_BYTES}-byte limit`, size, null);

/**
 * A file listed under a name that is not valid UTF-8: the listing shows each byte that is not as
 * U+FFFD, and no file has that name, so it cannot be opened. It is named as not read, never dropped.
 */
export const unreadableName = (rel: string): SkippedSource =>
  skipped(rel, 'not_utf8', 'has a name that is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by its name', 0, null);

/** A file (or a folder on its way) this process may not open: named as not read, never dropped, never a crash of the scan. */
export const deniedSource = (rel: string): SkippedSource => skipped(rel, 'unreadable', 'cannot be opened (permission denied)', 0, null);

/** Whether an error says this process may not open the path. */
export const isDenied = (err: unknown): boolean => ['EACCES', 'EPERM'].includes((err as NodeJS.ErrnoException).code ?? '');

function skipped(p: string, reason: SkipReason, detail: string, size: number, hash: string | null): SkippedSource {
  return { status: 'skipped', path: p, reason, detail: `${showPath(p)} ${detail}; it was left untouched`, why: detail, size, sha256: hash };
}
