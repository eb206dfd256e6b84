import fsSync from 'node:fs';
import path from 'node:path';
import { runGit } from './git-run.js';

/**
 * The git folder of the work tree at `root`, as git itself names it, or null when there is none
 * this tool trusts. What a folder brings must not pass for a clone's git folder: a `.git` that git
 * rejects (a plain folder without HEAD, a `.git` file naming nothing git accepts) is outside git, and
 * so is a git folder that lies inside the work tree anywhere but `<top>/.git` as a real folder (a
 * `.git` link, or a `.git` file naming `.copilot-state/g`). A git folder outside the work tree
 * (a linked worktree, a submodule) is named by a `.git` file, never a link.
 *
 * git is asked once per folder and process (`git rev-parse`), and again when the nearest `.git`
 * entry changes: this is asked by every step that reads or seals state.
 */
export interface GitFolder {
  /** The git folder, absolute. */
  dir: string;
  /** The top of the work tree, absolute. */
  top: string;
}

const known = new Map<string, { stamp: string; folder: GitFolder | null }>();

/** The nearest `.git` entry at or above `root` and its stamp (lstat: the entry itself, never what a link points at), or null. */
export function nearestDotGit(root: string): { path: string; stamp: string } | null {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const st = lstat(dotGit);
    if (st) return { path: dotGit, stamp: `${dotGit}\0${st.ino}\0${st.mode}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}` };
    if (path.dirname(dir) === dir) return null;
  }
}

function lstat(p: string): fsSync.Stats | null {
  try {
    return fsSync.lstatSync(p);
  } catch {
    return null;
  }
}

function real(p: string): string | null {
  try {
    return fsSync.realpathSync(p);
  } catch {
    return null;
  }
}

export async function trustedGitDir(root: string): Promise<GitFolder | null> {
  const near = nearestDotGit(root);
  if (!near) return null;
  const key = path.resolve(root);
  const seen = known.get(key);
  if (seen && seen.stamp === near.stamp) return seen.folder;
  const folder = judged(root, await runGit(root, ['rev-parse', '--absolute-git-dir', '--show-toplevel']));
  known.set(key, { stamp: near.stamp, folder });
  return folder;
}

/** What git answered, judged: the git folder when this tool may keep a key in it. */
function judged(root: string, answer: string | null): GitFolder | null {
  const [dirLine, topLine] = (answer ?? '').split('\n');
  if (!dirLine || !topLine) return null; // git rejects it, or a bare repository: outside git
  const top = real(topLine);
  const dir = real(dirLine);
  const here = real(root);
  if (!top || !dir || !here) return null;
  const within = (p: string, folder: string) => p === folder || p.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
  if (!within(here, top)) return null; // core.worktree names another folder
  const dotGit = lstat(path.join(top, '.git'));
  if (dir === path.join(top, '.git')) return dotGit?.isDirectory() ? { dir, top } : null; // a link named .git is refused
  if (within(dir, top)) return null; // a git folder the work tree itself holds
  return dotGit?.isFile() ? { dir, top } : null; // a linked worktree or a submodule names its git folder in a .git file
}
