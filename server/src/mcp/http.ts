import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import {
  NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from '@modelcontextprotocol/node';
import { positiveNumberFromEnv } from '../common/env.js';
import { BadInputError } from '../common/errors.js';
import type { FlowOptions } from '../call/context.js';
import type { RepoChoice } from '../steps/repo-choice.js';
import { createServer } from './server.js';

/** Live sessions at once; one more initialize gets 503 until a session ends or idles out. */
export const MAX_SESSIONS = 64;
/** Open standalone GET streams at once, over all sessions (one per session); one more gets 503. */
export const MAX_STREAMS = 16;
export const DEFAULT_IDLE_MS = 1_800_000;
/** A request's headers must arrive within this, and its body within this of the headers. */
export const HEADERS_TIMEOUT_MS = 5_000;
export const BODY_TIMEOUT_MS = 5_000;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpOptions {
  host: string;
  port: number;
  /** Every request must carry it: `Authorization: Bearer <token>`, or `?token=<token>` in the URL. */
  token: string;
  /** Extra Host header values to accept besides the loopback names (a name, or name:port). */
  allowedHosts?: string[];
  /** A session with no request in flight for this long is closed (COPILOT_ONBOARD_HTTP_IDLE_MS). */
  idleMs?: number;
}

/** COPILOT_ONBOARD_HTTP_IDLE_MS when it is a positive number, else 30 minutes. */
export function idleMs(env: NodeJS.ProcessEnv = process.env): number {
  return positiveNumberFromEnv('COPILOT_ONBOARD_HTTP_IDLE_MS', DEFAULT_IDLE_MS, env);
}

/**
 * The token: COPILOT_ONBOARD_HTTP_TOKEN when set and not empty, else 256 fresh random bits.
 * A token from the environment must be visible ASCII, so that it fits a header and a URL as typed.
 */
export function httpToken(env: NodeJS.ProcessEnv = process.env): { token: string; fromEnv: boolean } {
  const set = env.COPILOT_ONBOARD_HTTP_TOKEN;
  if (set !== undefined && set !== '') {
    if (!/^[\x21-\x7e]+$/.test(set))
      throw new BadInputError('COPILOT_ONBOARD_HTTP_TOKEN may hold only visible ASCII characters (no spaces or control characters).');
    return { token: set, fromEnv: true };
  }
  return { token: randomBytes(32).toString('base64url'), fromEnv: false };
}

/**
 * The address to bind when `host` is a loopback one (127.0.0.0/8, localhost, ::1), with its form
 * for a URL (IPv6 in brackets); null for anything else.
 */
export function loopbackHost(host: string): { bind: string; url: string } | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return { bind: 'localhost', url: 'localhost' };
  if (net.isIPv4(bare)) return bare.split('.')[0] === '127' ? { bind: bare, url: bare } : null;
  if (net.isIPv6(bare) && new URL(`http://[${bare}]/`).hostname === '[::1]') return { bind: '::1', url: '[::1]' };
  return null;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** POST requests of this session whose response is still open (a tool call waiting on a person among them). */
  inFlight: number;
  lastActive: number;
  /** The open standalone GET stream, if any. */
  stream: http.ServerResponse | null;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly closeConnection = false,
  ) {
    super(message);
  }
}

/**
 * Streamable HTTP with stateful sessions: each session gets its own MCP server (and so its own
 * elicitations and sampling), keyed by the Mcp-Session-Id header. Loopback only; every request must
 * name this machine and port in Host (and Origin, when sent) and carry the token. Sessions idle out,
 * and sessions and GET streams are capped.
 */
export async function serveHttp(repo: RepoChoice, options: HttpOptions, flow: FlowOptions = {}): Promise<http.Server> {
  const bound = loopbackHost(options.host);
  if (!bound) throw new BadInputError(notLoopback(options.host));
  const sessions = new SessionTable(repo, flow, options.idleMs ?? DEFAULT_IDLE_MS);
  // 2026-07-28 requests carry their era on every request: a fresh server from the same factory answers each.
  const modern = toNodeHandler(createMcpHandler(() => createServer(repo, flow), { legacy: 'reject' }));
  const expected = createHash('sha256').update(options.token).digest();
  const httpServer = http.createServer(
    // Node checks these every second: a request whose headers or body stall is answered 408 and closed.
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: HEADERS_TIMEOUT_MS + BODY_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
    (req, res) => void answer({ sessions, modern, bound, options, expected, port }, req, res),
  );
  const port = (): number => {
    const address = httpServer.address();
    return typeof address === 'object' && address ? address.port : options.port;
  };
  const sweep = sessions.sweepEvery();
  httpServer.once('close', () => {
    clearInterval(sweep);
    sessions.closeAll();
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, bound.bind, () => resolve());
  });
  return httpServer;
}

/** What every request is checked against. */
interface Gate {
  sessions: SessionTable;
  /** The 2026-07-28 handler: no session, the era and capabilities on every request. */
  modern: ReturnType<typeof toNodeHandler>;
  bound: { bind: string; url: string };
  options: HttpOptions;
  /** sha256 of the token. */
  expected: Buffer;
  port: () => number;
}

/**
 * One request: Host and Origin, then the token, then its era. A 2025-era request goes to its
 * session (or starts one, for an initialize): the person's forms and sampling travel on it. A
 * 2026-07-28 request goes to the modern handler.
 */
async function answer(gate: Gate, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { sessions, bound, options, expected } = gate;
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!sameMachine(req, gate.port(), bound.url, options.allowedHosts ?? []))
      return reply(res, 403, 'Forbidden: Host or Origin is not this server');
    if (!tokenMatches(presentedToken(req, url), expected)) {
      res.setHeader('www-authenticate', 'Bearer realm="copilot-onboard"');
      return reply(
        res,
        401,
        'Unauthorized: send Authorization: Bearer <token> (the token copilot-onboard serve --http printed, or COPILOT_ONBOARD_HTTP_TOKEN)',
      );
    }
    if (url.pathname !== '/mcp') return reply(res, 404, 'Not found: the MCP endpoint is /mcp');
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return void (await sessions.forward(existing, req, res));
    if (req.method !== 'POST')
      return reply(res, sessionId ? 404 : 400, sessionId ? 'Unknown session' : 'No session: send initialize first');
    const body = await readJson(req, res);
    if (!sessionId && body !== undefined && !(await isLegacyRequest(await toWebRequest(req, body), body)))
      return void (await gate.modern(req, res, body));
    if (sessionId || !isInitializeRequest(body))
      return reply(res, sessionId ? 404 : 400, sessionId ? 'Unknown session' : 'No session: send initialize first');
    if (sessions.full()) {
      res.setHeader('retry-after', '60');
      return reply(
        res,
        503,
        `Too many sessions: ${MAX_SESSIONS} are open. End one (DELETE), or wait until one is idle for ${sessions.idle} ms.`,
      );
    }
    await sessions.start(req, res, body);
  } catch (err) {
    if (res.headersSent) return;
    const status = err instanceof HttpError ? err.status : 400;
    if (err instanceof HttpError && err.closeConnection) {
      res.setHeader('connection', 'close');
      res.once('finish', () => req.destroy());
    }
    reply(res, status, status === 400 ? `Bad request: ${(err as Error).message}` : (err as Error).message);
  }
}

/** The live sessions and GET streams, each capped; a session with nothing in flight for `idle` ms is closed. */
class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private starting = 0;
  private streams = 0;

  constructor(
    private readonly repo: RepoChoice,
    private readonly flow: FlowOptions,
    readonly idle: number,
  ) {}

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  full(): boolean {
    return this.sessions.size + this.starting >= MAX_SESSIONS;
  }

  async start(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    this.starting++;
    try {
      const server = createServer(this.repo, this.flow);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void this.sessions.set(id, { transport, server, inFlight: 0, lastActive: Date.now(), stream: null }),
      });
      transport.onclose = () => {
        if (transport.sessionId) this.sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      this.starting--;
    }
  }

  async forward(session: Session, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET') return this.openStream(session, req, res);
    session.lastActive = Date.now();
    if (req.method !== 'POST') return session.transport.handleRequest(req, res);
    // Busy until the response ends: a tool call waiting for the person's answer is not idle.
    session.inFlight++;
    res.once('close', () => {
      session.inFlight--;
      session.lastActive = Date.now();
    });
    await session.transport.handleRequest(req, res, await readJson(req, res));
  }

  private async openStream(session: Session, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (session.stream) return reply(res, 409, 'Conflict: this session already has its GET stream open');
    if (this.streams >= MAX_STREAMS) {
      res.setHeader('retry-after', '60');
      return reply(
        res,
        503,
        `Too many GET streams: ${MAX_STREAMS} are open. Requests and forms still work: they answer on each POST's own stream.`,
      );
    }
    this.streams++;
    session.stream = res;
    res.once('close', () => {
      this.streams--;
      if (session.stream === res) session.stream = null;
    });
    return session.transport.handleRequest(req, res);
  }

  /** Close sessions with nothing in flight for `idle` ms; later requests to them get 404. */
  sweepEvery(): NodeJS.Timeout {
    const sweep = setInterval(
      () => {
        const now = Date.now();
        for (const [id, session] of this.sessions) {
          if (session.inFlight === 0 && now - session.lastActive >= this.idle) {
            this.sessions.delete(id);
            void session.server.close().catch(() => {});
          }
        }
      },
      Math.max(50, Math.min(this.idle / 4, 60_000)),
    );
    sweep.unref();
    return sweep;
  }

  closeAll(): void {
    for (const session of this.sessions.values()) void session.server.close().catch(() => {});
    this.sessions.clear();
  }
}

export function notLoopback(host: string): string {
  return (
    `--host ${JSON.stringify(host)} is not a loopback address: serve --http listens only on 127.0.0.0/8, localhost or ::1, ` +
    'since anyone who reaches the port could drive the tool. To use it from another machine or a container, forward the port instead ' +
    '(for example: ssh -L 3333:127.0.0.1:3333 this-machine).'
  );
}

/** The bearer token of the Authorization header; without that header, the URL's `token` parameter. */
function presentedToken(req: http.IncomingMessage, url: URL): string | null {
  const header = req.headers.authorization;
  if (header !== undefined) return /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? null;
  return url.searchParams.get('token');
}

/** Constant time: both sides are hashed first, so the compared buffers always have the same length. */
function tokenMatches(given: string | null, expected: Buffer): boolean {
  if (given === null || given === '') return false;
  return timingSafeEqual(createHash('sha256').update(given).digest(), expected);
}

/**
 * Host must be one of this machine's loopback names (or an --allowed-host) with this server's port;
 * Origin, when sent, the same over http. A page on another site or another port is refused
 * (DNS rebinding, and other local servers' pages).
 */
function sameMachine(req: http.IncomingMessage, port: number, boundName: string, allowedHosts: string[]): boolean {
  const allowed = new Set([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `${boundName}:${port}`]);
  for (const extra of allowedHosts) {
    const key = hostKey(extra, String(port));
    if (key) allowed.add(key);
  }
  const host = req.headers.host;
  if (host === undefined || !allowed.has(hostKey(host) ?? '')) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return parsed.protocol === 'http:' && allowed.has(hostKey(parsed.host) ?? '');
}

/** `name:port` of a Host value (port 80 when it names none, or `defaultPort`); null when it is not a bare host. */
function hostKey(value: string, defaultPort = '80'): string | null {
  let u: URL;
  try {
    u = new URL(`http://${value}`);
  } catch {
    return null;
  }
  if (u.username || u.password || u.pathname !== '/' || u.search || u.hash || value.includes('/')) return null;
  const explicitPort = /:\d+$/.test(value);
  return `${u.hostname}:${u.port || (explicitPort ? '80' : defaultPort)}`;
}

function reply(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * The body as JSON: at most 4 MiB, and all of it within BODY_TIMEOUT_MS; else the answer is 413 or
 * 408 and the connection is closed.
 */
async function readJson(req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  const timer = setTimeout(() => {
    if (res.headersSent) return void req.destroy();
    res.setHeader('connection', 'close');
    res.writeHead(408, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32000, message: `Request timeout: the body did not arrive within ${BODY_TIMEOUT_MS} ms` },
        id: null,
      }),
      () => req.destroy(),
    );
  }, BODY_TIMEOUT_MS);
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, 'Payload too large: the body is over 4 MiB', true);
      chunks.push(chunk as Buffer);
    }
  } finally {
    clearTimeout(timer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}
