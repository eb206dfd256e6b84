import { constants } from 'node:fs';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { normalizeRepoPath } from '../repo-path.js';
import { createAt, fsyncFolder, TEMP_PREFIX, unlinkQuietly, writeTemp } from './durable.js';
import { codeOf, kindOf, NotAFileError } from './entries.js';
import { listFolder } from './listing.js';
import { existingEntry, folderAndName, missing, placeOf, realFolders, regularOrMissing } from './places.js';
import { openRegular } from './reading.js';

/**
 * Changing the repository: writing, creating and removing files, folders and links, and their
 * modes, each at a checked place (places.ts), each file written whole (durable.ts).
 */

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;

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
  return createAt(dir, abs, data, opts.mode);
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

/** A fresh folder under the system's temp folder (the demo's sandbox repository). */
export function makeTempFolder(prefix: string): string {
  return fsSync.mkdtempSync(path.join(os.tmpdir(), prefix));
}
