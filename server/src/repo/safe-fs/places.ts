import fsSync, { type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { normalizeRepoPath } from '../repo-path.js';
import { STATE_DIR, STATE_GITIGNORE, stateGitignoreText } from '../state-paths.js';
import { createAt, fsyncFolder } from './durable.js';
import { codeOf, kindOf, LinkRefusedError, lstatOrNull, NotAFileError, NotAFolderError, readlinkOrNull } from './entries.js';

/**
 * Links and path checks: a repository path becomes a place, each folder on the way from the root
 * checked to be a real folder (lstat, never a symlink, even one that stays inside; a missing one made
 * with mkdir, one at a time, when writing), and the final name checked for what it is.
 */

export interface Place {
  /** The root as the caller named it. */
  root: string;
  /** The root with every link resolved: the walk starts here. */
  real: string;
  rel: string;
  parts: string[];
  name: string;
}

export async function placeOf(root: string, rel: string): Promise<Place> {
  const norm = normalizeRepoPath(rel);
  const parts = norm.split('/');
  return { root, real: fsSync.realpathSync.native(root), rel: norm, parts, name: parts[parts.length - 1]! };
}

/**
 * The absolute path of the first `count` components of the place, each checked to be a real folder.
 * `create` makes a missing one (mkdir, one at a time); otherwise a missing one gives null, and so
 * does a non-folder when `lenient` (nothing can be below it).
 */
export async function realFolders(p: Place, count: number, create: boolean, lenient = false): Promise<string | null> {
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
    const ignore = await placeOf(p.root, STATE_GITIGNORE);
    const { dir, abs: at } = (await folderAndName(ignore, true))!;
    await createAt(dir, at, stateGitignoreText());
  }
}

/** The folder of the place (made when missing), and the absolute path of its final name. */
export async function folderAndName(p: Place, create: boolean): Promise<{ dir: string; abs: string } | null> {
  const dir = await realFolders(p, p.parts.length - 1, create);
  return dir === null ? null : { dir, abs: path.join(dir, p.name) };
}

/** The final name, checked: missing (null), or a regular file; a link or anything else is refused. */
export async function regularOrMissing(p: Place, abs: string): Promise<Stats | null> {
  const st = lstatOrNull(abs);
  if (!st) return null;
  if (st.isSymbolicLink()) throw new LinkRefusedError(p.rel, readlinkOrNull(abs));
  if (!st.isFile()) throw new NotAFileError(p.rel, kindOf(st));
  return st;
}

/**
 * The entry at `rel` in its real folder, or null when it (or a folder on the way) is not there; a
 * link at `rel` is refused unless `link: 'allow'` (then it is the link itself, never followed).
 */
export async function existingEntry(
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

export function missing(p: Place): never {
  throw Object.assign(new Error(`${p.rel} does not exist`), { code: 'ENOENT' });
}

/**
 * `.copilot-state` and what is directly in it (and in `backups/`) are real folders and files: a
 * link there is refused before any step reads or writes anything, read-only steps included.
 * Returns whether `.copilot-state/` is there (a call that finds it missing, and there after its
 * step, made it: steps/tool-call.ts says so).
 */
export async function assertStateTreeReal(root: string): Promise<boolean> {
  const real = fsSync.realpathSync.native(root);
  const dir = path.join(real, STATE_DIR);
  const st = lstatOrNull(dir);
  if (!st) return false;
  if (st.isSymbolicLink()) throw new LinkRefusedError(STATE_DIR, readlinkOrNull(dir));
  if (!st.isDirectory()) return true;
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
  return true;
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
