import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FlowOptions } from '../steps/context.js';
import type { RepoChoice } from './repo.js';
import { createServer } from './server.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** Extra Host header values to accept besides the loopback names. */
  allowedHosts?: string[];
}

/**
 * Streamable HTTP with stateful sessions: each session gets its own MCP server (and so its own
 * elicitations and sampling), keyed by the Mcp-Session-Id header. Bound to 127.0.0.1 by default;
 * requests whose Host or Origin is not this machine are refused (DNS-rebinding protection).
 */
export async function serveHttp(repo: RepoChoice, options: HttpOptions, flow: FlowOptions = {}): Promise<http.Server> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/mcp') return reply(res, 404, 'Not found: the MCP endpoint is /mcp');
      if (!hostAllowed(req, httpServer, options)) return reply(res, 403, 'Forbidden: Host or Origin is not allowed');
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (existing) return void (await existing.handleRequest(req, res, req.method === 'POST' ? await readJson(req) : undefined));
      if (req.method !== 'POST') return reply(res, sessionId ? 404 : 400, sessionId ? 'Unknown session' : 'No session: send initialize first');
      const body = await readJson(req);
      if (sessionId || !isInitializeRequest(body)) return reply(res, sessionId ? 404 : 400, sessionId ? 'Unknown session' : 'No session: send initialize first');
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await createServer(repo, flow).connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent) reply(res, 400, `Bad request: ${(err as Error).message}`);
    }
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => resolve());
  });
  return httpServer;
}

function hostAllowed(req: http.IncomingMessage, server: http.Server, options: HttpOptions): boolean {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const names = ['127.0.0.1', 'localhost', '[::1]', ...(options.allowedHosts ?? [])];
  const allowed = new Set(names.flatMap((n) => [n, `${n}:${port}`]));
  if (!allowed.has(req.headers.host ?? '')) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return allowed.has(new URL(origin).host);
  } catch {
    return false;
  }
}

function reply(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) throw new Error('body over 4 MiB');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}
