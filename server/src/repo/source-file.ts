import fs from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../common/hash.js';
import { isInside, RepoPaths } from './repo-path.js';
import { NotAFileError, readResolvedFile } from './safe-fs.js';

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

// ignoreBOM keeps a BOM in the text, so that planned content can keep it too.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Read an instruction file, refusing (not parsing) what is binary, oversized, not UTF-8 or outside. */
export async function readSource(paths: RepoPaths, rel: string): Promise<SourceRead> {
  const abs = paths.abs(rel);
  const realRoot = await paths.realRoot();
  // A path that is not there at all (listed by git, removed from the work tree) throws ENOENT here.
  const own = await fs.lstat(abs);
  const link = own.isSymbolicLink() ? await fs.readlink(abs) : null;
  // Resolve the whole path: a symlinked folder on the way can lead out as well as a symlinked file.
  let target: string;
  try {
    target = await fs.realpath(abs);
  } catch (err) {
    if (link === null) throw err;
    return skipped(rel, 'not_a_file', `is a broken symlink (its target ${link} does not exist)`, 0, null);
  }
  if (!isInside(realRoot, target)) {
    const how = (await fs.lstat(abs)).isSymbolicLink()
      ? `a symlink that leaves the repository (${await fs.readlink(abs)})`
      : 'inside a symlinked folder that leaves the repository';
    return skipped(rel, 'symlink_outside', `is ${how}`, 0, null);
  }
  const inRepo = path.relative(realRoot, target).split(path.sep).join('/');
  const linkTarget = inRepo === rel ? null : inRepo;
  const st = await fs.stat(target);
  if (!st.isFile()) return skipped(rel, 'not_a_file', 'is not a regular file', 0, null);
  if (st.size > MAX_SOURCE_BYTES) {
    return skipped(rel, 'too_large', `is ${st.size} bytes, over the ${MAX_SOURCE_BYTES}-byte limit`, st.size, null);
  }
  // Opened no-follow and non-blocking, and only as a regular file: a FIFO swapped in since the stat does not block.
  let bytes: Buffer;
  try {
    bytes = await readResolvedFile(target, rel);
  } catch (err) {
    if (err instanceof NotAFileError) return skipped(rel, 'not_a_file', 'is not a regular file', 0, null);
    throw err;
  }
  const hash = sha256(bytes);
  // Any NUL, not only in the first 8 KB: a NUL never reaches a Copilot file.
  const nul = bytes.indexOf(0);
  if (nul >= 0) return skipped(rel, 'binary', `looks binary (a NUL byte at offset ${nul})`, bytes.length, hash);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return skipped(rel, 'not_utf8', 'is not valid UTF-8', bytes.length, hash);
  }
  return { status: 'ok', path: rel, bytes, text, sha256: hash, linkTarget, link };
}

function skipped(p: string, reason: SkipReason, detail: string, size: number, hash: string | null): SkippedSource {
  return { status: 'skipped', path: p, reason, detail: `${p} ${detail}; it was left untouched`, size, sha256: hash };
}
