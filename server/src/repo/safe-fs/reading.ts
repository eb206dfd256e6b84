import { constants } from 'node:fs';
import fsSync from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { codeOf, kindOf, LinkRefusedError, NotAFileError, readlinkOrNull, type TooLarge } from './entries.js';
import { folderAndName, placeOf, regularOrMissing, type Place } from './places.js';

/**
 * Reading: opened no-follow and non-blocking, checked with fstat to be a regular file, so a FIFO
 * never blocks and a device is never read; with a limit, a larger file is never read at all.
 */

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/** Open a regular file for reading, never through a link, never blocking on a FIFO; null when it does not exist. */
export async function openRegular(p: Place, abs: string): Promise<FileHandle | null> {
  const st = await regularOrMissing(p, abs);
  if (!st) return null;
  let fh: FileHandle;
  try {
    fh = await fs.open(abs, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return null;
    if (codeOf(err) === 'ELOOP') throw new LinkRefusedError(p.rel, readlinkOrNull(abs));
    throw err;
  }
  const now = await fh.stat();
  if (!now.isFile()) {
    await fh.close();
    throw new NotAFileError(p.rel, kindOf(now));
  }
  return fh;
}

/**
 * The bytes of the regular file `rel`, or null when it (or a folder on the way) does not exist.
 * A link on the way or at the name is refused; a folder, FIFO or device is NotAFileError. With
 * `maxBytes`, a larger file is never read: its size comes back as TooLarge.
 */
export async function readFile(root: string, rel: string): Promise<Buffer | null>;
export async function readFile(root: string, rel: string, opts: { maxBytes: number }): Promise<Buffer | TooLarge | null>;
export async function readFile(root: string, rel: string, opts?: { maxBytes: number }): Promise<Buffer | TooLarge | null> {
  const p = await placeOf(root, rel);
  const at = await folderAndName(p, false);
  if (!at) return null;
  if (!(await regularOrMissing(p, at.abs))) return null;
  try {
    return readResolvedFileSync(at.abs, p.rel, opts?.maxBytes);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return null; // gone since the look
    throw err;
  }
}

/**
 * The bytes of a repository file at an absolute path already resolved inside the repository
 * (RepoPaths.safeAbs): opened no-follow and non-blocking, and only when it is a regular file.
 * Throws ENOENT as fs does; NotAFileError for a folder, FIFO or device.
 */
export async function readResolvedFile(abs: string, rel: string): Promise<Buffer>;
export async function readResolvedFile(abs: string, rel: string, opts: { maxBytes: number }): Promise<Buffer | TooLarge>;
export async function readResolvedFile(abs: string, rel: string, opts?: { maxBytes: number }): Promise<Buffer | TooLarge> {
  let fh: FileHandle;
  try {
    fh = await fs.open(abs, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    if (codeOf(err) === 'ELOOP') throw new LinkRefusedError(rel, readlinkOrNull(abs));
    if (codeOf(err) === 'EISDIR') throw new NotAFileError(rel, 'a folder');
    throw err;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new NotAFileError(rel, kindOf(st));
    // Over the limit it is never read at all: only its size is known (a 200 MB file costs nothing).
    if (opts && st.size > opts.maxBytes) return { tooLarge: true, size: st.size };
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/**
 * {@link readResolvedFile} without the thread pool, for the scan's many small files: one synchronous
 * open, fstat, read and close cost a fraction of their promise forms (docs/performance-history.md). The same
 * rules: no-follow, non-blocking, a regular file only.
 */
export function readResolvedFileSync(abs: string, rel: string): Buffer;
export function readResolvedFileSync(abs: string, rel: string, maxBytes: number | undefined): Buffer | TooLarge;
export function readResolvedFileSync(abs: string, rel: string, maxBytes?: number): Buffer | TooLarge {
  let fd: number;
  try {
    fd = fsSync.openSync(abs, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    if (codeOf(err) === 'ELOOP') throw new LinkRefusedError(rel, readlinkOrNull(abs));
    if (codeOf(err) === 'EISDIR') throw new NotAFileError(rel, 'a folder');
    throw err;
  }
  try {
    const st = fsSync.fstatSync(fd);
    if (!st.isFile()) throw new NotAFileError(rel, kindOf(st));
    if (maxBytes === undefined) return readOpenFileSync(fd, st.size);
    if (st.size > maxBytes) return { tooLarge: true, size: st.size };
    // A size of 0 may be a file that says nothing of its size (under /proc): read to the limit, no further.
    return st.size === 0 ? readToLimitSync(fd, maxBytes) : readOpenFileSync(fd, st.size);
  } finally {
    fsSync.closeSync(fd);
  }
}

/** What {@link readRegularNoFollowSync} found at a path: nothing is read but a regular file within the limit. */
export type NoFollowRead =
  { kind: 'file'; bytes: Buffer } | { kind: 'too_large'; size: number } | { kind: 'not_a_file' } | { kind: 'unopened' };

/**
 * Read the regular file at `abs`, when it holds at most `maxBytes`, with no lstat before: one open
 * (no-follow, non-blocking, never as a controlling terminal), fstat, read and close. Whatever cannot
 * be opened so (a link at the path, a socket, a missing file...) is 'unopened', and the caller
 * looks at it as it must. The caller has checked the folders on the way.
 */
export function readRegularNoFollowSync(abs: string, maxBytes: number): NoFollowRead {
  let fd: number;
  try {
    fd = fsSync.openSync(abs, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch {
    return { kind: 'unopened' };
  }
  try {
    const st = fsSync.fstatSync(fd);
    if (!st.isFile()) return { kind: 'not_a_file' };
    if (st.size > maxBytes) return { kind: 'too_large', size: st.size };
    return { kind: 'file', bytes: readOpenFileSync(fd, st.size) };
  } finally {
    fsSync.closeSync(fd);
  }
}

/** The bytes of an open regular file of `size` bytes (as its fstat said): readFileSync(fd) without its second fstat. */
function readOpenFileSync(fd: number, size: number): Buffer {
  // A size of 0 may be a file that says nothing of its size: read to the end.
  if (size === 0) return fsSync.readFileSync(fd);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const n = fsSync.readSync(fd, bytes, at, size - at, null);
    if (n === 0) break;
    at += n;
  }
  return at < size ? bytes.subarray(0, at) : bytes;
}

/** The bytes of an open file that says nothing of its size, when they are at most `maxBytes`; past that it stops reading. */
function readToLimitSync(fd: number, maxBytes: number): Buffer | TooLarge {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const n = fsSync.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return Buffer.concat(chunks, total);
    total += n;
    if (total > maxBytes) return { tooLarge: true, size: total };
    chunks.push(chunk.subarray(0, n));
  }
}
