import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, type ElicitAnswer, type SampleAnswer } from './mcp.js';
import type { Cleanup } from './sandbox.js';

/**
 * The v2 SDK's client (`@modelcontextprotocol/client`), as a 2026-07-28 client meets the server:
 * pinned to that revision, in auto mode (probe with server/discover, fall back to initialize), or in
 * legacy mode (a 2025 client built on the v2 SDK). Over stdio (the real `serve`) or over HTTP (a
 * running `serve --http`).
 */
export type Mode = 'pin' | 'auto' | 'legacy';

export interface V2Session {
  client: Client;
  /** A call as an application makes it: the client asks the person between rounds itself. */
  call(name: string): Promise<CallToolResult>;
  /** One round by hand: the raw result, `input_required` included, for the answers and state given. */
  round(name: string, extra?: { inputResponses?: Record<string, unknown>; requestState?: string }): Promise<Record<string, any>>;
  /** The sampling requests the client was asked to answer. */
  samplings: unknown[];
  /** The forms the client was asked to show (auto-fulfilled rounds). */
  elicitations: Array<{ message: string; requestedSchema: { properties?: Record<string, unknown> } }>;
  revision(): string | undefined;
  close(): Promise<void>;
}

export async function connectV2(opts: {
  mode: Mode;
  repo?: string;
  http?: { url: string; token: string };
  elicit?: ElicitAnswer | null;
  /** Declare sampling and answer it with this. */
  sample?: SampleAnswer | null;
  env?: Record<string, string>;
  name?: string;
}): Promise<V2Session> {
  const capabilities: Record<string, object> = {};
  if (opts.elicit) capabilities.elicitation = { form: {} };
  if (opts.sample) capabilities.sampling = {};
  const mode = opts.mode === 'pin' ? { pin: '2026-07-28' } : opts.mode;
  const client = new Client({ name: opts.name ?? 'v2-test-client', version: '2.4.0' }, { capabilities, versionNegotiation: { mode } });
  const elicitations: V2Session['elicitations'] = [];
  if (opts.elicit) {
    const elicit = opts.elicit;
    client.setRequestHandler('elicitation/create', async (req) => {
      elicitations.push(req.params as V2Session['elicitations'][number]);
      return (await elicit(req.params as never)) as never;
    });
  }
  const samplings: unknown[] = [];
  if (opts.sample) {
    const sample = opts.sample;
    client.setRequestHandler('sampling/createMessage', async (req) => {
      samplings.push(req.params);
      return (await sample(req.params as never)) as never;
    });
  }
  if (opts.http) {
    const requestInit = { headers: { authorization: `Bearer ${opts.http.token}` } };
    await client.connect(new StreamableHTTPClientTransport(new URL(opts.http.url), { requestInit }));
  } else {
    const args = [CLI, 'serve', ...(opts.repo ? ['--repo', opts.repo] : [])];
    const env = { ...(process.env as Record<string, string>), ...(opts.env ?? {}) };
    await client.connect(new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore' }));
  }
  return {
    client,
    elicitations,
    samplings,
    call: async (name) => (await client.callTool({ name, arguments: {} }, { timeout: 120_000 })) as CallToolResult,
    round: async (name, extra = {}) =>
      (await client.callTool(
        { name, arguments: {}, ...extra } as never,
        {
          timeout: 120_000,
          allowInputRequired: true,
          // One round only: the test answers (or not) by hand.
        } as never,
      )) as Record<string, any>,
    revision: () => client.getNegotiatedProtocolVersion(),
    close: () => client.close(),
  };
}

export async function openV2(t: Cleanup, opts: Parameters<typeof connectV2>[0]): Promise<V2Session> {
  const s = await connectV2(opts);
  t.after(() => s.close());
  return s;
}
