import type { FlowContext } from '../call/context.js';
import type { StepResult } from '../steps/result.js';

/**
 * The step each tool runs: the tool table's `run` column (mcp/tool-schemas.ts), kept apart from
 * its schemas so the CLI's read-only commands (cli/direct.ts) run a step without loading zod.
 * The steps load on the first call: a client waits for `initialize` and `tools/list` only.
 */

const readOnly = () => import('../steps/read-only.js');
const gated = () => import('../steps/gated.js');

export const TOOL_STEPS = {
  onboarding_analyze: async (ctx: FlowContext): Promise<StepResult> => (await readOnly()).analyzeStep(ctx),
  onboarding_propose: async (ctx: FlowContext): Promise<StepResult> => (await readOnly()).proposeStep(ctx),
  onboarding_approve: async (ctx: FlowContext): Promise<StepResult> => (await gated()).approveStep(ctx),
  onboarding_migrate: async (ctx: FlowContext): Promise<StepResult> => (await gated()).migrateStep(ctx),
  onboarding_rollback: async (ctx: FlowContext): Promise<StepResult> => (await gated()).rollbackStep(ctx),
  onboarding_status: async (ctx: FlowContext): Promise<StepResult> => (await import('../steps/status.js')).statusStep(ctx),
  onboarding_check: async (ctx: FlowContext): Promise<StepResult> => (await import('../steps/check.js')).checkStep(ctx),
} as const;

export type ToolName = keyof typeof TOOL_STEPS;

/** The tools the CLI runs without an MCP client: they ask no one anything (cli/direct.ts). */
export type ReadOnlyTool = 'onboarding_analyze' | 'onboarding_propose' | 'onboarding_status';
