import { copyChoiceLines, MAX_CONFLICT_FIELDS, scopeAndAssistantLines } from '../gate/forms.js';
import { conflictWords, secondLookWords } from '../call/words.js';
import { diffStat } from '../show/diff-lines.js';
import { showLine, showPath, showPaths } from '../show/untrusted.js';
import type { BackupManifest, PlanFile } from '../state/schema.js';

/**
 * The text each elicitation shows: exactly what the step will do. Paths are shown quoted when they
 * hold anything but plain printable characters, other text from files as one line each (see
 * show/untrusted.ts), so nothing from the repository can start a line of its own.
 */

const MAX_DIFF_CHARS = 6000;

export function describeOperations(operations: PlanFile['operations']): string[] {
  const verbs = { create: 'Create', update: 'Change', delete: 'Remove' } as const;
  return operations.map((o) => {
    const { added, removed } = diffStat(o.diff);
    return `- ${verbs[o.op]} ${showPath(o.path)} (+${added} -${removed} lines)`;
  });
}

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
    lines.push(`Exact duplicates from other files merged: ${plan.merged.map((m) => `${showPath(m.path)}:${m.line}`).join(', ')}.`);
  lines.push('', ...diffLines);
  return lines.join('\n');
}

/** The plan's one name; once, where choices first give it, the plan it was built from. */
function planName(planHash: string, chosenHash: string): string {
  const name = chosenHash.slice(0, 12);
  return chosenHash === planHash ? name : `${name} (from ${planHash.slice(0, 12)} with your choices)`;
}

/**
 * Approve's first round: the choices the plan offers, what each does and which way the default
 * goes. The next form shows the plan those choices give, with its diff, for approval.
 */
export function choicesMessage(plan: PlanFile): string {
  const lines = [
    `copilot-onboard asks for your choices for migration plan ${plan.planHash.slice(0, 12)} (step 1 of 2).`,
    'Nothing is approved here: the next form shows the exact changes your choices lead to, and asks for your approval.',
    '',
    'With the default choices, the migrate step would:',
    ...(plan.operations.length > 0 ? describeOperations(plan.operations) : ['- change no file']),
  ];
  const choosable = plan.legacy.filter((l) => l.fates.length > 1);
  if (choosable.length > 0) {
    lines.push('', 'Legacy files (the default keeps each one):');
    for (const l of choosable) {
      if (l.linkTarget !== undefined) {
        lines.push(
          `- ${showPath(l.path)} is a symlink to ${showPath(l.linkTarget)}. Keep: the link stays, and the plan above is what happens. Replace: the link itself becomes a regular file with all repo-wide rules (the file it points at is not changed; rollback puts the link back).`,
        );
        continue;
      }
      if (l.copyOf !== undefined) {
        lines.push(...copyChoiceLines(l));
        continue;
      }
      lines.push(
        `- ${showPath(l.path)}: its rules go to ${showPath(l.target)}. Keep: ${showLine(l.note)}${l.fates.includes('remove') ? ' Remove: deleted after backup.' : ''}${l.fates.includes('pointer') ? ` Pointer: replaced by a line importing ${showPath(l.target)}.` : ''}`,
      );
    }
  }
  if (plan.conflicts.length > 0) lines.push('', ...contradictionLines(plan.conflicts));
  lines.push(...scopeAndAssistantLines(plan));
  return lines.join('\n');
}

/** Said before the yes: the default leaves the repository failing `check` (contradiction), and why. */
const CHECK_FAILS_ON_KEPT =
  "Keeping all of them (the default) leaves each contradiction in Copilot's files, marked: copilot-onboard check, and the CI workflow that runs it, then fails on it (a contradiction fails the check) until you settle it in the files. Choosing the rule that stands leaves check passing.";

/**
 * The contradictions, and which of them the form asks about. The form holds at most
 * MAX_CONFLICT_FIELDS of these questions; the rest are named here, and keep every side, marked.
 */
function contradictionLines(conflicts: PlanFile['conflicts']): string[] {
  const asked = conflicts.slice(0, MAX_CONFLICT_FIELDS);
  const notAsked = conflicts.slice(MAX_CONFLICT_FIELDS);
  const lines =
    notAsked.length === 0
      ? ['Contradictions (the form asks which rule stands for each; the default keeps all and marks them in the file):']
      : [
          `Contradictions (${conflicts.length}): the form asks which rule stands for the first ${asked.length}; the default keeps all and marks them in the file.`,
          `Not asked: the last ${notAsked.length}, listed below. A form holds at most ${MAX_CONFLICT_FIELDS} of these questions, so ${notAsked.length === 1 ? 'this one keeps' : `these ${notAsked.length} keep`} the rules of every side, each marked in the file. To choose for ${notAsked.length === 1 ? 'it' : 'them'}, settle some contradictions in the files and propose again.`,
        ];
  if (conflicts.some((c) => !c.secondLook)) lines.push(CHECK_FAILS_ON_KEPT);
  for (const c of asked) lines.push(`- ${conflictWords(c)}${secondLookWords(c)}`);
  for (const c of notAsked) lines.push(`- ${conflictWords(c)} (not asked: all kept${c.secondLook ? '' : ', marked'})${secondLookWords(c)}`);
  return lines;
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
