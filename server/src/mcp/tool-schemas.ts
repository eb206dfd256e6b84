import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/server';
import type { FlowContext } from '../call/context.js';
import type { StepResult } from '../steps/result.js';
import { OutcomeSchema } from '../common/outcome-schema.js';
import { Analysis } from '../model/analysis.js';
import { PlanContent, PlanOperation } from '../model/plan.js';
import { Certainty } from '../model/problem.js';
import { ModelOpinion } from '../model/opinion.js';
import { CHECK_RULE_IDS, FAIL_ON } from '../model/findings.js';
import { TOOL_STEPS, type ToolName } from '../steps/tool-steps.js';

/**
 * The tools, in one table: name, title, description, input and output schemas, annotations, and
 * the step each runs (its `run` column is in mcp/tool-steps.ts, apart from zod). The MCP server lists and calls them from it (mcp/server.ts), and the CLI runs
 * the read-only ones from it (cli/direct.ts). The output schemas are built on the domain schemas
 * (model/) and the one outcome table (common/outcomes.ts). Every result holds `outcome`; the rest
 * depends on the tool and the outcome.
 */

export interface ToolSpec {
  title: string;
  description: string;
  /** Strict: an unknown argument is an invalid-params error. */
  input: z.ZodObject;
  /**
   * Loose: a result may carry more (`recovered`, `notice`, `truncated`). Built when asked for, by
   * `tools/list`: the CLI's read-only commands run the step and never need it.
   */
  output: () => z.ZodObject;
  annotations: NonNullable<Tool['annotations']>;
  run: (ctx: FlowContext) => Promise<StepResult>;
}

/** No tool takes an argument: no argument can stand in for the person's answer. */
const NO_ARGUMENTS = z.strictObject({});

const base = { outcome: OutcomeSchema, message: z.string().optional() };
const narration = z.enum(['sampling', 'builtin']).optional();
const { pattern, sources, problems, skipped } = Analysis.shape;
const gatedResult = { planHash: z.string().nullable().optional(), trace: z.string().nullable().optional() };

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const ASKS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const DESTRUCTIVE = { ...ASKS, destructiveHint: true } as const;

export const TOOLS = {
  onboarding_analyze: {
    title: 'Analyze instruction files',
    description:
      "Find and classify the repository's AI-assistant instruction files (pattern: clean, structured, unstructured or messy) and list duplicated and contradicting rules. Read-only.",
    input: NO_ARGUMENTS,
    output: () =>
      z.looseObject({
        ...base,
        pattern: pattern.optional(),
        sources: sources.optional(),
        problems: problems.optional(),
        skipped: skipped.optional(),
        narration,
      }),
    annotations: READ_ONLY,
    run: TOOL_STEPS.onboarding_analyze,
  },
  onboarding_propose: {
    title: 'Propose a migration plan',
    description:
      "Build the exact migration plan into Copilot's layout: every file to create, change or remove, with content and unified diff. Writes only under .copilot-state/. Show the diff to the person before onboarding_approve.",
    input: NO_ARGUMENTS,
    output: () =>
      z.looseObject({
        ...base,
        planHash: z.string().optional(),
        operations: z.array(PlanOperation.pick({ op: true, path: true, diff: true, content: true })).optional(),
        pattern: PlanContent.shape.pattern.optional(),
        problems: PlanContent.shape.problems.optional(),
        narration,
        /** The client model's verdicts on the second-look pairs, when any counted (narrate/opinion.ts): its opinion, never the plan's. */
        modelOpinion: ModelOpinion.optional(),
      }),
    annotations: READ_ONLY,
    run: TOOL_STEPS.onboarding_propose,
  },
  onboarding_approve: {
    title: 'Ask the person to approve the plan',
    description:
      'Asks the person, through an elicitation form, to approve the current plan. Takes no arguments: only the person can approve. If the person declines or cancels, do not retry unless they ask.',
    input: NO_ARGUMENTS,
    output: () => z.looseObject({ ...base, ...gatedResult }),
    annotations: ASKS,
    run: TOOL_STEPS.onboarding_approve,
  },
  onboarding_migrate: {
    title: 'Apply the approved plan',
    description:
      'Asks the person for a final confirmation, backs up every file it touches under .copilot-state/backups/, and applies the approved plan. Takes no arguments.',
    input: NO_ARGUMENTS,
    output: () => z.looseObject({ ...base, ...gatedResult, migrationId: z.string().optional(), backupDir: z.string().optional() }),
    annotations: DESTRUCTIVE,
    run: TOOL_STEPS.onboarding_migrate,
  },
  onboarding_rollback: {
    title: 'Roll back the last migration',
    description:
      'Asks the person for confirmation, then restores every file from the backup byte for byte and removes the files the migration created. Takes no arguments.',
    input: NO_ARGUMENTS,
    output: () =>
      z.looseObject({ ...base, ...gatedResult, restored: z.array(z.string()).optional(), removed: z.array(z.string()).optional() }),
    annotations: DESTRUCTIVE,
    run: TOOL_STEPS.onboarding_rollback,
  },
  onboarding_status: {
    title: 'Onboarding status',
    description:
      'Where the onboarding stands: the plan, the approval, the migration that can be rolled back, and the next step. Read-only.',
    input: NO_ARGUMENTS,
    output: () => z.looseObject({ ...base, step: z.string().nullable().optional(), damaged: z.boolean().optional() }),
    annotations: READ_ONLY,
    run: TOOL_STEPS.onboarding_status,
  },
  onboarding_check: {
    title: 'Check the instruction files are still consistent',
    description:
      "What copilot-onboard check reports in CI: contradictions, duplicates, drift (a legacy file saying what Copilot's files do not) the files propose would change now, and the instruction files it could not read; failed is true when a contradiction or an unread file is found. Writes nothing, not even .copilot-state/. Read-only.",
    input: NO_ARGUMENTS,
    output: () =>
      z.looseObject({
        ...base,
        failOn: z.enum(FAIL_ON).optional(),
        failed: z.boolean().optional(),
        counts: z.record(z.string(), z.number()).optional(),
        findings: z
          .array(
            z.object({
              rule: z.enum(CHECK_RULE_IDS),
              kind: z.string(),
              certainty: Certainty,
              message: z.string(),
              locations: z.array(z.object({ path: z.string(), line: z.number() })),
              fingerprint: z.string(),
              inBaseline: z.boolean().optional(),
              target: z.string().optional(),
              sides: z.array(z.number().int().min(0)).optional(),
            }),
          )
          .optional(),
      }),
    annotations: READ_ONLY,
    run: TOOL_STEPS.onboarding_check,
  },
} as const satisfies Record<ToolName, ToolSpec>;

export type { ReadOnlyTool, ToolName } from '../steps/tool-steps.js';

/** The tool's schemas as MCP lists them (JSON Schema, generated from the zod schemas). */
/** A listed schema: JSON Schema of an object, with its properties. */
type ListedSchema = { type: 'object'; properties?: Record<string, Record<string, unknown>>; [key: string]: unknown };

export function toolJsonSchemas(name: ToolName): { inputSchema: Tool['inputSchema'] & ListedSchema; outputSchema: ListedSchema } {
  // The input schema as it always was listed: without `$schema`.
  const inputSchema: Record<string, unknown> = z.toJSONSchema(TOOLS[name].input, { io: 'input' });
  delete inputSchema.$schema;
  return {
    inputSchema: inputSchema as Tool['inputSchema'] & ListedSchema,
    outputSchema: z.toJSONSchema(TOOLS[name].output(), { io: 'output' }) as ListedSchema,
  };
}
