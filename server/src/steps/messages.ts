import { describeOperations } from '../show/diff-lines.js';
import { showLine, showPath, showPaths } from '../show/untrusted.js';
import type { BackupManifest, PlanFile } from '../state/schema.js';

/**
 * The text each elicitation shows: exactly what the step will do. Paths are shown quoted when they
 * hold anything but plain printable characters, other text from files as one line each (see
 * show/untrusted.ts), so nothing from the repository can start a line of its own.
 */

const MAX_DIFF_CHARS = 6000;

/**
 * Approve's second round: the plan as it will be applied (rebuilt with the person's choices, when
 * a first round asked them), its hash, every operation and its exact diff.
 */
export function approveMessage(
  plan: Pick<PlanFile, 'merged' | 'planHash'>,
  chosen: { chosenHash: string; operations: PlanFile['operations'] },
  chosenLines: string[],
  backupHint: string,
  diffLines: string[] = ['The changes:', ...diffs(chosen.operations)],
): string {
  const lines = [
    `copilot-onboard asks you to approve migration plan ${planName(plan.planHash, chosen.chosenHash)} for this repository.`,
    ...(chosenLines.length > 0 ? ['', 'Your choices (the plan below is built with them):', ...chosenLines.map((l) => `- ${l}`)] : []),
    '',
    'If you approve, the migrate step (which asks you once more) will:',
    ...describeOperations(chosen.operations),
    `Every file is backed up first under ${backupHint}, and rollback restores it byte for byte.`,
  ];
  if (plan.merged.length > 0)
    lines.push(
      `Exact duplicates written once: ${plan.merged.map((m) => `${showPath(m.path)}:${m.line}${m.repeat ? ' (repeats its own section)' : ''}`).join(', ')}.`,
    );
  lines.push('', ...diffLines);
  return lines.join('\n');
}

/** The plan's one name; once, where choices first give it, the plan it was built from. */
function planName(planHash: string, chosenHash: string): string {
  const name = chosenHash.slice(0, 12);
  return chosenHash === planHash ? name : `${name} (from ${planHash.slice(0, 12)} with your choices)`;
}

/**
 * `chosen`: the approved plan rebuilt with the person's choices. When the choices changed what is
 * written, its diff is shown again, with what the choices leave behind (a dropped rule still in a kept file).
 */
export function migrateMessage(
  plan: PlanFile,
  chosen: Pick<PlanFile, 'operations' | 'notes'> & { chosenHash: string },
  backupRel: string,
): string {
  const lines = [
    `copilot-onboard will now apply the plan ${chosen.chosenHash.slice(0, 12)} you approved${chosen.chosenHash === plan.planHash ? '' : ', with your choices'}:`,
    ...describeOperations(chosen.operations),
    `Backup first: the original bytes of each file go to ${backupRel} with a manifest.`,
    'Undo at any time with rollback.',
  ];
  const newNotes = chosen.notes.filter((n) => !plan.notes.includes(n));
  if (newNotes.length > 0) lines.push('', ...newNotes.map((n) => `Note: ${showLine(n)}`));
  const same =
    chosen.operations.length === plan.operations.length &&
    chosen.operations.every((o, i) => o.path === plan.operations[i]!.path && o.content === plan.operations[i]!.content);
  if (!same) lines.push('', 'With your choices, the changes are:', ...diffs(chosen.operations));
  return lines.join('\n');
}

export function rollbackMessage(manifest: BackupManifest, backupRel: string, edited: string[]): string {
  const lines = [`copilot-onboard will undo migration ${manifest.id} from the backup in ${backupRel}:`];
  for (const f of manifest.files) {
    lines.push(
      f.existed ? `- Restore ${showPath(f.path)} to its original bytes` : `- Remove ${showPath(f.path)} (the migration created it)`,
    );
  }
  if (edited.length > 0) {
    lines.push(
      `These files were edited after the migration: ${showPaths(edited)}.`,
      `Their current content is saved to ${backupRel}edited-after-migration/ before restoring, so your edits are not lost.`,
    );
  }
  return lines.join('\n');
}

function diffs(operations: PlanFile['operations']): string[] {
  const all = operations.map((o) => o.diff.trimEnd()).join('\n');
  if (all.length <= MAX_DIFF_CHARS) return [all];
  return [`${all.slice(0, MAX_DIFF_CHARS)}`, `… (diff cut at ${MAX_DIFF_CHARS} characters; the whole diff is in .copilot-state/plan.diff)`];
}
