import { execFile } from 'node:child_process';
import fsSync from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PreconditionError } from '../common/errors.js';
import { gitDir } from './git-dir.js';

const run = promisify(execFile);
/** Synchronous, like safe-fs's look-ups: an lstat takes microseconds, its promise form a round trip through the thread pool. */
function exists(p: string): boolean {
  try {
    fsSync.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * A bare repository (its folder holds HEAD, objects/ and refs/, and no work tree): there are no
 * instruction files to migrate and nowhere to put `.copilot-state/`. Refused before anything is
 * read or written.
 */
export async function assertNotBare(root: string): Promise<void> {
  if (exists(path.join(root, '.git'))) return;
  const [head, objects, refs] = ['HEAD', 'objects', 'refs'].map((n) => exists(path.join(root, n)));
  if (head && objects && refs) {
    throw new PreconditionError(
      `${root} is a bare repository (git's own store, with no work tree): it has no files to migrate, and copilot-onboard writes nothing into it. Run it in a clone with a work tree (git clone ${root}).`,
    );
  }
}

const IN_PROGRESS: [string, string, string][] = [
  ['MERGE_HEAD', 'a merge is in progress', 'finish it (git commit) or abort it (git merge --abort)'],
  ['rebase-merge', 'a rebase is in progress', 'finish it (git rebase --continue) or abort it (git rebase --abort)'],
  ['rebase-apply', 'a rebase (or git am) is in progress', 'finish it (git rebase --continue) or abort it (git rebase --abort)'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick is in progress', 'finish it (git cherry-pick --continue) or abort it (git cherry-pick --abort)'],
  ['REVERT_HEAD', 'a revert is in progress', 'finish it (git revert --continue) or abort it (git revert --abort)'],
];

/** What git is in the middle of (a merge, a rebase, a cherry-pick, a revert), in words, or null. */
export async function operationInProgress(root: string): Promise<{ what: string; todo: string } | null> {
  const dir = await gitDir(root);
  if (dir === null) return null;
  for (const [name, what, todo] of IN_PROGRESS) {
    if (exists(path.join(dir, name))) return { what, todo };
  }
  return null;
}

/**
 * Refuses while git is in the middle of a merge or a rebase: the files hold conflict markers or
 * half-applied commits, and a migration (or a commit of it) would carry them along.
 */
export async function assertNoOperationInProgress(root: string): Promise<void> {
  const op = await operationInProgress(root);
  if (op)
    throw new PreconditionError(
      `Git says ${op.what} in this repository: its files are not in a state to migrate. First ${op.todo}, then propose again.`,
    );
}

/** Which of `paths` git ignores (`git check-ignore`); empty outside git. */
export async function ignoredByGit(root: string, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0 || (await gitDir(root)) === null) return new Set();
  // One path a line: a path with a newline in it is simply not reported as ignored.
  const asked = paths.filter((p) => !p.includes('\n'));
  try {
    const { stdout } = await run('git', ['-C', root, 'check-ignore', '--', ...asked], { encoding: 'utf8' });
    return new Set(stdout.split('\n').filter(Boolean));
  } catch (err) {
    // Exit 1: none of them is ignored.
    const out = (err as { stdout?: string }).stdout ?? '';
    return new Set(out.split('\n').filter(Boolean));
  }
}
