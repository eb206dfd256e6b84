import fs from 'node:fs';
import path from 'node:path';
import { ignoredByGit } from '../repo/git-state.js';
import { isInside, type RepoPaths } from '../repo/repo-path.js';
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

/** Where a target resolves to: nowhere, outside, or a repository path with no link on the way. */
function resolveTarget(paths: RepoPaths, realRoot: string, target: string): 'missing' | 'outside' | string {
  let real: string;
  try {
    real = fs.realpathSync.native(paths.abs(target));
  } catch {
    return 'missing'; // ENOENT, ENOTDIR, a name the file system refuses
  }
  return isInside(realRoot, real) ? path.relative(realRoot, real).split(path.sep).join('/') : 'outside';
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
  const ask = new Map<string, string>(); // target -> the repository path it resolves to
  for (const target of targets) {
    const at = resolveTarget(paths, realRoot, target);
    if (at === 'missing' || at === 'outside') states.set(target, at);
    else if (inToolFolder(at)) states.set(target, 'ignored');
    else ask.set(target, at);
  }
  if (ask.size === 0) return;
  const ignored = await ignoredByGit(paths.root, [...new Set([...ask.keys(), ...ask.values()])]);
  for (const [target, real] of ask) states.set(target, ignored.has(target) || ignored.has(real) ? 'ignored' : 'readable');
}
