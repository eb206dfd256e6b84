import fs from 'node:fs';
import path from 'node:path';
import { ignoredByGit } from '../../repo/git-state.js';
import { isInside, type RepoPaths } from '../../repo/repo-path.js';
import { inSkippedDir } from './discover.js';

/**
 * What stands at the repository paths `@path` imports name, found for all of them at once: a target
 * that does not exist is known so without asking git; the others' ignore status comes from one
 * `git check-ignore` over all of them (repo/git-state.ts), not one process per import line.
 */
export type TargetState =
  /** Nothing there (or a folder on the way is a file). */
  | 'missing'
  /** It resolves, through a link, to a place outside the repository. */
  | 'outside'
  /** Git ignores it or the file it resolves to, or that file lies in `.git`, `node_modules` and the like. */
  | 'ignored'
  /** In the repository and not ignored: it may be read. */
  | 'readable';

interface Resolved {
  /** The repository path the target resolves to, with no link on the way. */
  real: string;
  /** The target as named, when git can be asked about it too: it is a link itself, in a folder with no link on the way. */
  link: string | null;
}

/** Where a target resolves to: nowhere, outside, or a repository path (and whether its own name can be asked). */
export function resolveTarget(paths: RepoPaths, realRoot: string, target: string): 'missing' | 'outside' | Resolved {
  const repoPath = (abs: string) => path.relative(realRoot, abs).split(path.sep).join('/');
  let real: string;
  let realFolder: string;
  try {
    const abs = paths.abs(target);
    real = fs.realpathSync.native(abs);
    realFolder = fs.realpathSync.native(path.dirname(abs));
  } catch {
    return 'missing'; // ENOENT, ENOTDIR, a name the file system refuses
  }
  if (!isInside(realRoot, real)) return 'outside';
  if (repoPath(real) === target) return { real: target, link: null };
  // Git refuses a path beyond a link (and would stop there): only a link in a real folder is asked by its own name.
  const folder = path.posix.dirname(target);
  return { real: repoPath(real), link: repoPath(realFolder) === (folder === '.' ? '' : folder) ? target : null };
}

/** A path in a folder that never holds the repository's own instructions, or in git's or copilot-onboard's own. */
export const inToolFolder = (rel: string): boolean =>
  inSkippedDir(rel) || rel.split('/').some((seg) => seg === '.git' || seg === '.copilot-state');

/**
 * Settle `targets` into `states`. A link is judged by both its own name and the file it resolves to:
 * `@notes.md`, a link to the ignored `CLAUDE.local.md` (or to `.git/config`), is ignored.
 */
export async function settleTargets(paths: RepoPaths, targets: Iterable<string>, states: Map<string, TargetState>): Promise<void> {
  const realRoot = await paths.realRoot();
  const ask = new Map<string, Resolved>();
  for (const target of targets) {
    const at = resolveTarget(paths, realRoot, target);
    if (at === 'missing' || at === 'outside') states.set(target, at);
    else if (inToolFolder(at.real)) states.set(target, 'ignored');
    else ask.set(target, at);
  }
  if (ask.size === 0) return;
  const names = [...ask.values()].flatMap(({ real, link }) => (link === null ? [real] : [real, link]));
  const ignored = await ignoredByGit(paths.root, [...new Set(names)]);
  for (const [target, { real, link }] of ask)
    states.set(target, ignored.has(real) || (link !== null && ignored.has(link)) ? 'ignored' : 'readable');
}
