import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { FlowContext, FlowOptions, FlowReport } from '../call/context.js';
import type { StepResult } from '../steps/result.js';
import { OUTPUT_SCHEMAS, type ToolName } from './tool-schemas.js';
import { resolveRepoForSession, type RepoChoice } from './repo.js';
import { sdkSession } from './ports.js';
import { VERSION } from '../version.js';
import { registerPromptsAndResources } from './prompts-resources.js';
import { showLine, showText } from '../show/untrusted.js';
import { NARRATION_LABEL } from '../narrate/label.js';
import { boundJson, boundText, countBy, MAX_STRUCTURED_BYTES, MAX_TEXT_BYTES } from '../narrate/bounded.js';

// The steps load on the first tool call: a client waits for `initialize` and `tools/list` only.
const readOnly = () => import('../steps/read-only.js');
const gated = () => import('../steps/gated.js');

interface ToolSpec {
  title: string;
  description: string;
  annotations: Tool['annotations'];
  run: (ctx: FlowContext) => Promise<StepResult>;
}

const TOOLS: Record<ToolName, ToolSpec> = {
  onboarding_analyze: {
    title: 'Analyze instruction files',
    description:
      "Find and classify the repository's AI-assistant instruction files (pattern: clean, structured, unstructured or messy) and list duplicated and contradicting rules. Read-only.",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (ctx) => (await readOnly()).analyzeStep(ctx),
  },
  onboarding_propose: {
    title: 'Propose a migration plan',
    description:
      'Build the exact migration plan into Copilot\'s layout: every file to create, change or remove, with content and unified diff. Writes only under .copilot-state/. Show the diff to the person before onboarding_approve.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (ctx) => (await readOnly()).proposeStep(ctx),
  },
  onboarding_approve: {
    title: 'Ask the person to approve the plan',
    description:
      'Asks the person, through an elicitation form, to approve the current plan. Takes no arguments: only the person can approve. If the person declines or cancels, do not retry unless they ask.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (ctx) => (await gated()).approveStep(ctx),
  },
  onboarding_migrate: {
    title: 'Apply the approved plan',
    description:
      'Asks the person for a final confirmation, backs up every file it touches under .copilot-state/backups/, and applies the approved plan. Takes no arguments.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (ctx) => (await gated()).migrateStep(ctx),
  },
  onboarding_rollback: {
    title: 'Roll back the last migration',
    description: 'Asks the person for confirmation, then restores every file from the backup byte for byte and removes the files the migration created. Takes no arguments.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (ctx) => (await gated()).rollbackStep(ctx),
  },
  onboarding_status: {
    title: 'Onboarding status',
    description: 'Where the onboarding stands: the plan, the approval, the migration that can be rolled back, and the next step. Read-only.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (ctx) => (await import('../steps/status.js')).statusStep(ctx),
  },
  onboarding_check: {
    title: 'Check the instruction files are still consistent',
    description:
      "What copilot-onboard check reports in CI: contradictions, duplicates, drift (a legacy file saying what Copilot's files do not) and the files propose would change now; failed is true when a contradiction is found. Writes nothing, not even .copilot-state/. Read-only.",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (ctx) => (await import('../steps/check.js')).checkStep(ctx),
  },
};

export const BAD_INPUT_META = 'copilot-onboard/bad-input';

/** Said once, by the run that created `.copilot-state/`. */
export const STATE_FOLDER_NOTICE =
  'Created .copilot-state/ with its own .gitignore (.copilot-state/.gitignore): backups, the plan, the state, the journal and locks stay out of git, so git add -A offers only the traces, which are meant to be reviewed and may be committed.';

const EMPTY_INPUT = { type: 'object' as const, properties: {}, additionalProperties: false };

/**
 * The SDK's schema copies `arguments` into a fresh record, and a key named `__proto__` does not
 * survive that copy; so the handler would see `{}` where the client sent an argument. This schema
 * hands over the arguments exactly as they were parsed from the wire (the SDK still checks that
 * they form an object), so that every argument is refused.
 */
const CallToolRequestAsSent = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }),
});

let definitions: Tool[] | undefined;

/** Built on first use: JSON Schema generation is not needed by the CLI's in-process calls. */
export function toolDefinitions(): Tool[] {
  return (definitions ??= (Object.keys(TOOLS) as ToolName[]).map((name) => ({
    name,
    title: TOOLS[name].title,
    description: TOOLS[name].description,
    inputSchema: EMPTY_INPUT,
    outputSchema: z.toJSONSchema(OUTPUT_SCHEMAS[name], { io: 'output' }) as Tool['outputSchema'],
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
        'copilot-onboard migrates AI-assistant instruction files into GitHub Copilot\'s layout. Call onboarding_analyze, then onboarding_propose and show the person the plan; onboarding_approve, onboarding_migrate and onboarding_rollback ask the person themselves. Never retry a step the person declined or cancelled unless they ask.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolDefinitions() }));
  registerPromptsAndResources(server, repo);
  server.setRequestHandler(CallToolRequestAsSent, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name as ToolName;
    const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args) || Object.keys(args).length > 0)) {
      const names = args && typeof args === 'object' ? Object.keys(args).map((k) => JSON.stringify(k)).join(', ') : typeof args;
      throw new McpError(ErrorCode.InvalidParams, `${name} takes no arguments (got: ${names}). Only the person can answer its questions, through the form it shows.`);
    }
    let stepResult: StepResult;
    let root: string | null = null;
    try {
      root = await resolveRepoForSession(repo, server, extra.requestId);
      // A bare repository has no work tree: nothing is read, and no .copilot-state/ is written into it.
      await (await import('../repo/git-state.js')).assertNotBare(root);
      const safe = await import('../repo/safe-fs.js');
      // A link in .copilot-state is refused before anything is read or written, read-only steps included.
      await safe.assertStateTreeReal(root);
      const session = sdkSession(server, extra.requestId);
      const recovered = await (await import('../gate/recovery-trace.js')).recoverAndTrace(root, session.client.info());
      const report = reporter(server, request.params._meta?.progressToken, extra.sendNotification);
      stepResult = await tool.run({ root, session, signal: extra.signal, options: { ...options, repoArg: options.repoArg ?? root }, report });
      // Every progress message goes out before the result, never after it.
      await report.flush();
      reporter(server, undefined, extra.sendNotification).log(stepResult.isError ? 'warning' : 'info', `${name}: ${stepResult.outcome}`);
      if (recovered) {
        stepResult.text = `Recovered first: ${showLine(recovered.detail)}\n\n${stepResult.text}`;
        stepResult.structured.recovered = recovered;
      }
    } catch (err) {
      stepResult = (await import('../steps/result.js')).resultForError(err);
    }
    // The run that created .copilot-state/ (and its .gitignore) says so, once.
    if (root !== null && (await import('../repo/safe-fs.js')).takeStateFolderCreated(root)) {
      stepResult.text = withFact(stepResult.text, STATE_FOLDER_NOTICE);
      stepResult.structured.notice = STATE_FOLDER_NOTICE;
    }
    return toCallToolResult(stepResult, name);
  });
  return server;
}

/** A fact of the tool's own goes with the facts: before the client model's narration, which always comes last. */
function withFact(text: string, fact: string): string {
  const narration = text.lastIndexOf(`\n\n---\n${NARRATION_LABEL}`);
  return narration < 0 ? `${text}\n\n${fact}` : `${text.slice(0, narration)}\n\n${fact}${text.slice(narration)}`;
}

/**
 * Progress goes to the request that asked for it (it sent a progress token); logs honour the level
 * the client set. Progress messages are sent one after the other, in order; `flush` waits for the
 * last, so that the result is sent after every one of them.
 */
const FLUSH_LIMIT_MS = 5000;

export function reporter(server: Server, token: string | number | undefined, send: (n: ServerNotification) => Promise<void>): FlowReport & { flush(): Promise<void> } {
  let sent: Promise<void> = Promise.resolve();
  return {
    progress(done, total, message) {
      if (token === undefined) return;
      const notification: ServerNotification = { method: 'notifications/progress', params: { progressToken: token, progress: done, total, message: showLine(message) } };
      sent = sent.then(() => send(notification)).catch(() => {});
    },
    // Bounded: a send that never settles (a connection gone quiet) does not hold the result back.
    async flush() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([sent, new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_LIMIT_MS)))]);
      clearTimeout(timer);
    },
    log(level, message) {
      void server.sendLoggingMessage({ level, logger: 'copilot-onboard', data: showLine(message) }).catch(() => {});
    },
  };
}

/** Where the whole of a cut reply is, by tool: an MCP resource the client reads in pages, and the file on disk. */
const WHOLE: Partial<Record<ToolName, { uri: string; name: string; file?: string; mimeType: string }>> = {
  onboarding_propose: { uri: 'copilot-onboard://plan', name: 'plan', file: '.copilot-state/plan.json', mimeType: 'text/markdown' },
  onboarding_analyze: { uri: 'copilot-onboard://analysis', name: 'analysis', mimeType: 'application/json' },
};

/**
 * The text a client shows passes the display function: every hidden character escaped, newlines
 * kept (the steps quote paths and put outside text on one line themselves). structuredContent is
 * data, exactly as it is: the content there is what would be written.
 *
 * Both are bounded (narrate/bounded.ts): a reply stays well under 1 MiB on a repository of any
 * size. What is cut is counted in `truncated`, and the whole is offered as a resource_link.
 */
function toCallToolResult(r: StepResult, tool: ToolName): CallToolResult {
  const whole = WHOLE[tool];
  const where = whole ? `The whole of it: the MCP resource ${whole.uri} (read in pages)${whole.file ? `, and ${whole.file}` : ''}.` : 'The whole of it is in .copilot-state/.';
  const bounded = boundJson(r.structured, MAX_STRUCTURED_BYTES);
  const structured: CallToolResult['structuredContent'] = bounded.value;
  let text = showText(r.text);
  const textCut = Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES;
  if (textCut || bounded.omitted) {
    const summary = summaryOf(r.structured);
    text = boundText(summary ? `${summary}\n\n${text}` : text, MAX_TEXT_BYTES, where);
    structured.truncated = { omitted: bounded.omitted ?? {}, textCut, whole: where, ...(whole ? { resource: whole.uri } : {}) };
  }
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  if ((textCut || bounded.omitted) && whole) content.push({ type: 'resource_link', uri: whole.uri, name: whole.name, mimeType: whole.mimeType, description: `The whole ${whole.name}, in pages.` });
  const result: CallToolResult = { content, structuredContent: structured, isError: r.isError };
  // Lets the CLI tell bad input (exit 2) from an internal error (exit 1).
  if (r.badInput) result._meta = { [BAD_INPUT_META]: true };
  return result;
}

/** A long reply's shape in a few numbers: operations by kind, problems by type, sources and notes counted. */
function summaryOf(s: Record<string, unknown>): string | null {
  const parts: string[] = [];
  const list = (k: string) => (Array.isArray(s[k]) ? (s[k] as Record<string, unknown>[]) : null);
  const ops = list('operations');
  if (ops) parts.push(`${ops.length} file operations (${fmt(countBy(ops, (o) => String(o.op)))})`);
  const problems = list('problems');
  if (problems) parts.push(`${problems.length} problems (${fmt(countBy(problems, (p) => String(p.type))) || 'none'})`);
  const sources = list('sources');
  if (sources) parts.push(`${sources.length} instruction files`);
  const notes = list('notes');
  if (notes) parts.push(`${notes.length} notes`);
  return parts.length ? `In short: ${parts.join('; ')}. This reply shows the first of each; the whole is below.` : null;
}

const fmt = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
