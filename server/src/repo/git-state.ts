import fsSync from 'node:fs';
import path from 'node:path';
import { PreconditionError } from '../common/errors.js';
import { trustedGitDir } from './git-dir.js';
import { spawnGit } from './git-run.js';

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
  const git = await trustedGitDir(root);
  if (git === null) return null;
  for (const [name, what, todo] of IN_PROGRESS) {
    if (exists(path.join(git.dir, name))) return { what, todo };
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

/**
 * Which of `paths` git ignores, from one `git check-ignore --stdin -z` for any number of paths: names
 * go in and come back NUL-separated, so a name with a newline, a quote or a backslash is asked like
 * any other (a name starting with `:` is sent as `./:…`, not as pathspec magic). Empty outside git.
 *
 * Git answers each path in order (`--verbose --non-matching`: one record of four fields each, the
 * pattern empty when none matched, a `!pattern` when a negation un-ignores it). It stops with exit 128
 * at a path it cannot answer (inside a submodule, beyond a symbolic link): that path, and the others in
 * its folder or in the submodule git names, count as not ignored, as git cannot say; the others after
 * it are asked again.
 */
export async function ignoredByGit(root: string, paths: string[]): Promise<Set<string>> {
  const ignored = new Set<string>();
  if (paths.length === 0 || (await trustedGitDir(root)) === null) return ignored;
  let rest = paths;
  while (rest.length > 0) {
    const answer = await checkIgnore(root, rest);
    answer.ignored.forEach((yes, i) => yes && ignored.add(rest[i]!));
    if (answer.stoppedAt === null) break;
    // What stopped git stops it for every path in the same folder (a link on the way) or submodule: not asked again.
    const failed = rest[answer.stoppedAt]!;
    const within = answer.submodule ?? (failed.includes('/') ? failed.slice(0, failed.lastIndexOf('/')) : null);
    rest = rest.slice(answer.stoppedAt + 1).filter((p) => within === null || !p.startsWith(`${within}/`));
  }
  return ignored;
}

interface CheckIgnoreAnswer {
  /** For each path answered, in order: whether git ignores it. */
  ignored: boolean[];
  /** The index of the path git stopped at (exit 128), or null when it answered them all (or is not there). */
  stoppedAt: number | null;
  /** The submodule git named when it stopped, as a repository path. */
  submodule: string | null;
}

/** One `git check-ignore --stdin -z --verbose --non-matching` over `paths`. */
function checkIgnore(root: string, paths: string[]): Promise<CheckIgnoreAnswer> {
  return new Promise((resolve) => {
    const none: CheckIgnoreAnswer = { ignored: [], stoppedAt: null, submodule: null };
    // Git's own words are matched below (the submodule's name): in English (gitEnv sets LC_ALL=C), whatever the person's locale.
    const git = spawnGit(root, ['check-ignore', '--stdin', '-z', '--verbose', '--non-matching'], 'with input');
    const out: Buffer[] = [];
    let err = '';
    git.stdout.on('data', (c: Buffer) => out.push(c));
    git.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    git.on('error', () => resolve(none)); // no git: nothing is ignored
    git.stdin.on('error', () => {}); // git stopped reading (exit 128): the answer says where
    git.on('close', (code) => {
      const fields = Buffer.concat(out).toString('utf8').split('\0');
      const ignored: boolean[] = [];
      for (let i = 0; i + 3 < fields.length; i += 4) ignored.push(fields[i] !== '' && !fields[i + 2]!.startsWith('!'));
      // Exit 1: none of them is ignored. 128 about a path: stopped there. Any other failure: what was answered stands.
      const answered = code === 0 || code === 1 || code === 128 ? ignored : [];
      const atPath = code === 128 && /\bpathspec\b/i.test(err) && ignored.length < paths.length;
      const submodule = /is in submodule '(.+)'/.exec(err)?.[1] ?? null;
      resolve({ ignored: answered, stoppedAt: atPath ? ignored.length : null, submodule });
    });
    git.stdin.end(paths.map((p) => (p.startsWith(':') ? `./${p}\0` : `${p}\0`)).join(''));
  });
}
