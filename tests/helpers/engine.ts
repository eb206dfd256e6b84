import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../server/src/common/hash.js';
import type { PlanOperation } from '../../server/src/planning/plan.js';

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
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (dir === root && (entry.name === '.git' || entry.name === '.copilot-state')) continue;
      const abs = path.join(dir, entry.name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (entry.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(abs)}`;
      else if (entry.isDirectory()) {
        out[`${rel}/`] = `dir ${modeOf(abs).toString(8)}`;
        walk(abs);
      } else out[rel] = `${modeOf(abs).toString(8)} ${sha256(fs.readFileSync(abs))}`;
    }
  };
  walk(root);
  return out;
}
