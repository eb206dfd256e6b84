import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import type { Cleanup } from './sandbox.js';
import { roleOf } from '../../server/src/call/field-roles.js';

export const CLI = path.resolve(import.meta.dirname, '../../server/dist/cli.js');

export type ElicitAnswer = (
  req: ElicitRequest['params'],
) => Promise<ElicitResult | Record<string, unknown>> | ElicitResult | Record<string, unknown>;
export type SampleAnswer = (req: CreateMessageRequest['params']) => Promise<CreateMessageResult> | CreateMessageResult;

export interface Session {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  stderr(): string;
  close(): Promise<void>;
  elicitations: ElicitRequest['params'][];
  samplings: CreateMessageRequest['params'][];
}

export const never = () => new Promise<never>(() => {});

/**
 * Start the real server as a child process over stdio and connect the SDK's own Client.
 * `elicit`/`sample` null means the client lacks that capability.
 */
export async function connect(opts: {
  repo?: string;
  cwd?: string;
  elicit?: ElicitAnswer | null;
  sample?: SampleAnswer | null;
  env?: Record<string, string>;
  args?: string[];
  clientName?: string;
  clientVersion?: string;
  /** Another build's cli.js (the bench's baseline); this checkout's build by default. */
  cli?: string;
}): Promise<Session> {
  const elicit = opts.elicit ?? null;
  const sample = opts.sample ?? null;
  const capabilities: Record<string, object> = {};
  if (elicit) capabilities.elicitation = { form: {} };
  if (sample) capabilities.sampling = {};
  const client = new Client({ name: opts.clientName ?? 'test-client', version: opts.clientVersion ?? '1.2.3' }, { capabilities });
  const elicitations: ElicitRequest['params'][] = [];
  const samplings: CreateMessageRequest['params'][] = [];
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      elicitations.push(req.params);
      return (await elicit(req.params)) as ElicitResult;
    });
  }
  if (sample) {
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      samplings.push(req.params);
      return sample(req.params);
    });
  }
  const args = [opts.cli ?? CLI, 'serve', ...(opts.repo ? ['--repo', opts.repo] : []), ...(opts.args ?? [])];
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...(opts.env ?? {}) };
  const transport = new StdioClientTransport({ command: process.execPath, args, env, cwd: opts.cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  await client.connect(transport);
  return {
    client,
    elicitations,
    samplings,
    call: async (name, args) => (await client.callTool({ name, arguments: args ?? {} }, undefined, { timeout: 120_000 })) as CallToolResult,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/** `connect`, closed when the test `t` ends. */
export async function openSession(t: Cleanup, opts: Parameters<typeof connect>[0]): Promise<Session> {
  const s = await connect(opts);
  t.after(() => s.close());
  return s;
}

export const accept =
  (content: Record<string, unknown>): ElicitAnswer =>
  () => ({ action: 'accept', content });
export const approveYes = accept({ approved: true });
export const migrateYes = accept({ confirmed: true, understood_risks: true });
export const rollbackYes = accept({ confirmed: true });

const fieldsOf = (req: unknown): string[] =>
  Object.keys((req as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});

/** Answers each gated step's form with a yes to every confirmation; approve's first round (the choices) with the defaults. */
export const yesToAll: ElicitAnswer = (req) => ({
  action: 'accept',
  content: Object.fromEntries(
    fieldsOf(req)
      .filter((name) => roleOf(name) === 'confirm')
      .map((name) => [name, true]),
  ),
});

/** Answers approve's first round with `choose(its fields)`, and yes to every other form. */
export const choosing =
  (choose: (props: Record<string, any>) => Record<string, unknown> = () => ({})): ElicitAnswer =>
  (req) =>
    isChoicesRound(req)
      ? { action: 'accept', content: choose((req as { requestedSchema: { properties: Record<string, any> } }).requestedSchema.properties) }
      : yesToAll(req);

/** Approve's first round (the choices): its form asks no confirmation. */
export const isChoicesRound = (req: unknown): boolean => !fieldsOf(req).some((name) => roleOf(name) === 'confirm');

export function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export function outcomeOf(r: CallToolResult): string {
  return (r.structuredContent as { outcome?: string } | undefined)?.outcome ?? '(none)';
}
