import { showPaths } from '../show/untrusted.js';
import type { GatedStep } from '../state/schema.js';
import { field, formOf, type Field, type Form } from './fields.js';

/** The contract's forms, one per gated step (approve's is its second round), as their fields. */
const FIELDS: Record<GatedStep, Field[]> = {
  approve: [
    field.confirm(
      'approved',
      'Approve this migration plan',
      'Yes approves exactly the plan shown above. Nothing is written until you also confirm the migrate step.',
    ),
    field.text(
      'comment',
      'Comment (optional)',
      'Recorded with your answer. With no, it is read as the changes you would like: the next propose shows it.',
    ),
  ],
  migrate: [
    field.confirm('confirmed', 'Apply the approved plan now', 'Yes backs up every file listed above and then writes the changes.'),
    field.confirm(
      'understood_risks',
      'I understand these files will change',
      'The originals are kept in the backup folder named above and can be restored with rollback.',
    ),
  ],
  rollback: [
    field.confirm(
      'confirmed',
      'Restore the files from the backup',
      'Yes restores every file listed above byte for byte and removes the files the migration created.',
    ),
    field.text('reason', 'Reason (optional)', 'Why you are rolling back; recorded in the trace.'),
  ],
};

export const FORMS: Record<GatedStep, Form> = {
  approve: formOf(FIELDS.approve),
  migrate: formOf(FIELDS.migrate),
  rollback: formOf(FIELDS.rollback),
};

/**
 * Approve's second round: the contract's approve form, and, when a first round asked the choices,
 * an optional field to go back and choose again.
 */
export function approveForm(withChoices: boolean, approves?: string): Form {
  const approve = approves === undefined ? FIELDS.approve : FIELDS.approve.map((f) => (f.role === 'confirm' ? saying(f, approves) : f));
  if (!withChoices) return approves === undefined ? FORMS.approve : formOf(approve);
  return formOf([
    ...approve,
    field.yesNo(
      'choose_again',
      'Go back and change my choices',
      'Yes asks the choices again instead of answering here; nothing is approved.',
    ),
  ]);
}

/** The yes field whose description says what it approves (the diff shown, and where the rest is). */
function saying(yes: Field, approves: string): Field {
  return { ...yes, property: { ...yes.property, description: approves } };
}

/** The migrate form; when files the plan touches have uncommitted changes, it asks whether to overwrite them (default no). */
export function migrateForm(uncommitted: string[]): Form {
  if (uncommitted.length === 0) return FORMS.migrate;
  return formOf([
    ...FIELDS.migrate,
    field.yesNo(
      'allow_uncommitted',
      `Overwrite uncommitted changes in ${showPaths(uncommitted)}`,
      'They are backed up first, but git cannot give them back. Leave this off to commit or stash them first.',
    ),
  ]);
}
