import { z } from 'zod';
import { Pattern, Problem, SourceInfo } from '../state/schema.js';

/** Output schemas of the six tools. Every result holds `outcome`; the rest depends on the tool and the outcome. */

const Outcome = z.enum([
  'analyzed',
  'proposed',
  'approved',
  'migrated',
  'rolled_back',
  'status',
  'checked',
  'elicitation_unsupported',
  'declined',
  'cancelled',
  'timeout',
  'not_confirmed',
  'invalid_response',
  'precondition_failed',
  'error',
]);

const base = { outcome: Outcome, message: z.string().optional() };

const Operation = z.object({
  op: z.enum(['create', 'update', 'delete']),
  path: z.string(),
  diff: z.string(),
  content: z.string().nullable(),
});

export const OUTPUT_SCHEMAS = {
  onboarding_analyze: z.looseObject({
    ...base,
    pattern: Pattern.optional(),
    sources: z.array(SourceInfo).optional(),
    problems: z.array(Problem).optional(),
    skipped: z.array(z.object({ path: z.string(), reason: z.string(), detail: z.string() })).optional(),
    narration: z.enum(['sampling', 'builtin']).optional(),
  }),
  onboarding_propose: z.looseObject({
    ...base,
    planHash: z.string().optional(),
    operations: z.array(Operation).optional(),
    pattern: Pattern.optional(),
    problems: z.array(Problem).optional(),
    narration: z.enum(['sampling', 'builtin']).optional(),
  }),
  onboarding_approve: z.looseObject({ ...base, planHash: z.string().nullable().optional(), trace: z.string().nullable().optional() }),
  onboarding_migrate: z.looseObject({
    ...base,
    planHash: z.string().nullable().optional(),
    trace: z.string().nullable().optional(),
    migrationId: z.string().optional(),
    backupDir: z.string().optional(),
  }),
  onboarding_rollback: z.looseObject({
    ...base,
    planHash: z.string().nullable().optional(),
    trace: z.string().nullable().optional(),
    restored: z.array(z.string()).optional(),
    removed: z.array(z.string()).optional(),
  }),
  onboarding_status: z.looseObject({ ...base, step: z.string().nullable().optional(), damaged: z.boolean().optional() }),
  onboarding_check: z.looseObject({
    ...base,
    failOn: z.enum(['contradiction', 'duplicate', 'drift', 'any', 'none']).optional(),
    failed: z.boolean().optional(),
    counts: z.record(z.string(), z.number()).optional(),
    findings: z
      .array(
        z.object({
          rule: z.enum(['contradiction', 'duplicate', 'drift', 'would-change', 'ambiguity']),
          kind: z.string(),
          certainty: z.enum(['high', 'medium', 'low']),
          message: z.string(),
          locations: z.array(z.object({ path: z.string(), line: z.number() })),
          fingerprint: z.string(),
          inBaseline: z.boolean().optional(),
        }),
      )
      .optional(),
  }),
} as const;

export type ToolName = keyof typeof OUTPUT_SCHEMAS;
