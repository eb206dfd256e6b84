import fsSync, { type Stats } from 'node:fs';
import { PreconditionError, UnsafePathError } from '../../common/errors.js';

/** What an entry on disk is, and the refusals that name it: the words every other part of safe-fs uses. */

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

export const codeOf = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

/*
 * The calls that only look at or rename entries (realpath, lstat, readlink, mkdir, rename, link,
 * unlink, readdir) and the reads of the tool's own small files are synchronous: each takes
 * microseconds in the kernel, where its promise form costs a round trip through the thread pool
 * (a trace write made about seventy). What waits for the disk (writing a file's bytes and every
 * fsync) stays asynchronous, so a server's other sessions are not held up by it.
 */

export function lstatOrNull(abs: string): Stats | null {
  // Not `throwIfNoEntry: false`: only ENOENT is "missing" here, on every Node (ENOTDIR still throws).
  try {
    return fsSync.lstatSync(abs);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return null;
    throw err;
  }
}

export function readlinkOrNull(abs: string): string | null {
  try {
    return fsSync.readlinkSync(abs);
  } catch {
    return null;
  }
}

/** A file over the limit a caller gave: its size, never its bytes. */
export interface TooLarge {
  tooLarge: true;
  size: number;
}
