import fs from 'node:fs/promises';
import path from 'node:path';
import { fileOperationDone } from './crash-point.js';
import { sha256 } from '../common/hash.js';
import { PreconditionError, UnsafePathError } from '../common/errors.js';
import { normalizeRepoPath, RepoPaths } from '../repo/repo-path.js';
import {
  assertWritable,
  NotAFileError,
  readResolvedFile,
  removeEmptyFolder,
  removeFile,
  removeLinkOrFile,
  writeFile,
} from '../repo/safe-fs.js';
import type { PlanOperation } from '../planning/plan.js';
import type { SourceInfo } from '../analysis/discovery/scan.js';
import { MAX_SOURCE_BYTES } from '../repo/source-file.js';
import { assertNoOperationInProgress } from '../repo/git-state.js';

/**
 * sha256 of a repository file now, or null when there is nothing of the repository's to read
 * there: it does not exist, it is a link (or behind a folder link) that leaves the repository, or
 * it is not a regular file. Such a source was left out of the plan with sha256 null, so it blocks
 * nothing while it stays so; reading it would follow the link out, and a FIFO would block.
 */
export async function currentSha(paths: RepoPaths, rel: string): Promise<string | null> {
  const normalized = normalizeRepoPath(rel);
  let abs: string;
  try {
    abs = await paths.safeAbs(normalized);
  } catch (err) {
    if (err instanceof UnsafePathError || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
  try {
    // A file over the read limit was left out of the plan with sha256 null: it stays so, unread.
    const bytes = await readResolvedFile(abs, normalized, { maxBytes: MAX_SOURCE_BYTES });
    return Buffer.isBuffer(bytes) ? sha256(bytes) : null;
  } catch (err) {
    if (err instanceof NotAFileError || ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return null;
    throw err;
  }
}

/**
 * The plan still describes the repository: every source it read and every file it will write has
 * the bytes it had when the plan was built, and every file it will write can be written without
 * going through a link (safe-fs.ts). Throws PreconditionError naming what changed, or
 * LinkRefusedError naming the link.
 */
export async function assertPlanCurrent(root: string, sources: SourceInfo[], ops: PlanOperation[]): Promise<void> {
  // A merge or rebase started since propose: the files are half-merged, and a migration would carry that along.
  await assertNoOperationInProgress(root);
  const paths = new RepoPaths(root);
  const changed: string[] = [];
  for (const s of sources) {
    if ((await currentSha(paths, s.path)) !== s.sha256) changed.push(s.path);
  }
  for (const op of ops) {
    if (changed.includes(op.path)) continue;
    const linkNow = op.replacesLink === undefined ? undefined : await currentLink(paths, op.path);
    if ((await currentSha(paths, op.path)) !== op.beforeSha256 || linkNow !== op.replacesLink) changed.push(op.path);
  }
  if (changed.length > 0) {
    throw new PreconditionError(
      `The plan is stale: ${changed.join(', ')} changed since it was proposed. Run propose again and approve the new plan.`,
    );
  }
  for (const op of ops) await assertWritable(root, op.path, { linkAtName: op.replacesLink !== undefined });
}

/** The target of a symlink at `rel`, as written, or null when `rel` is not a symlink. */
export async function currentLink(paths: RepoPaths, rel: string): Promise<string | null> {
  const abs = await paths.safeEntryAbs(rel);
  const st = await fs.lstat(abs).catch(() => null);
  return st?.isSymbolicLink() ? fs.readlink(abs) : null;
}

/** Apply the operations; each file is replaced atomically, through no link (safe-fs.ts). */
export async function applyOperations(root: string, ops: PlanOperation[], onFile?: (done: number, path: string) => void): Promise<void> {
  const paths = new RepoPaths(root);
  for (const [i, op] of ops.entries()) {
    if (op.replacesLink !== undefined) {
      await replaceLink(root, paths, op);
      onFile?.(i + 1, op.path);
      continue;
    }
    if (op.op === 'delete') {
      await removeFile(root, op.path);
      await removeEmptyFolders(root, path.posix.dirname(normalizeRepoPath(op.path)));
    } else await writeFile(root, op.path, op.content ?? '');
    fileOperationDone();
    onFile?.(i + 1, op.path);
  }
}

/** Replace the symlink itself (never what it points at) by a regular file with the operation's content. */
async function replaceLink(root: string, paths: RepoPaths, op: PlanOperation): Promise<void> {
  if ((await currentLink(paths, op.path)) !== op.replacesLink) {
    throw new PreconditionError(`${op.path} is no longer a symlink to ${op.replacesLink}; nothing was written to it. Run propose again.`);
  }
  await removeLinkOrFile(root, op.path);
  fileOperationDone();
  await writeFile(root, op.path, op.content ?? '');
  fileOperationDone();
}

/** A removed legacy file leaves no empty folder behind (`.cursor/rules/`); rollback makes it again. */
async function removeEmptyFolders(root: string, dir: string): Promise<void> {
  for (let d = dir; d !== '.' && d !== ''; d = path.posix.dirname(d)) {
    if (!(await removeEmptyFolder(root, d))) return;
  }
}
