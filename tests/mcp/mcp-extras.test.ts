import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, readState, sandbox } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';

test('the onboard prompt walks the agent through the steps and leaves the answers to the person', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo });
  const { prompts } = await s.client.listPrompts();
  assert.deepEqual(
    prompts.map((p) => p.name),
    ['onboard'],
  );
  const p = await s.client.getPrompt({ name: 'onboard' });
  const text = (p.messages[0]!.content as { text: string }).text;
  for (const tool of ['onboarding_analyze', 'onboarding_propose', 'onboarding_approve', 'onboarding_migrate'])
    assert.match(text, new RegExp(tool));
  assert.match(text, /Never answer for me/);
});

test('resources give the status, the plan as Markdown with diffs, and the traces', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  const { resources } = await s.client.listResources();
  assert.deepEqual(
    resources.map((r) => r.uri),
    ['copilot-onboard://status', 'copilot-onboard://plan', 'copilot-onboard://plan.diff', 'copilot-onboard://traces'],
  );
  const read = async (uri: string) => ((await s.client.readResource({ uri })).contents[0] as { text: string }).text;
  assert.match(await read('copilot-onboard://plan'), /No plan yet/);
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const plan = await read('copilot-onboard://plan');
  assert.match(plan, /^# Migration plan [0-9a-f]{12}/);
  assert.match(plan, /```diff\n[\s\S]*\n\+<!-- copilot-onboard: conflicting rules/);
  assert.match(await read('copilot-onboard://status'), /Step: approved/);
  const traces = JSON.parse(await read('copilot-onboard://traces'));
  assert.equal(traces.verify.ok, true);
  assert.deepEqual(
    traces.traces.map((x: { step: string }) => x.step),
    ['propose', 'approve', 'approve'],
    'approve asks its two rounds (the plan has a choice)',
  );
});

test('resource templates: there are none, and a client that asks is told so; an unknown resource is refused naming its uri in the error data', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo });
  assert.deepEqual((await s.client.listResourceTemplates()).resourceTemplates, []);
  const uri = 'copilot-onboard://nope';
  await assert.rejects(s.client.readResource({ uri }), (err: { code?: number; data?: unknown }) => {
    assert.equal(err.code, -32602);
    assert.deepEqual(err.data, { uri });
    return true;
  });
});

test('progress notifications reach a client that sent a progress token, and logs follow the level it set', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS, 'AGENTS.md': '- Keep commits small.\n' });
  const s = await openSession(t, { repo, elicit: yesToAll });
  const logs: string[] = [];
  s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(`${n.params.level}:${String(n.params.data)}`));
  await s.client.setLoggingLevel('warning');
  const progress: string[] = [];
  await s.client.callTool({ name: 'onboarding_analyze', arguments: {} }, undefined, {
    onprogress: (p) => void progress.push(`${p.progress}/${p.total}`),
  });
  assert.ok(progress.includes('4/4'), progress.join());
  await s.call('onboarding_migrate');
  await s.client.setLoggingLevel('info');
  await s.call('onboarding_status');
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(logs.includes('warning:onboarding_migrate: precondition_failed'), logs.join());
  assert.ok(logs.includes('info:onboarding_status: status'), logs.join());
  assert.ok(!logs.some((l) => l.startsWith('info:onboarding_analyze')), 'info was filtered while the level was warning');
});

test('migrate and rollback send progress for each file to a client that sent a progress token', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS, 'AGENTS.md': '- Keep commits small.\n' });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const seen = (name: string) => {
    const messages: string[] = [];
    return s.client
      .callTool({ name, arguments: {} }, undefined, {
        timeout: 120_000,
        onprogress: (p) => void messages.push(`${p.progress}/${p.total} ${p.message}`),
      })
      .then(() => messages);
  };
  const migrated = await seen('onboarding_migrate');
  assert.ok(
    migrated.some((m) => /^\d+\/\d+ Wrote \.github\/copilot-instructions\.md$/.test(m)),
    migrated.join(),
  );
  const rolledBack = await seen('onboarding_rollback');
  assert.ok(
    rolledBack.some((m) => /^\d+\/\d+ Restoring \.github\/copilot-instructions\.md$/.test(m)),
    rolledBack.join(),
  );
});

test('"request changes": approve answered no with a comment is recorded, and the next propose answers it', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, {
    repo,
    elicit: () => ({ action: 'accept', content: { approved: false, comment: 'Keep pnpm only, drop the npm rule.' } }),
  });
  await s.call('onboarding_propose');
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'not_confirmed');
  assert.match(textOf(r), /recorded as requested changes/);
  assert.equal(readState(repo)!.feedback.comment, 'Keep pnpm only, drop the npm rule.');
  assert.equal(readState(repo)!.approval, null);
  const again = await s.call('onboarding_propose');
  assert.match(textOf(again), /Requested changes .*Keep pnpm only/);
  assert.match(textOf(again), /choices in the approve form/);
  assert.equal((again.structuredContent as { feedback: { samePlan: boolean } }).feedback.samePlan, true);
});
