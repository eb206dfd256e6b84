import type { PlanOperation } from '../model/plan.js';
import { showPath } from '../show/untrusted.js';
import type { PlanDiffFacts } from '../state/plan-diff.js';
import { withThousands } from '../common/text.js';

/**
 * How much of a plan's diff a form shows, and the words that say so. A message holds at most
 * MAX_DIFF_CHARS characters of diff: whole files first, then the start of the next one. When that is
 * not all of it, the person is pointed to `.copilot-state/plan.diff`, which holds every line, and the
 * form's yes says that it approves the diff shown and the rest in that file, never "exactly the plan
 * shown above".
 */

export const MAX_DIFF_CHARS = 6000;

/** The first line after a cut diff: where the rest is (the terminal drops it with the diff when the diff is on screen already). */
export const DIFF_CONTINUES = '… the diff continues in';

export interface ShownDiff {
  /** The lines of the message: what is shown, and where the rest is. */
  lines: string[];
  /** Characters of the diff the form shows, and whether that is all of it. */
  shownChars: number;
  whole: boolean;
  /** What the approve form's yes approves, in words. */
  approves: string;
}

const n = withThousands;
const plural = (k: number, word: string) => `${n(k)} ${word}${k === 1 ? '' : 's'}`;

export function shownDiff(operations: Pick<PlanOperation, 'diff' | 'path'>[], file: PlanDiffFacts): ShownDiff {
  const parts = operations.map((o) => o.diff.trimEnd());
  const all = parts.join('\n');
  const at = `${file.path} (plan ${file.planHash.slice(0, 12)}, ${plural(file.chars, 'character')})`;
  if (all.length <= MAX_DIFF_CHARS) {
    return {
      lines: [`The changes, the whole diff (also in ${at}):`, all],
      shownChars: all.length,
      whole: true,
      approves:
        'Yes approves the plan whose whole diff is shown above (also in .copilot-state/plan.diff). Nothing is written until you also confirm the migrate step.',
    };
  }
  const shown: string[] = [];
  let used = 0;
  let whole = 0;
  for (const p of parts) {
    if (used + p.length + 1 > MAX_DIFF_CHARS) break;
    shown.push(p);
    used += p.length + 1;
    whole++;
  }
  const next = operations[whole];
  // Not one whole file fits (or room is left): the start of the next one, cut at a line end.
  let start = '';
  if (next && MAX_DIFF_CHARS - used > 200) {
    const room = parts[whole]!.slice(0, MAX_DIFF_CHARS - used);
    start = room.slice(0, Math.max(0, room.lastIndexOf('\n')));
    if (start !== '') shown.push(start);
  }
  const shownChars = shown.join('\n').length;
  const partial = start !== '' && next ? `, and the start of ${showPath(next.path)}` : '';
  return {
    lines: [
      `The changes: this form shows ${n(shownChars)} of the diff's ${plural(file.chars, 'character')}: ${n(whole)} of ${plural(operations.length, 'file')} whole${partial}. ` +
        `The whole diff is in ${at}: read it before you answer.`,
      shown.join('\n'),
      `${DIFF_CONTINUES} ${file.path}: ${plural(operations.length - whole, 'more file')}, ${plural(file.chars - shownChars, 'more character')}.`,
    ],
    shownChars,
    whole: false,
    approves: `Yes approves the whole plan: the diff shown above and the rest in .copilot-state/plan.diff (${plural(file.chars, 'character')}, plan ${file.planHash.slice(0, 12)}). Nothing is written until you also confirm the migrate step.`,
  };
}
