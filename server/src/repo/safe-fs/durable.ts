import { constants } from 'node:fs';
import fsSync from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { codeOf } from './entries.js';

/**
 * Writing whole or not at all, and waiting for the disk: a temporary file created no-follow and
 * exclusive in the folder of the name it becomes, fsynced, then renamed or linked over the name; the
 * folder fsynced after. Nothing here checks a path: the callers (writing.ts, places.ts) give a folder
 * they have checked.
 */

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY } = constants;

/** Temporary files are named so, in the folder of the file they become (and `.copilot-state/.gitignore` ignores them). */
export const TEMP_PREFIX = '.copilot-tmp-';

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

export function closeQuietly(fd: number): void {
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
export async function writeTemp(dir: string, data: string | Uint8Array, mode?: number, durable = true): Promise<string> {
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

export function unlinkQuietly(abs: string): void {
  try {
    fsSync.unlinkSync(abs);
  } catch {
    // already gone, or the error that matters is the one being thrown
  }
}

/**
 * Create the name `abs` in the checked folder `dir`, whole, only when no entry of that name exists
 * (a link included, which is never followed): written to a temporary file, then hard-linked to its
 * name. False when the name is taken.
 */
export async function createAt(dir: string, abs: string, data: string | Uint8Array, mode?: number): Promise<boolean> {
  const tmp = await writeTemp(dir, data, mode);
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
