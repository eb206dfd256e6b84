import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, PreconditionError } from '../common/errors.js';
import { showLine, showPaths } from '../show/untrusted.js';

/**
 * What git says about the repository, through simple-git (loaded only when a step needs it).
 * Without git, or outside a work tree, everything returns null and the flow works the same.
 */
export interface GitInfo {
  /** Short hash and subject of HEAD, or null before the first commit. */
  head: string | null;
  branch: string | null;
  /** Tracked files among those asked about with changes not committed (staged or not). */
  modified: string[];
  /** Files among those asked about that git does not track. */
  untracked: string[];
}

async function open(root: string) {
  const { simpleGit } = await import('simple-git');
  return simpleGit({ baseDir: root, maxConcurrentProcesses: 2 });
}

/** Whether a `.git` stands in the folder or above it: without one, no git process is started at all. */
async function mayBeInWorkTree(root: string): Promise<boolean> {
  if (process.env.GIT_DIR) return true;
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    if (await fs.stat(path.join(dir, '.git')).then(() => true, () => false)) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

export async function gitInfo(root: string, paths: string[]): Promise<GitInfo | null> {
  if (!(await mayBeInWorkTree(root))) return null;
  try {
    const git = await open(root);
    // One git process answers both "is this a work tree" (it fails outside one) and where we are in it.
    const prefix = (await git.revparse(['--show-prefix'])).trim().replace(/\/$/, '');
    const toRepo = (p: string) => (prefix ? p.slice(prefix.length + 1) : p);
    let head: string | null = null;
    try {
      head = (await git.raw(['log', '-1', '--format=%h %s'])).trim() || null;
    } catch {
      head = null;
    }
    const status = await git.status(['--', '.']);
    const wanted = new Set(paths);
    const modified = status.files
      .filter((f) => f.index !== '?' && (f.index.trim() !== '' || f.working_dir.trim() !== ''))
      .map((f) => toRepo(f.path))
      .filter((p) => wanted.has(p));
    const untracked = status.not_added.map(toRepo).filter((p) => wanted.has(p));
    return { head, branch: status.current ?? null, modified: [...new Set(modified)].sort(), untracked: [...new Set(untracked)].sort() };
  } catch {
    return null;
  }
}

export function describeGit(info: GitInfo | null): string[] {
  if (!info) return ['Git: not a git work tree; the backup is the only way back.'];
  // A commit subject and file names come from the repository: shown escaped, on one line.
  const lines = [`Git: ${info.branch ? `branch ${showLine(info.branch)}, ` : ''}HEAD ${info.head ? showLine(info.head) : '(no commits yet)'}.`];
  if (info.modified.length > 0) lines.push(`Uncommitted changes in files the plan touches: ${showPaths(info.modified)}.`);
  if (info.untracked.length > 0) lines.push(`Not tracked by git (the backup still keeps them): ${showPaths(info.untracked)}.`);
  return lines;
}

/** Start a new branch for the migration; refuses when the branch exists. */
export async function createBranch(root: string, name: string): Promise<void> {
  const git = await open(root);
  const branches = await git.branchLocal();
  if (branches.all.includes(name)) throw new PreconditionError(`The branch ${name} exists already; name a new one.`);
  try {
    await git.checkoutLocalBranch(name);
  } catch (err) {
    throw new PreconditionError(`Could not create the branch ${name}: ${errorMessage(err)}`);
  }
}

/** Commit exactly the migrated files. Returns the new commit's short hash. */
export async function commitFiles(root: string, files: string[], message: string): Promise<string> {
  const git = await open(root);
  await git.raw(['add', '--all', '--', ...files]);
  // Use the person's identity; fall back to a named one only where git has none configured.
  const configured = (await git.raw(['config', 'user.email']).catch(() => '')).trim() !== '';
  const identity = configured ? [] : ['-c', 'user.name=copilot-onboard', '-c', 'user.email=copilot-onboard@localhost'];
  await git.raw([...identity, 'commit', '--no-verify', '-m', message, '--', ...files]);
  return (await git.revparse(['--short', 'HEAD'])).trim();
}
