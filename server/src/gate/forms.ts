import { z } from 'zod';
import type { GatedStep } from '../state/schema.js';

/**
 * The contract's elicitation forms. Field names are fixed; optional fields carry a default.
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

const MAX_TEXT = 2000;

export const FORMS: Record<GatedStep, Form> = {
  approve: {
    requestedSchema: {
      type: 'object',
      properties: {
        approved: {
          type: 'boolean',
          title: 'Approve this migration plan',
          description: 'Yes approves exactly the plan shown above. Nothing is written until you also confirm the migrate step.',
        },
        comment: {
          type: 'string',
          title: 'Comment (optional)',
          description: 'Anything you want recorded with your answer, such as changes you would like.',
          maxLength: MAX_TEXT,
          default: '',
        },
      },
      required: ['approved'],
    },
    content: z.object({ approved: z.boolean(), comment: z.string().max(MAX_TEXT).optional() }),
    confirmations: ['approved'],
  },
  migrate: {
    requestedSchema: {
      type: 'object',
      properties: {
        confirmed: {
          type: 'boolean',
          title: 'Apply the approved plan now',
          description: 'Yes backs up every file listed above and then writes the changes.',
        },
        understood_risks: {
          type: 'boolean',
          title: 'I understand these files will change',
          description: 'The originals are kept in the backup folder named above and can be restored with rollback.',
        },
      },
      required: ['confirmed', 'understood_risks'],
    },
    content: z.object({ confirmed: z.boolean(), understood_risks: z.boolean() }),
    confirmations: ['confirmed', 'understood_risks'],
  },
  rollback: {
    requestedSchema: {
      type: 'object',
      properties: {
        confirmed: {
          type: 'boolean',
          title: 'Restore the files from the backup',
          description: 'Yes restores every file listed above byte for byte and removes the files the migration created.',
        },
        reason: {
          type: 'string',
          title: 'Reason (optional)',
          description: 'Why you are rolling back; recorded in the trace.',
          maxLength: MAX_TEXT,
          default: '',
        },
      },
      required: ['confirmed'],
    },
    content: z.object({ confirmed: z.boolean(), reason: z.string().max(MAX_TEXT).optional() }),
    confirmations: ['confirmed'],
  },
};
