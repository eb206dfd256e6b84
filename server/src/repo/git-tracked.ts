import { runGit } from './git-run.js';

/**
 * Which of `paths` git tracks (they are in its index: committed, or added), from one `git ls-files`
 * through the one place git is started (repo/git-run.ts: nothing the folder's configuration names
 * runs). Empty outside git. Literal pathspecs and -z: a name with `*`, a newline or a quote is a name.
 */
export async function trackedByGit(root: string, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const out = await runGit(root, ['--literal-pathspecs', 'ls-files', '-z', '--', ...paths]);
  return new Set((out ?? '').split('\0').filter(Boolean));
}
