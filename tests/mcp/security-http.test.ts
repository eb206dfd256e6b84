import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { httpClient, httpServer, INITIALIZE, openHttpClient, rawRequest, startHttp, type HttpServer } from '../helpers/http.js';
import { MESSY_INSTRUCTIONS, readState, sandbox } from '../helpers/sandbox.js';

/** `serve --http`: nobody else on the port, and nothing unbounded (issue 17, "Somebody else on the port"). */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw initialize; resolves to the status and the session id it got. */
async function initialize(server: HttpServer, headers: Record<string, string> = server.headers()) {
  const res = await rawRequest(server.url, { headers, body: INITIALIZE });
  return { status: res.status, session: res.headers['mcp-session-id'] as string | undefined, body: res.body };
}

/** Open a standalone GET stream of a session and keep it open; resolves once the head arrived. */
function openStream(server: HttpServer, session: string): Promise<{ status: number; close(): void }> {
  const controller = new AbortController();
  return fetch(server.url, {
    headers: server.headers({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }),
    signal: controller.signal,
  }).then((res) => {
    if (!res.ok) void res.body?.cancel();
    return { status: res.status, close: () => controller.abort() };
  });
}

function runCli(args: string[], timeoutMs = 20_000) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: timeoutMs, input: '' });
}

test('HTTP without the token, or with a wrong one, answers 401 to POST, GET and DELETE; with it, a client works', async (t) => {
  const server = await httpServer(t);
  const { session } = await initialize(server);
  assert.ok(session, 'an authenticated initialize gets a session');
  const wrong: Array<Record<string, string>> = [
    {},
    { authorization: `Bearer ${server.token.slice(0, -1)}x` },
    { authorization: `Bearer ${server.token}x` },
    { authorization: 'Bearer ' },
    { authorization: server.token },
    { authorization: `Basic ${Buffer.from(`u:${server.token}`).toString('base64')}` },
  ];
  for (const auth of wrong) {
    const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth };
    const post = await rawRequest(server.url, { headers: base, body: INITIALIZE });
    assert.equal(post.status, 401, `POST with ${JSON.stringify(auth)}`);
    assert.match(String(post.headers['www-authenticate']), /^Bearer/);
    assert.ok(!post.body.includes(server.token), 'the answer does not echo the token');
    for (const method of ['GET', 'DELETE']) {
      const r = await rawRequest(server.url, { method, headers: { ...base, 'mcp-session-id': session! }, headOnly: true });
      assert.equal(r.status, 401, `${method} with ${JSON.stringify(auth)}`);
    }
  }
  // The SDK's own client, with the header.
  const client = await openHttpClient(t, server.url, { token: server.token });
  assert.equal((await client.listTools()).tools.length, 7);
  // The scheme is case-insensitive (RFC 7235).
  assert.equal((await initialize(server, server.headers({ authorization: `bearer ${server.token}` }))).status, 200);
  // Without the token, the SDK's client fails to connect.
  await assert.rejects(httpClient(server.url, {}));
  // The session still works after all these refusals, and DELETE with the token ends it.
  assert.equal((await rawRequest(server.url, { method: 'DELETE', headers: server.headers({ 'mcp-session-id': session! }) })).status, 200);
});

test('the token is COPILOT_ONBOARD_HTTP_TOKEN when set; otherwise a fresh random one, printed once on stderr with the URL', async (t) => {
  const a = await httpServer(t);
  const b = await httpServer(t, [], { COPILOT_ONBOARD_HTTP_TOKEN: '' });
  assert.notEqual(a.token, b.token, 'two runs, two tokens');
  for (const s of [a, b]) {
    assert.match(s.token, /^[A-Za-z0-9_-]{22,}$/, 'at least 128 random bits');
    assert.ok(s.stderr().includes(`${s.url}?token=${s.token}`), 'the URL with the token is printed');
  }
  // Printed at start only: refusals and sessions do not print it again.
  const printed = a.stderr();
  const count = (text: string) => text.split(a.token).length - 1;
  await initialize(a, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  await initialize(a);
  await sleep(200);
  assert.equal(count(a.stderr()), count(printed), 'no new line holds the token');
  assert.ok(count(printed) >= 1 && count(printed) <= 2, printed);

  const chosen = 'a-token-the-person-chose-0123456789';
  const c = await httpServer(t, [], { COPILOT_ONBOARD_HTTP_TOKEN: chosen });
  assert.equal(c.token, chosen);
  assert.ok(!c.stderr().includes(chosen), 'a token from the environment is not printed');
  assert.equal((await initialize(c)).status, 200);
  assert.equal((await initialize(c, c.headers({ authorization: `Bearer ${a.token}` }))).status, 401, "another run's token does not work");
});

test('the token is also accepted in the URL query (?token=), for clients that send no headers such as the conformance runner', async (t) => {
  const server = await httpServer(t);
  const withToken = `${server.url}?token=${encodeURIComponent(server.token)}`;
  const client = await openHttpClient(t, withToken);
  assert.equal((await client.listTools()).tools.length, 7);
  const bare = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  assert.equal((await rawRequest(`${server.url}?token=${server.token}x`, { headers: bare, body: INITIALIZE })).status, 401);
  assert.equal((await rawRequest(`${server.url}?token=`, { headers: bare, body: INITIALIZE })).status, 401);
  assert.equal((await rawRequest(withToken, { headers: bare, body: INITIALIZE })).status, 200);
});

test('an idle session is closed after COPILOT_ONBOARD_HTTP_IDLE_MS and then answers 404; one waiting for the person is not idle', async (t) => {
  const server = await httpServer(t, [], { COPILOT_ONBOARD_HTTP_IDLE_MS: '1500' });
  const repo = sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS });

  const idle = await initialize(server);
  assert.equal(idle.status, 200);
  // The person takes 4.5 s to answer: three times the idle time.
  const waiting = await openHttpClient(t, server.url, {
    token: server.token,
    repo,
    elicit: async () => (await sleep(4500), { action: 'accept', content: { approved: true } }),
  });
  await waiting.callTool({ name: 'onboarding_propose', arguments: {} });
  const answer = await waiting.callTool({ name: 'onboarding_approve', arguments: {} }, undefined, { timeout: 30_000 });
  assert.equal((answer.structuredContent as { outcome: string }).outcome, 'approved');
  assert.ok(readState(repo)!.approval);
  // Still open right after the answer.
  assert.equal((await waiting.listTools()).tools.length, 7);

  // The untouched session was closed meanwhile: every method gets 404.
  for (const method of ['POST', 'GET', 'DELETE']) {
    const body = method === 'POST' ? { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} } : undefined;
    const r = await rawRequest(server.url, {
      method,
      headers: server.headers({ 'mcp-session-id': idle.session!, 'mcp-protocol-version': '2025-06-18' }),
      body,
      headOnly: true,
    });
    assert.equal(r.status, 404, method);
  }
});

test('live sessions are capped at 64: the 65th initialize gets 503 until one ends', async (t) => {
  const server = await httpServer(t);
  const sessions: string[] = [];
  for (let i = 0; i < 64; i++) {
    const r = await initialize(server);
    assert.equal(r.status, 200, `session ${i + 1}`);
    sessions.push(r.session!);
  }
  const over = await initialize(server);
  assert.equal(over.status, 503);
  assert.match(over.body, /64/);
  // The existing ones still work; ending one makes room.
  assert.equal(
    (await rawRequest(server.url, { method: 'DELETE', headers: server.headers({ 'mcp-session-id': sessions[0]! }) })).status,
    200,
  );
  assert.equal((await initialize(server)).status, 200);
  assert.equal((await initialize(server)).status, 503);
});

test('standalone GET streams are capped (16 in all, one per session); a session without one still gets its forms', async (t) => {
  const server = await httpServer(t);
  const streams: Array<{ status: number; close(): void }> = [];
  t.after(() => streams.forEach((s) => s.close()));
  const sessions: string[] = [];
  for (let i = 0; i < 16; i++) {
    const { session } = await initialize(server);
    sessions.push(session!);
    const s = await openStream(server, session!);
    streams.push(s);
    assert.equal(s.status, 200, `stream ${i + 1}`);
  }
  const second = await openStream(server, sessions[0]!);
  streams.push(second);
  assert.equal(second.status, 409, 'a second stream of one session');
  const { session: seventeenth } = await initialize(server);
  const over = await openStream(server, seventeenth!);
  streams.push(over);
  assert.equal(over.status, 503, 'the 17th stream');

  // A client whose GET stream is refused still gets its elicitation, on the tool call's own stream.
  const repo = sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS });
  const errors: Error[] = [];
  const client = await openHttpClient(t, server.url, {
    token: server.token,
    repo,
    elicit: () => ({ action: 'accept', content: { approved: true } }),
    onerror: (e) => errors.push(e),
  });
  await client.callTool({ name: 'onboarding_propose', arguments: {} });
  const r = await client.callTool({ name: 'onboarding_approve', arguments: {} }, undefined, { timeout: 30_000 });
  assert.equal((r.structuredContent as { outcome: string }).outcome, 'approved');
  assert.ok(
    errors.some((e) => /503|Service Unavailable/.test(e.message)),
    `the client was told its GET stream was refused: ${errors.map((e) => e.message).join('; ')}`,
  );

  // Closing a stream makes room for another.
  streams[1]!.close();
  await sleep(300);
  const again = await openStream(server, sessions[1]!);
  streams.push(again);
  assert.equal(again.status, 200);
});

test('a request whose body or headers stall is dropped within seconds', async (t) => {
  const server = await httpServer(t);
  /** Open a socket, write `text`, and measure how long until the server ends it; also what it said. */
  const stall = (text: string) =>
    new Promise<{ ms: number; said: string }>((resolve, reject) => {
      const t0 = Date.now();
      const socket = net.connect(server.port, '127.0.0.1', () => socket.write(text));
      let said = '';
      socket.on('data', (d) => (said += String(d)));
      socket.on('close', () => (clearTimeout(guard), resolve({ ms: Date.now() - t0, said })));
      socket.on('error', () => {});
      const guard = setTimeout(() => (socket.destroy(), reject(new Error('still open after 30 s'))), 30_000);
    });
  const body = JSON.stringify(INITIALIZE);
  const head = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${server.port}`,
    `Authorization: Bearer ${server.token}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${body.length + 100}`,
  ].join('\r\n');
  const [bodyStall, headerStall] = await Promise.all([
    stall(`${head}\r\n\r\n${body.slice(0, 20)}`),
    stall(head.split('\r\n').slice(0, 2).join('\r\n')),
  ]);
  assert.ok(bodyStall.ms < 12_000, `a stalled body was kept ${bodyStall.ms} ms`);
  assert.ok(headerStall.ms < 12_000, `stalled headers were kept ${headerStall.ms} ms`);
  // The server keeps serving.
  assert.equal((await initialize(server)).status, 200);
});

test('--host that is not loopback exits 2 with the reason; --port that is not a port exits 2', () => {
  for (const host of ['0.0.0.0', '192.168.1.5', '::', 'example.com']) {
    const r = runCli(['serve', '--http', '--port', '0', '--host', host]);
    assert.equal(r.status, 2, `--host ${host}: ${r.stderr}`);
    assert.match(r.stderr, /loopback/);
    assert.match(r.stderr, /forward/);
    assert.doesNotMatch(r.stderr, /serving MCP/);
  }
  for (const port of ['abc', '70000', '-1', '1.5', '']) {
    const r = runCli(['serve', '--http', '--port', port]);
    assert.equal(r.status, 2, `--port ${JSON.stringify(port)}: ${r.stderr}`);
    assert.match(r.stderr, /--port/);
    assert.doesNotMatch(r.stderr, /NaN|ERR_SOCKET_BAD_PORT|RangeError/);
  }
});

test('loopback hosts are served: 127.0.0.2 and localhost; ::1 is printed in brackets', async (t) => {
  for (const host of ['127.0.0.2', 'localhost']) {
    const server = await startHttp(['--host', host]);
    await server.stop();
    assert.match(server.url, new RegExp(`^http://${host.replace(/\./g, '\\.')}:\\d+/mcp$`));
  }
  const v6 = await new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
  if (!v6) {
    t.diagnostic('IPv6 loopback (::1) is not available here: the bracketed URL is not checked');
    return;
  }
  const server = await httpServer(t, ['--host', '::1']);
  assert.match(server.url, /^http:\/\/\[::1\]:\d+\/mcp$/);
  const client = await openHttpClient(t, server.url, { token: server.token });
  assert.equal((await client.listTools()).tools.length, 7);
});

test('Host and Origin must name this machine AND this port', async (t) => {
  const server = await httpServer(t);
  const other = server.port === 65535 ? 65534 : server.port + 1;
  const status = async (headers: Record<string, string>) => (await initialize(server, server.headers(headers))).status;
  for (const origin of [
    'http://localhost',
    `http://localhost:${other}`,
    `http://127.0.0.1:${other}`,
    `https://127.0.0.1:${server.port}`,
    'null',
    'http://evil.example',
  ]) {
    assert.equal(await status({ origin }), 403, `Origin ${origin}`);
  }
  for (const host of [`127.0.0.1:${other}`, 'localhost', '127.0.0.1', `evil.example:${server.port}`, 'evil.example']) {
    assert.equal(await status({ host }), 403, `Host ${host}`);
  }
  for (const [host, origin] of [
    [`127.0.0.1:${server.port}`, `http://127.0.0.1:${server.port}`],
    [`localhost:${server.port}`, `http://localhost:${server.port}`],
  ] as const) {
    assert.equal(await status({ host, origin }), 200, `Host ${host}, Origin ${origin}`);
  }
  // Refused before the token is looked at: a forged Host learns nothing from 401 vs 200.
  assert.equal((await initialize(server, { host: 'evil.example', 'content-type': 'application/json' })).status, 403);
});

test("a stdio message over the SDK's 10 MiB limit is named on stderr before the server stops", async (t) => {
  const child = spawn(process.execPath, [CLI, 'serve'], { stdio: ['pipe', 'ignore', 'pipe'] });
  t.after(() => child.kill());
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stdin.on('error', () => {});
  const huge = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`;
  child.stdin.write(huge);
  const code = await Promise.race([exited, sleep(20_000).then(() => 'still running' as const)]);
  assert.notEqual(code, 'still running', `the server kept running: ${err}`);
  assert.match(err, /10 MiB/);
  assert.match(err, /stdin|stdio/);
  assert.notEqual(code, 0, 'it stopped on an error');
});

test('setup print and setup vscode show the HTTP form: the token comes from a VS Code password prompt, never from the file', (t) => {
  const printed = runCli(['setup', 'print']);
  assert.equal(printed.status, 0);
  const repo = sandbox(t);
  const vscode = runCli(['setup', 'vscode', '--repo', repo]);
  assert.equal(vscode.status, 3, 'no terminal: nothing written');
  for (const out of [printed.stdout, vscode.stdout]) {
    // The stdio form stays the default (first); the HTTP form follows.
    assert.ok(out.indexOf('"type": "stdio"') >= 0 && out.indexOf('"type": "stdio"') < out.indexOf('"type": "http"'), out);
    const start = out.indexOf('{', out.indexOf('serve --http'));
    const json = JSON.parse(out.slice(start, out.indexOf('\n}', start) + 2));
    const input = json.inputs.find(
      (i: { id: string }) => json.servers['copilot-onboard'].headers.Authorization === `Bearer \${input:${i.id}}`,
    );
    assert.ok(input, JSON.stringify(json));
    assert.deepEqual({ type: input.type, password: input.password }, { type: 'promptString', password: true });
    assert.match(json.servers['copilot-onboard'].url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(out, /COPILOT_ONBOARD_HTTP_TOKEN/);
  }
  assert.equal(fs.existsSync(path.join(repo, '.vscode/mcp.json')), false);
});
