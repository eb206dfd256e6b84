import type { FlowContext } from '../call/context.js';
import type { StepResult } from '../steps/result.js';

/**
 * The steps of the tools that ask no one anything: the CLI runs them without an MCP client
 * (cli/direct.ts). A module of their own, apart from the whole table (mcp/tool-steps.ts): the CLI's
 * read-only file is built from what this one imports, and so holds none of the gated steps' code.
 */

const readOnly = () => import('../steps/read-only.js');

export const READ_ONLY_STEPS = {
  onboarding_analyze: async (ctx: FlowContext): Promise<StepResult> => (await readOnly()).analyzeStep(ctx),
  onboarding_propose: async (ctx: FlowContext): Promise<StepResult> => (await readOnly()).proposeStep(ctx),
  onboarding_status: async (ctx: FlowContext): Promise<StepResult> => (await import('../steps/status.js')).statusStep(ctx),
} as const;

/** The tools the CLI runs without an MCP client (cli/direct.ts). */
export type ReadOnlyTool = keyof typeof READ_ONLY_STEPS;
