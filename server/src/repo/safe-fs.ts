import { constants, type Dirent, type Stats } from 'node:fs';
import fsSync from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PreconditionError, UnsafePathError } from '../common/errors.js';
import { normalizeRepoPath } from './repo-path.js';
import { STATE_DIR, STATE_GITIGNORE, stateGitignoreText } from './state-paths.js';

/**
 * The one module that changes anything on disk: every write, create, rename, remove, mkdir, chmod,
 * symlink and lock of copilot-onboard goes through here (tests/architecture/one-writer.test.ts fails when
 * another source file calls a writing fs API). It also reads the tool's own files (state, traces,
 * backups), so that those reads follow the same rules.
 *
 * Every path is a repository root (trusted: the person named it, and it is resolved once) and a
 * repository-relative path. The rules:
 * - each folder on the way from the root is a real folder: lstat, never a symlink, even one that
 *   stays inside; a missing one is made with mkdir, one at a time, and checked again;
 * - the final name is not a symlink (nor a folder, FIFO or device where a file is expected);
 * - a file is written to a temporary file created in that real folder with
 *   O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW, written, fsynced and renamed over the name; then the folder
 *   is fsynced. rename replaces the name itself: it never writes through a link;
 * - reads open with O_NOFOLLOW|O_NONBLOCK and check with fstat that they got a regular file, so a
 *   FIFO never blocks and a device is never read.
 *
 * A link anywhere on the way is refused with LinkRefusedError naming it (CLI exit 2, MCP
 * precondition_failed). A local process that swaps a folder for a link between the check and the
 * write can still win that race (Node has no openat); docs/security.md says so.
 */

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY, O_NOCTTY } = constants;

/** Temporary files are named so, in the folder of the file they become (and `.copilot-state/.gitignore` ignores them). */
export const TEMP_PREFIX = '.copilot-tmp-';

/** A symlink where copilot-onboard reads or writes its own files, or on the way to a file it writes. */
export class LinkRefusedError extends UnsafePathError {
  constructor(
    readonly rel: string,
    readonly target: string | null,
  ) {
    super(
      rel,
      `is a symlink${target !== null ? ` (to ${target})` : ''}; copilot-onboard neither writes nor reads its files through a link, so nothing was written. Replace it with a real folder or file inside the repository, or remove it`,
    );
  }
}

/** Something other than a folder where a folder is on the way. */
export class NotAFolderError extends PreconditionError {
  override name = 'NotAFolderError';
  readonly code = 'ENOTDIR';
  constructor(
    readonly rel: string,
    readonly what: string,
  ) {
    super(`${rel} is ${what}, where copilot-onboard needs a folder; move it aside`);
  }
}

/** Something other than a regular file (a folder, a FIFO, a device) where a file is read or written. */
export class NotAFileError extends PreconditionError {
  override name = 'NotAFileError';
  readonly code = 'ENOTFILE';
  constructor(
    readonly rel: string,
    readonly what: string,
  ) {
    super(`${rel} is ${what}, not a regular file; move it aside`);
  }
}

/** What an entry is, in words, for messages. */
export function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symlink';
  if (st.isDirectory()) return 'a folder';
  if (st.isFile()) return 'a file';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'an odd entry';
}

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

/*
 * The calls that only look at or rename entries (realpath, lstat, readlink, mkdir, rename, link,
 * unlink, readdir) and the reads of the tool's own small files are synchronous: each takes
 * microseconds in the kernel, where its promise form costs a round trip through the thread pool
 * (a trace write made about seventy). What waits for the disk (writing a file's bytes and every
 * fsync) stays asynchronous, so a server's other sessions are not held up by it.
 */

function lstatOrNull(abs: string): Stats | null {
  // Not `throwIfNoEntry: false`: only ENOENT is "missing" here, on every Node (ENOTDIR still throws).
  try {
    return fsSync.lstatSync(abs);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return null;
    throw err;
  }
}

function readlinkOrNull(abs: string): string | null {
  try {
    return fsSync.readlinkSync(abs);
  } catch {
    return null;
  }
}

interface Place {
  /** The root as the caller named it. */
  root: string;
  /** The root with every link resolved: the walk starts here. */
  real: string;
  rel: string;
  parts: string[];
  name: string;
}

async function placeOf(root: string, rel: string): Promise<Place> {
  const norm = normalizeRepoPath(rel);
  const parts = norm.split('/');
  return { root, real: fsSync.realpathSync.native(root), rel: norm, parts, name: parts[parts.length - 1]! };
}

/** Roots whose `.copilot-state/` this process created (and gave a .gitignore), until the notice is taken. */
const createdStateFolders = new Set<string>();

/**
 * The absolute path of the first `count` components of the place, each checked to be a real folder.
 * `create` makes a missing one (mkdir, one at a time); otherwise a missing one gives null, and so
 * does a non-folder when `lenient` (nothing can be below it).
 */
async function realFolders(p: Place, count: number, create: boolean, lenient = false): Promise<string | null> {
  let abs = p.real;
  for (let i = 0; i < count; i++) {
    abs = path.join(abs, p.parts[i]!);
    const rel = p.parts.slice(0, i + 1).join('/');
    let st = lstatOrNull(abs);
    if (!st) {
      if (!create) return null;
      await makeFolder(p, abs, rel);
      st = fsSync.lstatSync(abs);
    }
    if (st.isSymbolicLink()) throw new LinkRefusedError(rel, readlinkOrNull(abs));
    if (!st.isDirectory()) {
      if (lenient) return null;
      throw new NotAFolderError(rel, kindOf(st));
    }
  }
  return abs;
}

async function makeFolder(p: Place, abs: string, rel: string): Promise<void> {
  try {
    fsSync.mkdirSync(abs);
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return; // another process made it; the caller checks what it is
    throw err;
  }
  await fsyncFolder(path.dirname(abs));
  if (rel === STATE_DIR) {
    // The first run that makes .copilot-state/ gives it a .gitignore: only the traces are offered to git.
    await createFile(p.root, STATE_GITIGNORE, stateGitignoreText());
    createdStateFolders.add(path.resolve(p.root));
  }
}

/** True once for a root whose `.copilot-state/` (with its .gitignore) this process created since the last call. */
export function takeStateFolderCreated(root: string): boolean {
  return createdStateFolders.delete(path.resolve(root));
}

/** The folder of the place (made when missing), and the absolute path of its final name. */
async function folderAndName(p: Place, create: boolean): Promise<{ dir: string; abs: string } | null> {
  const dir = await realFolders(p, p.parts.length - 1, create);
  return dir === null ? null : { dir, abs: path.join(dir, p.name) };
}

/** The final name, checked: missing (null), or a regular file; a link or anything else is refused. */
async function regularOrMissing(p: Place, abs: string): Promise<Stats | null> {
  const st = lstatOrNull(abs);
  if (!st) return null;
  if (st.isSymbolicLink()) throw new LinkRefusedError(p.rel, readlinkOrNull(abs));
  if (!st.isFile()) throw new NotAFileError(p.rel, kindOf(st));
  return st;
}

/** fsync of an open descriptor, the one call here that waits for the disk: through the thread pool. */
function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsSync.fsync(fd, (err) => (err ? reject(err) : resolve())));
}

export async function fsyncFolder(dir: string): Promise<void> {
  let fd: number | undefined;
  try {
    fd = fsSync.openSync(dir, O_RDONLY | O_DIRECTORY);
    await fsyncFd(fd);
  } catch {
    // Some file systems cannot fsync a folder; the file itself is already synced.
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    fsSync.closeSync(fd);
  } catch {
    // closed already: nothing was left open
  }
}

/**
 * A new temporary file in `dir` holding `data`, synced unless `durable` is false: created no-follow
 * and exclusive, never an existing entry. Its bytes go to the page cache synchronously, as the scan
 * reads them; the fsync, which waits for the disk, does not hold the event loop.
 */
async function writeTemp(dir: string, data: string | Uint8Array, mode?: number, durable = true): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const tmp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
    let fd: number;
    try {
      fd = fsSync.openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode ?? 0o666);
    } catch (err) {
      if (codeOf(err) === 'EEXIST' && attempt < 100) continue;
      throw err;
    }
    try {
      // The mode given (or the replaced file's) exactly, not as the umask leaves it.
      if (mode !== undefined) fsSync.fchmodSync(fd, mode);
      fsSync.writeFileSync(fd, data);
      if (durable) await fsyncFd(fd);
    } catch (err) {
      closeQuietly(fd);
      unlinkQuietly(tmp);
      throw err;
    }
    // Closed once: a descriptor number closed twice may by then be another file's.
    try {
      fsSync.closeSync(fd);
    } catch (err) {
      unlinkQuietly(tmp);
      throw err;
    }
    return tmp;
  }
}

/**
 * Write `rel` whole or not at all, replacing a regular file (whose mode it keeps unless `mode` is
 * given) or creating it, and the folders on the way. `durable: false` is for a file that may be
 * lost in a power loss (an advisory one): it is still written whole, but nothing waits for the disk.
 */
export async function writeFile(
  root: string,
  rel: string,
  data: string | Uint8Array,
  opts: { mode?: number; durable?: boolean } = {},
): Promise<void> {
  const durable = opts.durable ?? true;
  const p = await placeOf(root, rel);
  const { dir, abs } = (await folderAndName(p, true))!;
  const existing = await regularOrMissing(p, abs);
  const tmp = await writeTemp(dir, data, opts.mode ?? (existing ? existing.mode & 0o7777 : undefined), durable);
  try {
    // Checked again right before the rename: it replaces whatever entry has the name.
    await realFolders(p, p.parts.length - 1, false);
    await regularOrMissing(p, abs);
    fsSync.renameSync(tmp, abs);
  } catch (err) {
    unlinkQuietly(tmp);
    throw err;
  }
  if (durable) await fsyncFolder(dir);
}

export async function writeJson(root: string, rel: string, value: unknown): Promise<void> {
  await writeFile(root, rel, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Create `rel` whole, only when no entry of that name exists (a link included, which is never
 * followed): written to a temporary file, then hard-linked to its name. False when the name is taken.
 */
export async function createFile(root: string, rel: string, data: string | Uint8Array, opts: { mode?: number } = {}): Promise<boolean> {
  const p = await placeOf(root, rel);
  const { dir, abs } = (await folderAndName(p, true))!;
  const tmp = await writeTemp(dir, data, opts.mode);
  try {
    fsSync.linkSync(tmp, abs);
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkQuietly(tmp);
  }
  await fsyncFolder(dir);
  return true;
}

/** Make `rel` and every folder on the way to it. */
export async function ensureFolder(root: string, rel: string): Promise<void> {
  const p = await placeOf(root, rel);
  await realFolders(p, p.parts.length, true);
}

/**
 * Remove the regular file `rel`; false when it is not there. A link or folder of that name is
 * refused. `durable: false`: the removal may be undone by a power loss (an advisory file).
 */
export async function removeFile(root: string, rel: string, opts: { durable?: boolean } = {}): Promise<boolean> {
  const p = await placeOf(root, rel);
  const at = await realFolders(p, p.parts.length - 1, false, true);
  if (at === null) return false;
  const abs = path.join(at, p.name);
  if (!(await regularOrMissing(p, abs))) return false;
  fsSync.unlinkSync(abs);
  if (opts.durable ?? true) await fsyncFolder(at);
  return true;
}

/**
 * Remove the entry `rel` itself, a symlink (never followed) or a regular file: how migrate replaces
 * a linked Copilot file the person chose to replace, and how rollback makes the link again.
 */
export async function removeLinkOrFile(root: string, rel: string): Promise<boolean> {
  const entry = await existingEntry(root, rel, { link: 'allow' });
  if (!entry) return false;
  const { at, abs, st } = entry;
  if (!st.isSymbolicLink() && !st.isFile()) throw new NotAFileError(normalizeRepoPath(rel), kindOf(st));
  await fs.unlink(abs);
  await fsyncFolder(at);
  return true;
}

/** Make `rel` a symlink to `target` (as written); the name must be free. */
export async function createSymlink(root: string, rel: string, target: string): Promise<void> {
  const p = await placeOf(root, rel);
  const { dir, abs } = (await folderAndName(p, true))!;
  await fs.symlink(target, abs);
  await fsyncFolder(dir);
}

/**
 * Remove the folder `rel` and everything in it; false when it is not there. `rel` itself must not
 * be a link; links inside are removed as links, never followed.
 */
export async function removeTree(root: string, rel: string): Promise<boolean> {
  const entry = await existingEntry(root, rel);
  if (!entry) return false;
  const { at, abs, st } = entry;
  if (!st.isDirectory()) await fs.unlink(abs);
  else await removeInside(abs);
  await fsyncFolder(at);
  return true;
}

/**
 * The entry at `rel` in its real folder, or null when it (or a folder on the way) is not there; a
 * link at `rel` is refused unless `link: 'allow'` (then it is the link itself, never followed).
 */
async function existingEntry(
  root: string,
  rel: string,
  opts: { link: 'refuse' | 'allow' } = { link: 'refuse' },
): Promise<{ at: string; abs: string; st: Stats } | null> {
  const p = await placeOf(root, rel);
  const at = await realFolders(p, p.parts.length - 1, false, true);
  if (at === null) return null;
  const abs = path.join(at, p.name);
  const st = lstatOrNull(abs);
  if (!st) return null;
  if (st.isSymbolicLink() && opts.link === 'refuse') throw new LinkRefusedError(p.rel, readlinkOrNull(abs));
  return { at, abs, st };
}

async function removeInside(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    // A Dirent's type is the entry's own (lstat): a link to a folder is not a folder here.
    if (entry.isDirectory()) await removeInside(abs);
    else await fs.unlink(abs);
  }
  await fs.rmdir(dir);
}

/** Remove the folder `rel` when it is empty; false when it is not there, not a folder, or not empty. */
export async function removeEmptyFolder(root: string, rel: string): Promise<boolean> {
  const entry = await existingEntry(root, rel);
  if (!entry) return false;
  const { at, abs, st } = entry;
  if (!st.isDirectory()) return false;
  try {
    await fs.rmdir(abs);
  } catch (err) {
    if (codeOf(err) === 'ENOTEMPTY' || codeOf(err) === 'EEXIST') return false;
    throw err;
  }
  await fsyncFolder(at);
  return true;
}

/** Set the permission bits of the regular file `rel`, through no link. */
export async function setMode(root: string, rel: string, mode: number): Promise<void> {
  const p = await placeOf(root, rel);
  const { abs } = (await folderAndName(p, false)) ?? missing(p);
  const fh = await openRegular(p, abs);
  if (!fh) missing(p);
  try {
    await fh.chmod(mode);
  } finally {
    await fh.close();
  }
}

/** Set the permission bits of the folder `rel` (every folder on the way checked real, the folder itself opened no-follow). */
export async function setFolderMode(root: string, rel: string, mode: number): Promise<void> {
  const p = await placeOf(root, rel);
  const abs = await realFolders(p, p.parts.length, false);
  if (abs === null) missing(p);
  const fh = await fs.open(abs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  try {
    await fh.chmod(mode);
  } finally {
    await fh.close();
  }
}

function missing(p: Place): never {
  throw Object.assign(new Error(`${p.rel} does not exist`), { code: 'ENOENT' });
}

/** Open a regular file for reading, never through a link, never blocking on a FIFO; null when it does not exist. */
async function openRegular(p: Place, abs: string): Promise<FileHandle | null> {
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

/** The entries of the folder `rel` (their own types: a link is a link; `.` is the root itself), or null when it does not exist. */
export async function listFolder(root: string, rel: string): Promise<Dirent[] | null> {
  if (rel === '.') return fsSync.readdirSync(fsSync.realpathSync.native(root), { withFileTypes: true });
  const p = await placeOf(root, rel);
  const at = await realFolders(p, p.parts.length, false);
  return at === null ? null : fsSync.readdirSync(at, { withFileTypes: true });
}

/** lstat of `rel` (never following it), with every folder on the way checked; null when it does not exist. */
export async function entryStat(root: string, rel: string): Promise<Stats | null> {
  const p = await placeOf(root, rel);
  const at = await folderAndName(p, false);
  return at ? lstatOrNull(at.abs) : null;
}

function unlinkQuietly(abs: string): void {
  try {
    fsSync.unlinkSync(abs);
  } catch {
    // already gone, or the error that matters is the one being thrown
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

/**
 * Remove the temporary files a killed writer left in the folder `rel` (`.copilot-tmp-<pid>-…`, whose
 * process is gone from this machine): a kill -9 between writing and renaming leaves one. A live
 * writer's temp file is never touched. Returns the repository paths removed.
 */
export async function removeStaleTempFiles(root: string, rel: string): Promise<string[]> {
  const entries = await listFolder(root, rel).catch(() => null);
  const removed: string[] = [];
  for (const e of entries ?? []) {
    const m = new RegExp(`^${TEMP_PREFIX.replace(/[.]/g, '\\.')}(?:probe-)?(\\d+)-[0-9a-f]+$`).exec(e.name);
    if (!m || !e.isFile() || processAlive(Number(m[1]))) continue;
    const file = rel === '.' || rel === '' ? e.name : `${rel}/${e.name}`;
    if (await removeFile(root, file).catch(() => false)) removed.push(file);
  }
  return removed;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return codeOf(err) === 'EPERM';
  }
}

/** A file over the limit a caller gave: its size, never its bytes. */
export interface TooLarge {
  tooLarge: true;
  size: number;
}

/**
 * `.copilot-state` and what is directly in it (and in `backups/`) are real folders and files: a
 * link there is refused before any step reads or writes anything, read-only steps included.
 */
export async function assertStateTreeReal(root: string): Promise<void> {
  const real = fsSync.realpathSync.native(root);
  const dir = path.join(real, STATE_DIR);
  const st = lstatOrNull(dir);
  if (!st) return;
  if (st.isSymbolicLink()) throw new LinkRefusedError(STATE_DIR, readlinkOrNull(dir));
  if (!st.isDirectory()) return;
  for (const [folder, rel] of [
    [dir, STATE_DIR],
    [path.join(dir, 'backups'), `${STATE_DIR}/backups`],
  ] as const) {
    let entries: Dirent[];
    try {
      entries = fsSync.readdirSync(folder, { withFileTypes: true });
    } catch {
      continue; // missing, or not a folder: the step that needs it says so
    }
    for (const entry of entries) {
      if (entry.isSymbolicLink()) throw new LinkRefusedError(`${rel}/${entry.name}`, readlinkOrNull(path.join(folder, entry.name)));
    }
  }
}

/** A fresh folder under the system's temp folder (the demo's sandbox repository). */
export function makeTempFolder(prefix: string): string {
  return fsSync.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * proper-lockfile's mkdir lock at `rel` (a folder), with every call it makes on disk checked here:
 * the folders on the way are real, the lock itself is never a link, and refreshing its mtime
 * (lutimes) never touches what a link points at.
 */
export async function lockFolder(
  root: string,
  rel: string,
  options: {
    stale: number;
    retries: number | { retries: number; minTimeout: number; maxTimeout: number };
    onCompromised: (err: Error) => void;
  },
): Promise<() => Promise<void>> {
  // Loaded here: a command that takes no lock does not load it (nor graceful-fs, which it loads).
  // Started first, so that it loads while the checks below wait on the disk.
  const loading = import('proper-lockfile');
  const p = await placeOf(root, rel);
  const { abs } = (await folderAndName(p, true))!;
  const checked = async (target: string) => {
    if (target !== abs) throw new Error(`the lock ${p.rel} was asked about another path`);
    await realFolders(p, p.parts.length - 1, false);
    const st = lstatOrNull(abs);
    if (st?.isSymbolicLink()) throw new LinkRefusedError(p.rel, readlinkOrNull(abs));
    return st;
  };
  type Callback<T> = (err: Error | null, value?: T) => void;
  const done = <T>(work: Promise<T>, cb: Callback<T>) =>
    void work.then(
      (v) => cb(null, v),
      (err: Error) => cb(err),
    );
  const adapter = {
    mkdir: (target: string, ...rest: unknown[]) =>
      done(
        checked(target).then(() => fsSync.mkdirSync(abs)),
        rest[rest.length - 1] as Callback<unknown>,
      ),
    rmdir: (target: string, cb: Callback<void>) =>
      done(
        checked(target).then(() => fsSync.rmdirSync(abs)),
        cb,
      ),
    stat: (target: string, cb: Callback<Stats>) =>
      done(
        checked(target).then((st) => st ?? fsSync.lstatSync(abs)),
        cb,
      ),
    utimes: (target: string, atime: Date, mtime: Date, cb: Callback<void>) =>
      done(
        checked(target).then(() => fs.lutimes(abs, atime, mtime)),
        cb,
      ),
    rmdirSync: (target: string) => {
      const st = fsSync.lstatSync(target);
      if (target === abs && st.isDirectory()) fsSync.rmdirSync(abs);
    },
    realpath: (target: string, cb: Callback<string>) => done(fs.realpath(target), cb),
  };
  // proper-lockfile keeps one registry entry per locked path: the key is the lock's own path without `.lock`.
  const { default: lockfile } = await loading;
  return lockfile.lock(abs.replace(/\.lock$/, ''), {
    lockfilePath: abs,
    realpath: false,
    fs: adapter as unknown as typeof fsSync,
    ...options,
  });
}

/**
 * `rel` can be written (or removed) from here: no folder on the way is a link or not a folder
 * (missing ones are made when writing), and the name is not a link (unless `linkAtName`: a link
 * the person chose to replace, removed itself, never followed) nor a folder, FIFO or device.
 * Checked before the person is asked, so that a link refuses the step with nothing changed.
 */
export async function assertWritable(root: string, rel: string, opts: { linkAtName?: boolean } = {}): Promise<void> {
  const p = await placeOf(root, rel);
  const at = await realFolders(p, p.parts.length - 1, false);
  if (at === null) return;
  const abs = path.join(at, p.name);
  const st = lstatOrNull(abs);
  if (!st || (opts.linkAtName && st.isSymbolicLink())) return;
  await regularOrMissing(p, abs);
}
