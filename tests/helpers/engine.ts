import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../server/src/common/hash.js';
import type { PlanOperation } from '../../server/src/planning/plan.js';
import { eachEntry } from './sandbox.js';

/** An operation on `rel` as a plan gives it (null content: a delete), its before and after hashes taken from the disk. */
export function operation(repo: string, rel: string, content: string | null): PlanOperation {
  const abs = path.join(repo, rel);
  const before = fs.existsSync(abs) ? sha256(fs.readFileSync(abs)) : null;
  return {
    op: content === null ? 'delete' : before === null ? 'create' : 'update',
    path: rel,
    content,
    beforeSha256: before,
    afterSha256: content === null ? null : sha256(content),
    diff: '',
  };
}

/** The permission bits of a file or folder. */
export const modeOf = (abs: string): number => fs.statSync(abs).mode & 0o7777;

/** Every entry under `root` but .git, with its mode (folders too) and, for a file, its sha256: what a faithful undo keeps. */
export function treeWithModes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  eachEntry(root, (rel, abs, entry) => {
    if (entry.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(abs)}`;
    else if (entry.isDirectory()) out[`${rel}/`] = `dir ${modeOf(abs).toString(8)}`;
    else out[rel] = `${modeOf(abs).toString(8)} ${sha256(fs.readFileSync(abs))}`;
  });
  return out;
}
