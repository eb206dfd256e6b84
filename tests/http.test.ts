import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './helpers/mcp.js';
import { makeRepo, MESSY_INSTRUCTIONS, readState, readTraces, removeRepo } from './helpers/sandbox.js';

/** Start `serve --http --port 0` and read the port it bound from its stderr line. */
export async function startHttp(args: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d) => {
      err += String(d);
      const m = /serving MCP on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.on('exit', () => reject(new Error(`server exited: ${err}`)));
  });
  return { url, child };
}

async function session(url: string, repo: string, name: string, answer: 'accept' | 'decline') {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, roots: {} } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(repo).href }] }));
  client.setRequestHandler(ElicitRequestSchema, async () => (answer === 'accept' ? { action: 'accept', content: { approved: true } } : { action: 'decline' }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

test('Streamable HTTP: each session gets its own elicitations, answered by its own client', async (t) => {
  const { url, child } = await startHttp();
  t.after(() => child.kill());
  const repos = [makeRepo({ '.github/copilot-instructions.md': MESSY_INSTRUCTIONS }), makeRepo({ '.github/copilot-instructions.md': MESSY_INSTRUCTIONS })];
  t.after(() => repos.forEach(removeRepo));
  const a = await session(url, repos[0]!, 'client-a', 'accept');
  const b = await session(url, repos[1]!, 'client-b', 'decline');
  t.after(() => (a.close(), b.close()));
  await Promise.all([a.callTool({ name: 'onboarding_propose', arguments: {} }), b.callTool({ name: 'onboarding_propose', arguments: {} })]);
  const [ra, rb] = await Promise.all([a.callTool({ name: 'onboarding_approve', arguments: {} }), b.callTool({ name: 'onboarding_approve', arguments: {} })]);
  assert.equal((ra.structuredContent as { outcome: string }).outcome, 'approved');
  assert.equal((rb.structuredContent as { outcome: string }).outcome, 'declined');
  assert.equal(readTraces(repos[0]!, 'elicitation')[0]!.client.name, 'client-a');
  assert.equal(readTraces(repos[1]!, 'elicitation')[0]!.client.name, 'client-b');
  assert.ok(readState(repos[0]!)!.approval);
  assert.equal(readState(repos[1]!)!.approval, null);
});

test('Streamable HTTP refuses a foreign Host or Origin (DNS-rebinding protection)', async (t) => {
  const { url, child } = await startHttp();
  t.after(() => child.kill());
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  // node:http, not fetch: fetch does not let a caller set the Host header.
  const post = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
  assert.equal(await post({ host: 'evil.example' }), 403);
  assert.equal(await post({ origin: 'http://evil.example' }), 403);
  assert.equal(await post({}), 200);
});
