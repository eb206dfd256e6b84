import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openV2 } from '../helpers/mcp-v2.js';
import { outcomeOf, yesToAll } from '../helpers/mcp.js';
import { readTraces, sandbox } from '../helpers/sandbox.js';

/**
 * Issue 41: a 2026-07-28 question the client never answers (it never calls again) leaves a trace
 * like a 2025-era timeout: action, the message and form shown, no response, outcome `timeout`.
 */
test('a 2026 approve question never answered leaves a timeout trace, as a 2025 one does', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# Rules\n\n- Use pnpm.\n' });
  const s = await openV2(t, { mode: 'pin', repo, elicit: yesToAll, env: { COPILOT_ONBOARD_ELICITATION_TIMEOUT_MS: '800' } });
  assert.equal(outcomeOf((await s.call('onboarding_propose')) as never), 'proposed');
  const first = await s.round('onboarding_approve');
  assert.equal(first.resultType, 'input_required');
  // The client never calls again.
  const deadline = Date.now() + 10_000;
  let timeouts: ReturnType<typeof readTraces> = [];
  while (Date.now() < deadline && timeouts.length === 0) {
    await new Promise((r) => setTimeout(r, 200));
    timeouts = readTraces(repo, 'elicitation').filter((x) => x.action === 'approve' && x.outcome === 'timeout');
  }
  assert.equal(timeouts.length, 1, 'one timeout trace');
  assert.equal(timeouts[0]!.response, null);
  assert.equal(timeouts[0]!.protocol.era, 'modern');
  assert.ok(timeouts[0]!.message.length > 0);
});
