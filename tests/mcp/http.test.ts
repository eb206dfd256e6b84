import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpServer, INITIALIZE, openHttpClient, rawRequest } from '../helpers/http.js';
import { MESSY_INSTRUCTIONS, readState, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

function session(t: Cleanup, url: string, token: string, repo: string, name: string, answer: 'accept' | 'decline') {
  return openHttpClient(t, url, {
    token,
    repo,
    name,
    elicit: () => (answer === 'accept' ? { action: 'accept', content: { approved: true } } : { action: 'decline' }),
  });
}

test('Streamable HTTP: each session gets its own elicitations, answered by its own client', async (t) => {
  const server = await httpServer(t);
  const repos = [
    sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS }),
    sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS }),
  ];
  const a = await session(t, server.url, server.token, repos[0]!, 'client-a', 'accept');
  const b = await session(t, server.url, server.token, repos[1]!, 'client-b', 'decline');
  await Promise.all([a.callTool({ name: 'onboarding_propose', arguments: {} }), b.callTool({ name: 'onboarding_propose', arguments: {} })]);
  const [ra, rb] = await Promise.all([
    a.callTool({ name: 'onboarding_approve', arguments: {} }),
    b.callTool({ name: 'onboarding_approve', arguments: {} }),
  ]);
  assert.equal((ra.structuredContent as { outcome: string }).outcome, 'approved');
  assert.equal((rb.structuredContent as { outcome: string }).outcome, 'declined');
  assert.equal(readTraces(repos[0]!, 'elicitation')[0]!.client.name, 'client-a');
  assert.equal(readTraces(repos[1]!, 'elicitation')[0]!.client.name, 'client-b');
  assert.ok(readState(repos[0]!)!.approval);
  assert.equal(readState(repos[1]!)!.approval, null);
});

test('Streamable HTTP refuses a foreign Host or Origin (DNS-rebinding protection)', async (t) => {
  const server = await httpServer(t);
  const post = async (headers: Record<string, string>) =>
    (await rawRequest(server.url, { headers: server.headers(headers), body: INITIALIZE })).status;
  assert.equal(await post({ host: 'evil.example' }), 403);
  assert.equal(await post({ origin: 'http://evil.example' }), 403);
  assert.equal(await post({}), 200);
});
