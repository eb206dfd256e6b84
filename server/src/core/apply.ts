import fs from 'fs-extra';
import path from 'node:path';
import { fileOperationDone } from './crash-point.js';
import { sha256 } from './hash.js';
import { PreconditionError } from './errors.js';
import { RepoPaths } from './repo-path.js';
import { writeAtomic } from '../state/atomic.js';
import type { PlanOperation } from './plan.js';
import type { SourceInfo } from './scan.js';

/** sha256 of a repository file now, or null when it does not exist. */
export async function currentSha(paths: RepoPaths, rel: string): Promise<string | null> {
  try {
    return sha256(await fs.readFile(await paths.safeAbs(rel)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The plan still describes the repository: every source it read and every file it will write has
 * the bytes it had when the plan was built. Throws PreconditionError naming what changed.
 */
export async function assertPlanCurrent(root: string, sources: SourceInfo[], ops: PlanOperation[]): Promise<void> {
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
    throw new PreconditionError(`The plan is stale: ${changed.join(', ')} changed since it was proposed. Run propose again and approve the new plan.`);
  }
}

/** The target of a symlink at `rel`, as written, or null when `rel` is not a symlink. */
export async function currentLink(paths: RepoPaths, rel: string): Promise<string | null> {
  const abs = await paths.safeEntryAbs(rel);
  const st = await fs.lstat(abs).catch(() => null);
  return st?.isSymbolicLink() ? fs.readlink(abs) : null;
}

/** Apply the operations; each file is replaced atomically. */
export async function applyOperations(root: string, ops: PlanOperation[], onFile?: (done: number, path: string) => void): Promise<void> {
  const paths = new RepoPaths(root);
  for (const [i, op] of ops.entries()) {
    if (op.replacesLink !== undefined) {
      await replaceLink(paths, op);
      onFile?.(i + 1, op.path);
      continue;
    }
    const abs = await paths.safeWriteAbs(op.path);
    if (op.op === 'delete') {
      await fs.remove(abs);
      await removeEmptyFolders(path.dirname(abs), await paths.realRoot());
    } else await writeAtomic(abs, op.content ?? '');
    fileOperationDone();
    onFile?.(i + 1, op.path);
  }
}

/** Replace the symlink itself (never what it points at) by a regular file with the operation's content. */
async function replaceLink(paths: RepoPaths, op: PlanOperation): Promise<void> {
  if ((await currentLink(paths, op.path)) !== op.replacesLink) {
    throw new PreconditionError(`${op.path} is no longer a symlink to ${op.replacesLink}; nothing was written to it. Run propose again.`);
  }
  const abs = await paths.safeEntryAbs(op.path);
  await fs.unlink(abs);
  fileOperationDone();
  await writeAtomic(abs, op.content ?? '');
  fileOperationDone();
}

/** A removed legacy file leaves no empty folder behind (`.cursor/rules/`); rollback makes it again. */
async function removeEmptyFolders(dir: string, root: string): Promise<void> {
  for (let d = dir; d !== root && d.startsWith(`${root}${path.sep}`); d = path.dirname(d)) {
    if ((await fs.readdir(d)).length > 0) return;
    await fs.rmdir(d);
  }
}
