import { test } from 'node:test';
import assert from 'node:assert/strict';
import { never, openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readState, readTraces, sandbox } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';

test('100 approve calls at once in one session: one asks the person, the rest are refused at once, each gets its own answer', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const s = await openSession(t, {
    repo,
    elicit: async () => {
      await gate;
      return { action: 'accept', content: { approved: true } };
      // (approve's first round takes the default choices: `approved` is not one of its fields)
    },
  });
  await s.call('onboarding_propose');
  const calls = Array.from({ length: 100 }, () => s.call('onboarding_approve'));
  await new Promise((r) => setTimeout(r, 500));
  release();
  const results = await Promise.all(calls);
  const outcomes = results.map(outcomeOf);
  assert.equal(outcomes.filter((o) => o === 'approved').length, 1);
  assert.equal(outcomes.filter((o) => o === 'precondition_failed').length, 99);
  // One step asks the person: its two rounds (the choices, then the approval), each traced.
  assert.equal(s.elicitations.length, 2, 'the person is asked once, in two rounds');
  assert.equal(readTraces(repo, 'elicitation').length, 101, 'every call leaves its trace, and each round');
  assert.ok(results.filter((r) => outcomeOf(r) === 'precondition_failed').every((r) => /in progress/.test(textOf(r))));
});

test('a second server is refused while the first holds the lock, and says who holds it', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const first = await openSession(t, { repo, elicit: never, clientName: 'window-one' });
  await first.call('onboarding_propose');
  const pending = first.call('onboarding_approve').catch(() => null);
  while (first.elicitations.length === 0) await new Promise((r) => setTimeout(r, 20));

  const second = await openSession(t, { repo, elicit: yesToAll, clientName: 'window-two' });
  const before = hashTree(repo);
  const r = await second.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /holds the lock/);
  assert.match(textOf(r), /approve \(window-one\)/);
  assert.equal(second.elicitations.length, 0);
  assert.equal(readState(repo)!.approval, null);
  assert.deepEqual(hashTree(repo), before);
  void pending;
});

test('a lock left by a killed process is taken over', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const first = await openSession(t, { repo, elicit: never });
  await first.call('onboarding_propose');
  void first.call('onboarding_approve').catch(() => null);
  while (first.elicitations.length === 0) await new Promise((r) => setTimeout(r, 20));
  // Kill the server without clean-up: its lock stays on disk.
  const pid = (first.client.transport as unknown as { pid: number | null }).pid;
  assert.ok(pid);
  process.kill(pid!, 'SIGKILL');
  await first.close().catch(() => {});

  const second = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await second.call('onboarding_approve')), 'approved');
});
