import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The git folder of the work tree at `root`, or null outside git: the nearest `.git` folder, or the
 * folder a `.git` file names (`gitdir: …`, a linked worktree or a submodule). No git process is
 * started: this is asked on every propose, approve and migrate.
 */
export async function gitDir(root: string): Promise<string | null> {
  if (process.env.GIT_DIR) return path.resolve(root, process.env.GIT_DIR);
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const st = await fs.stat(dotGit).catch(() => null);
    if (st?.isDirectory()) return dotGit;
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(await fs.readFile(dotGit, 'utf8').catch(() => ''));
      return m ? path.resolve(dir, m[1]!) : null;
    }
    if (path.dirname(dir) === dir) return null;
  }
}
