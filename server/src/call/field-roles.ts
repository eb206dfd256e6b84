/**
 * What each field of an elicitation form means, by its name: the steps, the terminal form, the
 * traces report and the tests read a field's role, never its name. It is the words between the
 * gate and whoever answers (ports.ts), so it sits here, below both; no zod: the terminal form and the
 * read-only CLI's traces report load it alone. The builders are gate/fields.ts.
 */

/**
 * What a field means: a required yes that lets the step go ahead (`confirm`); approve's comment,
 * read after a no as the changes the person asks for (`comment`); a note kept with the answer
 * (`reason`); a yes that goes back to the choices instead of answering (`go_back`); a yes to
 * overwriting uncommitted changes, whose no refuses the step (`allow_uncommitted`); one of the
 * choices approve's first round asks (`choice`).
 */
export type FieldRole = 'confirm' | 'comment' | 'reason' | 'go_back' | 'allow_uncommitted' | 'choice';

/** The contract's field names and the optional ones this tool adds, each with its role. */
export const FIXED_FIELDS = {
  approved: 'confirm',
  confirmed: 'confirm',
  understood_risks: 'confirm',
  comment: 'comment',
  reason: 'reason',
  choose_again: 'go_back',
  allow_uncommitted: 'allow_uncommitted',
} as const satisfies Record<string, Exclude<FieldRole, 'choice'>>;

export type FixedField = keyof typeof FIXED_FIELDS;
/** The roles one field at most holds in a form; `confirm` may be several. */
export type SingleRole = Exclude<FieldRole, 'confirm' | 'choice'>;

/** A field's role: a fixed name's, or a choice (approve's first round names its fields as it chooses). */
export function roleOf(name: string): FieldRole {
  return Object.hasOwn(FIXED_FIELDS, name) ? FIXED_FIELDS[name as FixedField] : 'choice';
}

const FIELD_OF_ROLE = Object.fromEntries(
  (Object.entries(FIXED_FIELDS) as [FixedField, FieldRole][]).filter(([, r]) => r !== 'confirm').map(([n, r]) => [r, n]),
) as Record<SingleRole, FixedField>;

/** What the person answered to the field of `role` (undefined when the form has none or it was left out). */
export function answerOf(content: Record<string, unknown>, role: SingleRole): unknown {
  return content[FIELD_OF_ROLE[role]];
}

/** The answer says no to a confirmation (not just leaves it out). */
export function saidNo(content: Record<string, unknown>): boolean {
  return Object.entries(content).some(([name, v]) => roleOf(name) === 'confirm' && v === false);
}
