import {
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ServerContext,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { FlowOptions, FlowReport } from '../call/context.js';
import { TOOLS, toolJsonSchemas, type ToolName } from './tool-schemas.js';
import { resolveRepoForSession } from './repo.js';
import type { RepoChoice } from '../steps/repo-choice.js';
import { sdkSession } from './ports.js';
import { VERSION } from '../version.js';
import { registerPromptsAndResources } from './prompts-resources.js';
import { showLine } from '../show/untrusted.js';
import type { StepCall, ToolResult } from '../steps/tool-call.js';

/**
 * The call of a step, loaded with the first tool call (the steps themselves are loaded then too):
 * `initialize` and `tools/list` wait for no module of the call (its checks, words and bounds).
 */
const callStep = async (call: StepCall): Promise<ToolResult> => (await import('../steps/tool-call.js')).callStep(call);

/**
 * The SDK's schema copies `arguments` into a fresh record, and a key named `__proto__` does not
 * survive that copy; so the handler would see `{}` where the client sent an argument. This schema
 * hands over the arguments exactly as they were parsed from the wire, so that every argument is
 * refused.
 */
const CallToolParamsAsSent = z.looseObject({
  name: z.string(),
  arguments: z.unknown().optional(),
  _meta: z.looseObject({ progressToken: z.union([z.string(), z.number()]).optional() }).optional(),
});

type ToolDefinition = Tool & ReturnType<typeof toolJsonSchemas>;
let definitions: ToolDefinition[] | undefined;

/** Built on first use: a client waits for `initialize` before it lists the tools. */
export function toolDefinitions(): ToolDefinition[] {
  return (definitions ??= (Object.keys(TOOLS) as ToolName[]).map((name) => ({
    name,
    title: TOOLS[name].title,
    description: TOOLS[name].description,
    ...toolJsonSchemas(name),
    annotations: TOOLS[name].annotations,
  })));
}

/** The MCP face: tool registration and wiring only; every decision lives in steps/. */
export function createServer(repo: RepoChoice, options: FlowOptions = {}): Server {
  const server = new Server(
    { name: 'copilot-onboard', title: 'copilot-onboard', version: VERSION },
    {
      capabilities: { tools: {}, logging: {}, prompts: {}, resources: {} },
      instructions:
        "copilot-onboard migrates AI-assistant instruction files into GitHub Copilot's layout. Call onboarding_analyze, then onboarding_propose and show the person the plan; onboarding_approve, onboarding_migrate and onboarding_rollback ask the person themselves. Never retry a step the person declined or cancelled unless they ask.",
    },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: toolDefinitions() }));
  registerPromptsAndResources(server, repo);
  server.setRequestHandler('tools/call', { params: CallToolParamsAsSent }, async (params, ctx): Promise<CallToolResult> => {
    const name = params.name as ToolName;
    const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args) || Object.keys(args).length > 0)) {
      const names =
        args && typeof args === 'object'
          ? Object.keys(args)
              .map((k) => JSON.stringify(k))
              .join(', ')
          : typeof args;
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${name} takes no arguments (got: ${names}). Only the person can answer its questions, through the form it shows.`,
      );
    }
    const call = {
      name,
      run: tool.run,
      options,
      report: reporter(ctx, params._meta?.progressToken, (n) => ctx.mcpReq.notify(n)),
      signal: ctx.mcpReq.signal,
    };
    if (typeof envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] === 'string') return callModern(server, repo, call, ctx);
    return callStep({ ...call, root: () => resolveRepoForSession(repo, server, ctx), session: sdkSession(server, ctx) });
  });
  return server;
}

/** The request's 2026-07-28 envelope (`_meta`: revision, capabilities, client), when it has one. */
const envelopeOf = (ctx: ServerContext) => ctx.mcpReq.envelope as Record<string, unknown> | undefined;

/**
 * A 2026-07-28 request: the person is asked between calls (mcp/rounds.ts, loaded here: a 2025
 * client never needs it), the repository is never asked of the client, and a gated step refused for
 * want of elicitation answers the spec's -32021 once its trace is written.
 */
async function callModern(server: Server, repo: RepoChoice, call: Omit<StepCall, 'root' | 'session'>, ctx: ServerContext) {
  const rounds = await import('./rounds.js');
  let resolved: Promise<string> | undefined;
  const root = () => (resolved ??= resolveRepoForSession(repo, server, ctx, false));
  const session = { ...rounds.modernSession(ctx, call.name, root), client: rounds.modernClient(ctx) };
  let result: ToolResult;
  try {
    result = await callStep({ ...call, root, session });
  } catch (err) {
    if (err instanceof rounds.FormAskedBetweenCalls) return err.result() as unknown as CallToolResult;
    throw err;
  }
  if (result.structuredContent?.outcome === 'elicitation_unsupported') {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { elicitation: { form: {} } } },
      `${call.name} needs the person's answer through a form, and this request did not declare elicitation. Nothing was changed.`,
    );
  }
  return result;
}

/**
 * Progress goes to the request that asked for it (it sent a progress token); logs honour the level
 * the client set. Progress messages are sent one after the other, in order; `flush` waits for the
 * last, so that the result is sent after every one of them.
 */
const FLUSH_LIMIT_MS = 5000;

export function reporter(
  ctx: ServerContext,
  token: string | number | undefined,
  send: (n: ServerNotification) => Promise<void>,
): FlowReport & { flush(): Promise<void> } {
  let sent: Promise<void> = Promise.resolve();
  return {
    progress(done, total, message) {
      if (token === undefined) return;
      const notification: ServerNotification = {
        method: 'notifications/progress',
        params: { progressToken: token, progress: done, total, message: showLine(message) },
      };
      sent = sent.then(() => send(notification)).catch(() => {});
    },
    // Bounded: a send that never settles (a connection gone quiet) does not hold the result back.
    async flush() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([sent, new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_LIMIT_MS)))]);
      clearTimeout(timer);
    },
    log(level, message) {
      void ctx.mcpReq.log(level, showLine(message), 'copilot-onboard').catch(() => {});
    },
  };
}
