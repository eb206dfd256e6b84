import fs from 'node:fs/promises';
import path from 'node:path';
import { trustedGitDir } from './git-dir.js';
import { openGit } from './git-run.js';
import { errorMessage, PreconditionError } from '../common/errors.js';
import { showLine, showPaths } from '../show/untrusted.js';
import { ignoredByGit } from './git-state.js';
import type { PlanOperation } from '../model/plan.js';

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
  /** HEAD names a commit, not a branch: a commit made now belongs to no branch. */
  detached?: boolean;
  /** Files among those asked about that git ignores (untracked ones only: git never ignores a tracked file). */
  ignored?: string[];
}

export async function gitInfo(root: string, paths: string[]): Promise<GitInfo | null> {
  // A `.git` git rejects, or one the folder brought inside its work tree, is no git (repo/git-dir.ts): the backup is the way back.
  if ((await trustedGitDir(root)) === null) return null;
  try {
    // Status hashes files whose stat changed: the folder's filters (and every other program its config names) are turned off.
    const git = await openGit(root, { drivers: true });
    // One git process answers both "is this a work tree" (it fails outside one) and where we are in it.
    const prefix = (await git.revparse(['--show-prefix'])).trim().replace(/\/$/, '');
    const toRepo = (p: string) => (prefix ? p.slice(prefix.length + 1) : p);
    let head: string | null = null;
    try {
      head = (await git.raw(['log', '-1', '--format=%h %s'])).trim() || null;
    } catch {
      head = null;
    }
    const status = await git.status(['--ignore-submodules=all', '--', '.']);
    const wanted = new Set(paths);
    const modified = status.files
      .filter((f) => f.index !== '?' && (f.index.trim() !== '' || f.working_dir.trim() !== ''))
      .map((f) => toRepo(f.path))
      .filter((p) => wanted.has(p));
    const untracked = status.not_added.map(toRepo).filter((p) => wanted.has(p));
    // -z and literal pathspecs: a name with a newline or a quote comes back as it is, `*` or `:(…)` in a name is no pattern.
    const listed = await git.raw([LITERAL, 'ls-files', '-z', '--', ...paths]).catch(() => '');
    const tracked = new Set(listed.split('\0').filter(Boolean));
    const ignored = [
      ...(await ignoredByGit(
        root,
        paths.filter((p) => !tracked.has(p)),
      )),
    ].sort();
    return {
      head,
      branch: status.detached ? null : (status.current ?? null),
      modified: [...new Set(modified)].sort(),
      untracked: [...new Set(untracked)].sort(),
      detached: status.detached && head !== null,
      ignored,
    };
  } catch {
    return null;
  }
}

/** Paths given after `--` are names, never patterns or magic (`*.md`, `:(exclude)x`): git's own option for it. */
const LITERAL = '--literal-pathspecs';

export function describeGit(info: GitInfo | null): string[] {
  if (!info) return ['Git: not a git work tree; the backup is the only way back.'];
  // A commit subject and file names come from the repository: shown escaped, on one line.
  const lines = [
    `Git: ${info.detached ? 'detached HEAD (no branch), ' : info.branch ? `branch ${showLine(info.branch)}, ` : ''}HEAD ${info.head ? showLine(info.head) : '(no commits yet)'}.`,
  ];
  if (info.modified.length > 0) lines.push(`Uncommitted changes in files the plan touches: ${showPaths(info.modified)}.`);
  if (info.untracked.length > 0) lines.push(`Not tracked by git (the backup still keeps them): ${showPaths(info.untracked)}.`);
  return lines;
}

/** Start a new branch for the migration; refuses when the branch exists. */
export async function createBranch(root: string, name: string): Promise<void> {
  const git = await openGit(root);
  const branches = await git.branchLocal();
  if (branches.all.includes(name)) throw new PreconditionError(`The branch ${name} exists already; name a new one.`);
  try {
    await git.checkoutLocalBranch(name);
  } catch (err) {
    throw new PreconditionError(`Could not create the branch ${name}: ${errorMessage(err)}`);
  }
}

/**
 * The reviewable part of `.copilot-state/` (see state-paths.ts): what `--commit` commits with the
 * migrated files. decisions.json is what `check` reads of the person's decisions (legacy files kept
 * on purpose): without it in the commit, a fresh clone's check reports what the person's own hides.
 */
export const TRACE_PATHS = [
  '.copilot-state/.gitignore',
  '.copilot-state/decisions.json',
  '.copilot-state/elicitation-traces',
  '.copilot-state/sampling-traces',
  '.copilot-state/trace-chain.json',
];

/**
 * What `--commit` will and will not commit, known before anything is written: a removed file git
 * does not track, and a file git ignores, are no change a commit can hold; on a detached HEAD the
 * commit would belong to no branch. The traces go in unless git ignores them.
 */
export interface CommitPlan {
  files: string[];
  /** Files the migration changes that the commit cannot hold, with the reason in words. */
  left: { path: string; why: string }[];
}

export function planCommit(info: GitInfo, operations: Pick<PlanOperation, 'op' | 'path'>[]): CommitPlan {
  const untracked = new Set(info.untracked);
  const ignored = new Set(info.ignored ?? []);
  const files: string[] = [];
  const left: CommitPlan['left'] = [];
  for (const o of operations) {
    if (ignored.has(o.path)) left.push({ path: o.path, why: 'git ignores it' });
    else if (o.op === 'delete' && untracked.has(o.path))
      left.push({ path: o.path, why: 'git does not track it, so its removal is no change a commit can hold (the backup keeps it)' });
    else files.push(o.path);
  }
  return { files, left };
}

export function describeCommit(info: GitInfo, plan: CommitPlan, branch: string | undefined): string[] {
  const files = plan.files.length === 0 ? 'no migrated file (none is a change git can hold), only' : 'the migrated files and';
  const where = branch ? ` on the new branch ${showLine(branch)}` : info.branch ? ` on branch ${showLine(info.branch)}` : '';
  const lines = [
    `With --commit: ${files} the traces under .copilot-state/ (this migrate's trace included) are committed${where}, with a message that names the trace.`,
  ];
  for (const l of plan.left) lines.push(`Not in the commit: ${showPaths([l.path])}: ${l.why}.`);
  return lines;
}

/** The commits `--commit` made for a migration (their message names its id), newest first, with the branches that hold them. */
export async function commitsOfMigration(root: string, migrationId: string): Promise<{ commit: string; branches: string[] }[]> {
  if ((await trustedGitDir(root)) === null) return [];
  try {
    const git = await openGit(root);
    const hashes = (await git.raw(['log', '--all', '--fixed-strings', `--grep=Migration ${migrationId}`, '--format=%h']))
      .split('\n')
      .filter(Boolean);
    const out: { commit: string; branches: string[] }[] = [];
    for (const commit of hashes) {
      const branches = (await git.raw(['branch', '--contains', commit, '--format=%(refname:short)'])).split('\n').filter(Boolean);
      out.push({ commit, branches });
    }
    return out;
  } catch {
    return [];
  }
}

/** The traces among TRACE_PATHS that exist and that git does not ignore. */
export async function committableTraces(root: string): Promise<string[]> {
  const present: string[] = [];
  for (const p of TRACE_PATHS)
    if (
      await fs.stat(path.join(root, p)).then(
        () => true,
        () => false,
      )
    )
      present.push(p);
  const ignored = await ignoredByGit(root, present);
  const candidates = present.filter((p) => !ignored.has(p));
  if (candidates.length === 0) return [];
  // One listing for all: a path is committable when `git add --all` of it would take anything, a file
  // git tracks (changed, or gone) or one it does not ignore. A folder whose files git all ignores
  // (sampling-traces/ holding only the read-only chain, kept out by its own .gitignore) matches no
  // file, and `git add` of it fails.
  const git = await openGit(root);
  const listed = (
    await git.raw([LITERAL, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...candidates]).catch(() => '')
  )
    .split('\0')
    .filter(Boolean);
  return candidates.filter((p) => listed.some((f) => f === p || f.startsWith(`${p}/`)));
}

/** Commit exactly the migrated files (and the traces given with them). Returns the new commit's short hash. */
export async function commitFiles(root: string, files: string[], message: string): Promise<string> {
  const git = await openGit(root, { drivers: true });
  await git.raw([LITERAL, 'add', '--all', '--', ...files]);
  // Use the person's identity; fall back to a named one only where git has none configured.
  const configured = (await git.raw(['config', 'user.email']).catch(() => '')).trim() !== '';
  const identity = configured ? [] : ['-c', 'user.name=copilot-onboard', '-c', 'user.email=copilot-onboard@localhost'];
  await git.raw([LITERAL, ...identity, 'commit', '--no-verify', '-m', message, '--', ...files]);
  return (await git.revparse(['--short', 'HEAD'])).trim();
}
