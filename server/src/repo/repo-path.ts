import path from 'node:path';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import { UnsafePathError } from '../common/errors.js';

/**
 * The one place that turns repository-relative paths into absolute ones.
 * Every read and write of a repository file goes through here.
 */

/**
 * On Windows a backslash separates folders as `/` does, and `C:` starts an absolute path. Elsewhere
 * both are characters a name may hold: `a\b.md` is one file, `C:/AGENTS.md` a folder named `C:`,
 * and a repository may hold them (git lists them); read as separators they would name another file.
 */
const WINDOWS = process.platform === 'win32';

/**
 * What normalizing changes or refuses: a NUL, a leading slash, an empty segment (`a//b`, a trailing
 * slash), a `.` or `..` segment; on Windows also a backslash and a drive.
 */
const NOT_NORMAL = WINDOWS ? /[\0\\]|^[a-zA-Z]:|^\/|\/$|\/\/|(^|\/)\.\.?(\/|$)/ : /\0|^\/|\/$|\/\/|(^|\/)\.\.?(\/|$)/;

/** Normalise a repository-relative path to forward slashes; refuse absolute paths, `..`, NUL. */
export function normalizeRepoPath(rel: string): string {
  // Most paths are already normal (a scan and every write ask for hundreds): nothing to split and join.
  if (rel !== '' && !NOT_NORMAL.test(rel)) return rel;
  if (rel.includes('\0')) throw new UnsafePathError(rel, 'contains a NUL byte');
  const slashed = WINDOWS ? rel.replace(/\\/g, '/') : rel;
  if (slashed.startsWith('/') || (WINDOWS && /^[a-zA-Z]:/.test(slashed))) throw new UnsafePathError(rel, 'is absolute');
  const parts = slashed.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) throw new UnsafePathError(rel, 'is empty');
  if (parts.some((p) => p === '..')) throw new UnsafePathError(rel, 'climbs out with ..');
  return parts.join('/');
}

/** True when `child` is `parent` or lies below it (not merely shares a name prefix, nor starts with `..`: `..x/` is inside). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export class RepoPaths {
  private realRootPromise: Promise<string> | undefined;

  constructor(readonly root: string) {}

  realRoot(): Promise<string> {
    // The same realpath, taken synchronously: microseconds, where its promise form is a round trip
    // through the thread pool that a scan waits for before its first read. A failure still rejects.
    this.realRootPromise ??= new Promise((resolve) => resolve(fsSync.realpathSync.native(this.root)));
    return this.realRootPromise;
  }

  /** Absolute path for a repository-relative one, without touching the disk. */
  abs(rel: string): string {
    return path.join(this.root, ...normalizeRepoPath(rel).split('/'));
  }

  /**
   * Absolute path that is safe to write, replace or remove: safe as for reading, and not itself a
   * symlink, since writing through a link would change the file it points at.
   */
  async safeWriteAbs(rel: string): Promise<string> {
    const abs = await this.safeAbs(rel);
    const st = await fs.lstat(this.abs(rel)).catch(() => null);
    if (st?.isSymbolicLink()) throw new UnsafePathError(rel, 'is a symlink; copilot-onboard does not write through links');
    return abs;
  }

  /**
   * Absolute path of the entry itself, not of what it links to: its folder is safe as for reading
   * (inside the repository through any link), and a symlink at the end is not followed.
   */
  async safeEntryAbs(rel: string): Promise<string> {
    const parts = normalizeRepoPath(rel).split('/');
    const name = parts.pop()!;
    const folder = parts.length === 0 ? await this.realRoot() : await this.safeAbs(parts.join('/'));
    return path.join(folder, name);
  }

  /**
   * Absolute path that is safe to read or write: every existing component, resolved through
   * symlinks, stays inside the repository.
   */
  async safeAbs(rel: string): Promise<string> {
    const normalized = normalizeRepoPath(rel);
    const realRoot = await this.realRoot();
    let probe = path.join(realRoot, ...normalized.split('/'));
    // Resolve the deepest existing ancestor: a symlinked folder on the way counts as well.
    const missing: string[] = [];
    for (;;) {
      try {
        const real = await fs.realpath(probe);
        if (!isInside(realRoot, real)) throw new UnsafePathError(rel, 'resolves outside the repository through a symlink');
        return path.join(real, ...missing);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        missing.unshift(path.basename(probe));
        const parent = path.dirname(probe);
        if (parent === probe) throw new UnsafePathError(rel, 'has no existing ancestor');
        probe = parent;
      }
    }
  }
}
