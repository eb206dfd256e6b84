import type { BackupManifest, PlanFile } from '../state/schema.js';

/** The text each elicitation shows: exactly what the step will do. */

const MAX_DIFF_CHARS = 6000;

export function describeOperations(operations: PlanFile['operations']): string[] {
  const verbs = { create: 'Create', update: 'Change', delete: 'Remove' } as const;
  return operations.map((o) => {
    const { added, removed } = diffStat(o.diff);
    return `- ${verbs[o.op]} ${o.path} (+${added} -${removed} lines)`;
  });
}

export function approveMessage(plan: PlanFile, backupHint: string): string {
  const lines = [
    `copilot-onboard asks you to approve migration plan ${plan.planHash.slice(0, 12)} for this repository.`,
    '',
    'If you approve, the migrate step (which asks you once more) will:',
    ...describeOperations(plan.operations),
    `Every file is backed up first under ${backupHint}, and rollback restores it byte for byte.`,
  ];
  if (plan.merged.length > 0) lines.push(`Exact duplicates from other files merged: ${plan.merged.map((m) => `${m.path}:${m.line}`).join(', ')}.`);
  const choosable = plan.legacy.filter((l) => l.fates.length > 1);
  if (choosable.length > 0) {
    lines.push('', 'Legacy files (the form lets you choose; the default keeps each one):');
    for (const l of choosable) {
      if (l.linkTarget !== undefined) {
        lines.push(`- ${l.path} is a symlink to ${l.linkTarget}. Keep: the link stays, and the plan above is what happens. Replace: the link itself becomes a regular file with all repo-wide rules (the file it points at is not changed; rollback puts the link back).`);
        continue;
      }
      lines.push(`- ${l.path}: its rules go to ${l.target}. Keep: ${l.note}${l.fates.includes('remove') ? ' Remove: deleted after backup.' : ''}${l.fates.includes('pointer') ? ` Pointer: replaced by a line importing ${l.target}.` : ''}`);
    }
  }
  if (plan.conflicts.length > 0) {
    lines.push('', 'Contradictions (the form asks which rule stands; the default keeps all and marks them in the file):');
    for (const c of plan.conflicts) lines.push(`- ${c.id}: ${c.description} at ${c.locations.map((l) => `${l.path}:${l.line}`).join(', ')}`);
  }
  lines.push('', ...diffs(plan.operations));
  return lines.join('\n');
}

/**
 * `chosen`: the approved plan rebuilt with the person's choices. When the choices changed what is
 * written, its diff is shown again, with what the choices leave behind (a dropped rule still in a kept file).
 */
export function migrateMessage(plan: PlanFile, chosen: Pick<PlanFile, 'operations' | 'notes'>, backupRel: string): string {
  const lines = [
    `copilot-onboard will now apply the plan ${plan.planHash.slice(0, 12)} you approved, with your choices:`,
    ...describeOperations(chosen.operations),
    `Backup first: the original bytes of each file go to ${backupRel} with a manifest.`,
    'Undo at any time with rollback.',
  ];
  const newNotes = chosen.notes.filter((n) => !plan.notes.includes(n));
  if (newNotes.length > 0) lines.push('', ...newNotes.map((n) => `Note: ${n}`));
  const same = chosen.operations.length === plan.operations.length && chosen.operations.every((o, i) => o.path === plan.operations[i]!.path && o.content === plan.operations[i]!.content);
  if (!same) lines.push('', 'With your choices, the changes are:', ...diffs(chosen.operations));
  return lines.join('\n');
}

export function rollbackMessage(manifest: BackupManifest, backupRel: string, edited: string[]): string {
  const lines = [`copilot-onboard will undo migration ${manifest.id} from the backup in ${backupRel}:`];
  for (const f of manifest.files) {
    lines.push(f.existed ? `- Restore ${f.path} to its original bytes` : `- Remove ${f.path} (the migration created it)`);
  }
  if (edited.length > 0) {
    lines.push(
      `These files were edited after the migration: ${edited.join(', ')}.`,
      `Their current content is saved to ${backupRel}edited-after-migration/ before restoring, so your edits are not lost.`,
    );
  }
  return lines.join('\n');
}

function diffs(operations: PlanFile['operations']): string[] {
  const all = operations.map((o) => o.diff.trimEnd()).join('\n');
  if (all.length <= MAX_DIFF_CHARS) return [all];
  return [`${all.slice(0, MAX_DIFF_CHARS)}`, `… (diff cut at ${MAX_DIFF_CHARS} characters; the whole plan is in .copilot-state/plan.json)`];
}

function diffStat(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { added, removed };
}
