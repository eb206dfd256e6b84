/**
 * How much an approve form asks, apart from the forms themselves (gate/forms.ts builds zod schemas
 * when loaded): the read-only reports name these limits without loading zod.
 */

/** At most this many contradictions are asked about; the approve message names the others, which keep every side, marked. */
export const MAX_CONFLICT_FIELDS = 20;
