/**
 * Which of `paths` git tracks (they are in its index: committed, or added), from one `git ls-files`.
 * Empty outside git. Literal pathspecs and -z: a name with `*`, a newline or a quote is a name. No
 * hook, filter or fsmonitor of the folder's own configuration runs for it.
 */
export function trackedByGit(root: string, paths: string[]): Promise<Set<string>> {
  const { execFile } = process.getBuiltinModule('node:child_process');
  if (paths.length === 0) return Promise.resolve(new Set());
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', root, '-c', 'core.fsmonitor=false', '--literal-pathspecs', 'ls-files', '-z', '--', ...paths],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
      (err, stdout) => resolve(err ? new Set() : new Set(stdout.split('\0').filter(Boolean))),
    );
  });
}
