import fs from 'node:fs/promises';
import path from 'node:path';
import { PreconditionError } from '../common/errors.js';
import { assertNoOperationInProgress, ignoredByGit } from '../repo/git-state.js';
import { normalizeRepoPath } from '../repo/repo-path.js';
import { MAX_SOURCE_BYTES } from '../repo/source-file.js';
import { splitText } from '../common/text.js';
import type { ScanResult } from '../analysis/discovery/scan.js';
import type { PlanOperation } from './plan.js';

/**
 * What migrate would refuse, checked at propose, so that no plan is offered that cannot be applied.
 * Each refusal says what is in the way and what to do; the person fixes it and proposes again.
 *
 * Called from steps/read-only.ts (propose): `assertCanPropose` before the scan,
 * `assertSourcesClean` and `assertPlanApplies` once the plan is built.
 */

/** Longest file-name component (bytes) and whole path (bytes) the plan may write: below Linux's and macOS's limits. */
export const MAX_NAME_BYTES = 255;
export const MAX_PATH_BYTES = 4000;

/** Git is in the middle of a merge, rebase, cherry-pick or revert: refuse before reading anything. */
export async function assertCanPropose(root: string): Promise<void> {
  await assertNoOperationInProgress(root);
}

/** A source that still holds a merge's conflict markers is never copied into Copilot's files. */
export function assertSourcesClean(scan: ScanResult): void {
  const found: string[] = [];
  for (const [p, file] of scan.files) {
    const line = conflictMarkerLine(file.text);
    if (line !== null) found.push(`${p} (line ${line})`);
  }
  if (found.length > 0) {
    const shown = found.slice(0, 5).join(', ') + (found.length > 5 ? ` and ${found.length - 5} more` : '');
    throw new PreconditionError(
      `Propose refused: ${shown} still ${found.length > 1 ? 'hold' : 'holds'} merge conflict markers (<<<<<<<, =======, >>>>>>>). Resolve the conflict, then propose again.`,
    );
  }
}

/** The 1-based line of a `<<<<<<< ` that a `=======` and a `>>>>>>> ` follow, or null. */
export function conflictMarkerLine(text: string): number | null {
  const start = text.search(/^<{7}(?: |$)/m);
  if (start < 0) return null;
  const rest = text.slice(start);
  if (!/^={7}\r?$/m.test(rest) || !/^>{7}(?: |\r?$)/m.test(rest)) return null;
  return text.slice(0, start).split(/\r\n|\r|\n/).length;
}

/**
 * Every file the plan writes can be written: no file where a folder must be (`.github` a file),
 * no folder where the file goes (the Copilot file a folder), no name too long for the file system,
 * and no existing file the scan did not read (git ignores it) that a "create" would overwrite.
 */
export async function assertPlanApplies(root: string, ops: PlanOperation[]): Promise<void> {
  const problems: string[] = [];
  const inTheWay = new Map<string, { what: string; blocks: string[] }>();
  const mayExist: string[] = [];
  for (const op of ops) {
    if (op.op === 'delete') continue;
    const rel = normalizeRepoPath(op.path);
    const tooLong =
      Buffer.byteLength(path.join(root, rel)) > MAX_PATH_BYTES || rel.split('/').some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES);
    if (tooLong) {
      problems.push(`${rel} is a path too long for the file system to hold; shorten the folder names of its sources, then propose again.`);
      continue;
    }
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const at = parts.slice(0, i).join('/');
      const st = await fs.lstat(path.join(root, at)).catch(() => null);
      if (!st) break;
      const last = i === parts.length;
      if (st.isSymbolicLink()) break; // links are refused (and named) by the writer's own check at approve
      if (!last && !st.isDirectory()) {
        const entry = inTheWay.get(at) ?? { what: `${at} is ${kind(st)}, where Copilot's files need a folder`, blocks: [] };
        entry.blocks.push(rel);
        inTheWay.set(at, entry);
        break;
      }
      if (last && !st.isFile()) {
        inTheWay.set(at, { what: `${at} is ${kind(st)}, where Copilot reads a file`, blocks: [] });
      } else if (last && op.op === 'create') {
        mayExist.push(rel);
      }
    }
  }
  for (const { what, blocks } of inTheWay.values()) {
    const needed =
      blocks.length === 0 ? '' : ` (for ${blocks.slice(0, 3).join(', ')}${blocks.length > 3 ? ` and ${blocks.length - 3} more` : ''})`;
    problems.push(`${what}${needed}: move it aside or rename it, then propose again.`);
  }
  if (mayExist.length > 0) {
    const ignored = await ignoredByGit(root, mayExist);
    for (const rel of mayExist) {
      problems.push(
        ignored.has(rel)
          ? `${rel} exists but git ignores it, so it was not read and the plan would overwrite it: take it out of .gitignore (or move it aside), then propose again.`
          : `${rel} exists but was not read, and the plan would overwrite it: move it aside, then propose again.`,
      );
    }
  }
  if (problems.length > 0) throw new PreconditionError(`No plan was made, because it could not be applied: ${problems.join(' ')}`);
}

function kind(st: { isFile(): boolean; isDirectory(): boolean }): string {
  return st.isFile() ? 'a file' : st.isDirectory() ? 'a folder' : 'not a regular file';
}

/**
 * A file the plan would write that is over the read limit: copilot-onboard could not read it back
 * (the next analyze would leave it out). Said in the plan, with what to do.
 */
export function oversizedTargetNotes(ops: PlanOperation[]): string[] {
  return ops
    .filter((op) => op.content !== null && Buffer.byteLength(op.content, 'utf8') > MAX_SOURCE_BYTES)
    .map(
      (op) =>
        `${op.path} would be ${Buffer.byteLength(op.content!, 'utf8')} bytes, over the ${MAX_SOURCE_BYTES}-byte limit copilot-onboard reads: after the migration it could not read this file back, and would leave it out of later plans. Copilot reads it all the same; to keep it under the limit, move some rules into scoped files (.github/instructions/) and propose again.`,
    );
}

/** Front-matter keys whose value is a yes or a no. */
const BOOLEAN_KEYS = new Set(['alwaysApply']);

/**
 * Front-matter values the reader drops without a word, said in the plan: a key given twice (only the
 * last value is read) and a yes-or-no key with another value (`alwaysApply: maybe`, read as false).
 * Only for files whose format reads front matter (the scan found keys in it).
 */
export function droppedFrontMatterNotes(scan: ScanResult): string[] {
  const notes: string[] = [];
  for (const doc of scan.docs) {
    if ((doc.frontMatterKeys ?? []).length === 0) continue;
    const file = scan.files.get(doc.path);
    if (!file) continue;
    const { lines } = splitText(file.text);
    if (lines[0]?.trim() !== '---') continue;
    const close = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (close < 0) continue;
    const seen = new Map<string, { line: number; value: string }[]>();
    for (let i = 1; i < close; i++) {
      const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(lines[i]!);
      if (kv) seen.set(kv[1]!, [...(seen.get(kv[1]!) ?? []), { line: i + 1, value: kv[2]!.trim() }]);
    }
    for (const [key, uses] of seen) {
      if (uses.length > 1) {
        const last = uses[uses.length - 1]!;
        notes.push(
          `${doc.path}: its front matter sets "${key}" ${uses.length} times (lines ${uses.map((u) => u.line).join(', ')}); only the last one (line ${last.line}: ${JSON.stringify(last.value)}) is read, the others are dropped. Keep one "${key}" line to say which you mean.`,
        );
      }
      const value = uses[uses.length - 1]!.value.replace(/^(['"])(.*)\1$/, '$2');
      if (BOOLEAN_KEYS.has(key) && value !== 'true' && value !== 'false') {
        notes.push(
          `${doc.path}: its front matter says ${key}: ${JSON.stringify(value)}, which is neither true nor false, so it is read as false (the rule applies by its globs or description, not always). Write true or false to say which.`,
        );
      }
    }
  }
  return notes;
}
