import type { FlowContext } from '../call/context.js';
import type { StepResult } from '../steps/result.js';
import { READ_ONLY_STEPS, type ReadOnlyTool } from './read-only-steps.js';

/**
 * The step each tool runs: the tool table's `run` column (mcp/tool-schemas.ts), kept apart from
 * its schemas so the CLI's read-only commands (cli/direct.ts) run a step without loading zod.
 * The steps load on the first call: a client waits for `initialize` and `tools/list` only.
 */

const gated = () => import('../steps/gated.js');

export const TOOL_STEPS = {
  onboarding_analyze: READ_ONLY_STEPS.onboarding_analyze,
  onboarding_propose: READ_ONLY_STEPS.onboarding_propose,
  onboarding_approve: async (ctx: FlowContext): Promise<StepResult> => (await gated()).approveStep(ctx),
  onboarding_migrate: async (ctx: FlowContext): Promise<StepResult> => (await gated()).migrateStep(ctx),
  onboarding_rollback: async (ctx: FlowContext): Promise<StepResult> => (await gated()).rollbackStep(ctx),
  onboarding_status: READ_ONLY_STEPS.onboarding_status,
  onboarding_check: async (ctx: FlowContext): Promise<StepResult> => (await import('../steps/check.js')).checkStep(ctx),
} as const;

export type ToolName = keyof typeof TOOL_STEPS;

export type { ReadOnlyTool };
