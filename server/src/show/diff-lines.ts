import { showPath } from './untrusted.js';

/**
 * What each line of a unified diff is, by its position: file headers before the hunks, then each
 * hunk's lines counted off its `@@ -a,b +c,d @@` header. A line's first characters alone say
 * nothing: a rule `++ b/x` added to a file is the diff line `+++ b/x`, an added line, not a header.
 */

export type DiffLineKind = 'file' | 'hunk' | 'context' | 'added' | 'removed' | 'note' | 'other';

const SEPARATOR = /^={10,}$/;
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** Where the hunk that starts at `i` (its header) ends, exclusive; `i` when none starts there. */
function hunkEnd(lines: readonly string[], i: number, kinds?: DiffLineKind[]): number {
  const m = HUNK.exec(lines[i] ?? '');
  if (!m) return i;
  kinds?.push('hunk');
  let before = m[1] === undefined ? 1 : Number(m[1]);
  let after = m[2] === undefined ? 1 : Number(m[2]);
  for (i++; (before > 0 || after > 0) && i < lines.length; i++) {
    const c = lines[i]![0];
    if (c === ' ') {
      before--;
      after--;
      kinds?.push('context');
    } else if (c === '-') {
      before--;
      kinds?.push('removed');
    } else if (c === '+') {
      after--;
      kinds?.push('added');
    } else if (c === '\\') kinds?.push('note');
    else break;
  }
  while (lines[i]?.startsWith('\\')) {
    i++;
    kinds?.push('note');
  }
  return i;
}

/** The length of the file header (`====`, `--- a`, `+++ b`) that starts at `i`, or 0. */
function headerLength(lines: readonly string[], i: number): number {
  const sep = SEPARATOR.test(lines[i] ?? '') && lines[i + 1]?.startsWith('--- ') ? 1 : 0;
  return lines[i + sep]?.startsWith('--- ') && lines[i + sep + 1]?.startsWith('+++ ') ? sep + 2 : 0;
}

/** Where a diff (file headers and their hunks) that starts at line `start` ends, exclusive; `start` when none starts there. */
export function diffEnd(lines: readonly string[], start: number): number {
  let i = start;
  for (let h = headerLength(lines, i); h > 0; h = headerLength(lines, i)) {
    i += h;
    for (let end = hunkEnd(lines, i); end > i; end = hunkEnd(lines, i)) i = end;
  }
  return i;
}

/** The kind of every line of a text that holds diffs; lines outside any diff are 'other'. */
export function diffLineKinds(lines: readonly string[]): DiffLineKind[] {
  const kinds: DiffLineKind[] = [];
  let i = 0;
  while (i < lines.length) {
    const h = headerLength(lines, i);
    if (h > 0) {
      for (let k = 0; k < h; k++) kinds.push('file');
      i += h;
      for (let end = hunkEnd(lines, i, kinds); end > i; end = hunkEnd(lines, i, kinds)) i = end;
    } else if (HUNK.test(lines[i]!)) {
      // A hunk without its file header (a diff cut or shown on its own).
      i = hunkEnd(lines, i, kinds);
    } else {
      kinds.push('other');
      i++;
    }
  }
  return kinds;
}

/** Lines added and removed by one file's diff, counted by position. */
export function diffStat(diff: string): { added: number; removed: number } {
  const kinds = diffLineKinds(diff.split('\n'));
  return { added: kinds.filter((k) => k === 'added').length, removed: kinds.filter((k) => k === 'removed').length };
}

/** The operations of a plan, one line each with what its diff adds and removes: `- Change "a.md" (+3 -1 lines)`. */
export function describeOperations(operations: readonly { op: 'create' | 'update' | 'delete'; path: string; diff: string }[]): string[] {
  const verbs = { create: 'Create', update: 'Change', delete: 'Remove' } as const;
  return operations.map((o) => {
    const { added, removed } = diffStat(o.diff);
    return `- ${verbs[o.op]} ${showPath(o.path)} (+${added} -${removed} lines)`;
  });
}
