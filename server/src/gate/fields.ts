import { z } from 'zod';
import { FIXED_FIELDS, type FieldRole, type FixedField } from '../call/field-roles.js';

/**
 * The fields of the elicitation forms, each declared once: a builder yields the JSON Schema
 * property the person's client renders and the validator of its answer together, with the field's
 * role (call/field-roles.ts).
 */

type FieldsWith<R extends FieldRole> = { [K in FixedField]: (typeof FIXED_FIELDS)[K] extends R ? K : never }[FixedField];

/** One field: its name, role, whether the form requires it, its JSON Schema property and its validator. */
export interface Field {
  name: string;
  role: FieldRole;
  required: boolean;
  property: Record<string, unknown>;
  validator: z.ZodType;
}

/** One option of a choice: the value sent back and its title. */
export interface ChoiceOption {
  const: string;
  title: string;
}

/** Free text is cut at this many characters. */
export const MAX_TEXT = 2000;

/** The builders: the only place a form's property and validator are written. */
export const field = {
  /** A required yes or no; the step goes ahead only on yes. */
  confirm: (name: FieldsWith<'confirm'>, title: string, description: string): Field => ({
    name,
    role: 'confirm',
    required: true,
    property: { type: 'boolean', title, description },
    validator: z.boolean(),
  }),
  /** Optional free text, empty by default. */
  text: (name: FieldsWith<'comment' | 'reason'>, title: string, description: string): Field => ({
    name,
    role: FIXED_FIELDS[name],
    required: false,
    property: { type: 'string', title, description, maxLength: MAX_TEXT, default: '' },
    validator: z.string().max(MAX_TEXT).optional(),
  }),
  /** An optional yes or no, no by default. */
  yesNo: (name: FieldsWith<'go_back' | 'allow_uncommitted'>, title: string, description: string): Field => ({
    name,
    role: FIXED_FIELDS[name],
    required: false,
    property: { type: 'boolean', title, description, default: false },
    validator: z.boolean().optional(),
  }),
  /** An optional choice of one option; only the options' values validate. */
  choice: (name: string, title: string, options: ChoiceOption[], fallback: string): Field => ({
    name,
    role: 'choice',
    required: false,
    property: { type: 'string', title, oneOf: options, default: fallback },
    validator: z.enum(options.map((o) => o.const) as [string, ...string[]]).optional(),
  }),
};

/**
 * An elicitation form. Field names are fixed by the contract; optional fields carry a default.
 * `requestedSchema` is what the person's client renders; `content` validates what comes back.
 */
export interface Form {
  requestedSchema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required: string[];
  };
  content: z.ZodType<Record<string, unknown>>;
  /** Required booleans that must all be true for the step to go ahead. */
  confirmations: string[];
}

/** A form of these fields, in this order. */
export function formOf(fields: Field[]): Form {
  return {
    requestedSchema: {
      type: 'object',
      properties: Object.fromEntries(fields.map((f) => [f.name, f.property])),
      required: fields.filter((f) => f.required).map((f) => f.name),
    },
    content: z.object(Object.fromEntries(fields.map((f) => [f.name, f.validator]))) as unknown as z.ZodType<Record<string, unknown>>,
    confirmations: fields.filter((f) => f.role === 'confirm').map((f) => f.name),
  };
}
