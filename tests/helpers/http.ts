import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './mcp.js';
import type { Cleanup } from './sandbox.js';

export interface HttpServer {
  /** The endpoint as printed, without the token: http://127.0.0.1:PORT/mcp */
  url: string;
  port: number;
  /** The token the server wants: the one it printed, or COPILOT_ONBOARD_HTTP_TOKEN. */
  token: string;
  child: ChildProcess;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Headers of an authenticated MCP request. */
  headers(extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Start the real `serve --http --port 0` (loopback) as a child process; resolve once it printed its
 * URL and its token. `env` is added to this process's environment; a null value removes a variable.
 */
export async function startHttp(args: string[] = [], env: Record<string, string | null> = {}): Promise<HttpServer> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'COPILOT_ONBOARD_HTTP_TOKEN') childEnv[k] = v;
  for (const [k, v] of Object.entries(env))
    if (v === null) delete childEnv[k];
    else childEnv[k] = v;
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: childEnv,
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };
  try {
    const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL and token on stderr within 20 s: ${err}`)), 20_000);
      const look = () => {
        const url = /serving MCP on (http:\/\/\S+)/.exec(err)?.[1];
        const printed = /token for this run[^:]*: (\S+)/.exec(err)?.[1];
        const fromEnv = /token from COPILOT_ONBOARD_HTTP_TOKEN/.test(err) ? env.COPILOT_ONBOARD_HTTP_TOKEN : undefined;
        const token = printed ?? fromEnv ?? undefined;
        if (url && token && /\?token=/.test(err)) {
          clearTimeout(timer);
          resolve({ url, token });
        }
      };
      child.stderr!.on('data', look);
      child.once('exit', () => (clearTimeout(timer), reject(new Error(`server exited: ${err}`))));
    });
    const port = Number(new URL(url).port);
    const headers = (extra: Record<string, string> = {}) => ({
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...extra,
    });
    return { url, port, token, child, stderr: () => err, headers, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** `startHttp`, stopped when the test `t` ends. */
export async function httpServer(t: Cleanup, args: string[] = [], env: Record<string, string | null> = {}): Promise<HttpServer> {
  const server = await startHttp(args, env);
  t.after(() => server.stop());
  return server;
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/**
 * One request with node:http (fetch does not let a caller set Host). Reads the whole body, or only
 * the head when `headOnly` (an SSE stream that stays open is then destroyed).
 */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: unknown; headOnly?: boolean; timeoutMs?: number } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'POST', headers: opts.headers ?? {} }, (res) => {
      if (opts.headOnly) {
        resolve({ status: res.statusCode!, headers: res.headers, body: '' });
        res.destroy();
        return;
      }
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs ?? 15_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
  });
}

/** An SDK client over Streamable HTTP, with the token in its headers (or none: `headers: {}`). */
export async function httpClient(
  url: string | URL,
  opts: {
    token?: string;
    repo?: string;
    name?: string;
    elicit?: () => Promise<ElicitResult> | ElicitResult;
    onerror?: (e: Error) => void;
  } = {},
): Promise<Client> {
  const capabilities: Record<string, object> = { roots: {} };
  if (opts.elicit) capabilities.elicitation = { form: {} };
  const client = new Client({ name: opts.name ?? 'http-test', version: '1.0.0' }, { capabilities });
  if (opts.repo) {
    const uri = pathToFileURL(opts.repo).href;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri }] }));
  }
  if (opts.elicit) {
    const elicit = opts.elicit;
    client.setRequestHandler(ElicitRequestSchema, async () => elicit());
  }
  if (opts.onerror) client.onerror = opts.onerror;
  const requestInit = opts.token ? { headers: { authorization: `Bearer ${opts.token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), requestInit ? { requestInit } : undefined));
  return client;
}

/** `httpClient`, closed when the test `t` ends. */
export async function openHttpClient(t: Cleanup, url: string | URL, opts: Parameters<typeof httpClient>[1] = {}): Promise<Client> {
  const client = await httpClient(url, opts);
  t.after(() => client.close());
  return client;
}
