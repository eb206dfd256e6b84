import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, isChoicesRound, never, openSession, outcomeOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readState, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

/**
 * Every refusal, for each gated step: the contract outcome and isError, every file outside
 * .copilot-state byte-identical, the onboarding not advanced, and exactly one trace with that outcome.
 * This plan offers a choice (a contradiction), so approve asks in two rounds: the refusals that need
 * the approval form answer the first round with the defaults, and leave two traces (see
 * two-round-approval.test.ts for the whole matrix).
 */
const FILE = '.github/copilot-instructions.md';
const NAME = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-(approve|migrate|rollback)\.json$/;
type Step = 'approve' | 'migrate' | 'rollback';

/** A repository brought to the point where `step` is the next thing to do. */
async function readyFor(t: Cleanup, step: Step): Promise<string> {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await connect({ repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  if (step !== 'approve') assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  if (step === 'rollback') assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  await s.close();
  return repo;
}

const full: Record<Step, Record<string, unknown>> = {
  approve: { approved: true },
  migrate: { confirmed: true, understood_risks: true },
  rollback: { confirmed: true },
};

interface Case {
  name: string;
  answer: ElicitAnswer | null;
  outcome: string;
  isError: boolean;
  env?: Record<string, string>;
  responseNull: boolean;
  /** Traces the step leaves: 2 when approve's first round (the choices) was answered before the refusal. */
  traces?: number;
}

function cases(step: Step): Case[] {
  const c: Case[] = [
    { name: 'no elicitation capability', answer: null, outcome: 'elicitation_unsupported', isError: true, responseNull: true },
    { name: 'decline', answer: () => ({ action: 'decline' }), outcome: 'declined', isError: false, responseNull: false },
    { name: 'cancel', answer: () => ({ action: 'cancel' }), outcome: 'cancelled', isError: false, responseNull: false },
    {
      name: 'never answering',
      answer: never,
      outcome: 'timeout',
      isError: true,
      env: { COPILOT_ONBOARD_ELICITATION_TIMEOUT_MS: '300' },
      responseNull: true,
    },
    {
      name: 'accept without content',
      answer: () => ({ action: 'accept' }),
      outcome: 'invalid_response',
      isError: true,
      responseNull: false,
    },
  ];
  const second = (answer: ElicitAnswer): ElicitAnswer =>
    step === 'approve' ? (req) => (isChoicesRound(req) ? { action: 'accept', content: {} } : answer(req)) : answer;
  const traces = step === 'approve' ? 2 : 1;
  for (const key of Object.keys(full[step])) {
    c.push({
      name: `accept with ${key} false`,
      answer: second(() => ({ action: 'accept', content: { ...full[step], [key]: false } })),
      outcome: 'not_confirmed',
      isError: true,
      responseNull: false,
      traces,
    });
    const missing = { ...full[step] };
    delete missing[key];
    c.push({
      name: `accept with ${key} missing`,
      answer: second(() => ({ action: 'accept', content: missing })),
      outcome: 'invalid_response',
      isError: true,
      responseNull: false,
      traces,
    });
    c.push({
      name: `accept with ${key} of the wrong type`,
      answer: second(() => ({ action: 'accept', content: { ...full[step], [key]: 'yes' } })),
      outcome: 'invalid_response',
      isError: true,
      responseNull: false,
      traces,
    });
  }
  // The SDK client itself refuses to send an unknown action and answers with an error instead.
  c.push({
    name: 'an unknown action',
    answer: () => ({ action: 'maybe' }) as never,
    outcome: 'invalid_response',
    isError: true,
    responseNull: true,
  });
  return c;
}

for (const step of ['approve', 'migrate', 'rollback'] as const) {
  for (const c of cases(step)) {
    test(`${step} refused on ${c.name}: ${c.outcome}, nothing changes, one trace`, async (t) => {
      const repo = await readyFor(t, step);
      const tree = hashTree(repo);
      const state = readState(repo)!;
      const tracesBefore = readTraces(repo, 'elicitation').length;
      const s = await openSession(t, { repo, elicit: c.answer, env: c.env });

      const r = await s.call(`onboarding_${step}`);
      assert.equal(outcomeOf(r), c.outcome);
      assert.equal(r.isError, c.isError);
      if (c.answer === null) assert.equal(s.elicitations.length, 0, 'no request is sent');
      assert.deepEqual(hashTree(repo), tree, 'every file outside .copilot-state is byte-identical');
      const after = readState(repo)!;
      assert.equal(after.step, state.step, 'the onboarding did not advance');
      assert.deepEqual(after.approval, state.approval);
      assert.deepEqual(after.migrations, state.migrations);

      const traces = readTraces(repo, 'elicitation');
      assert.equal(traces.length, tracesBefore + (c.traces ?? 1), 'exactly one trace per round asked');
      const trace = traces.find((x) => x.seq === Math.max(...traces.map((y) => y.seq)))!;
      assert.match(trace._file, NAME);
      assert.equal(trace.action, step);
      assert.equal(trace.outcome, c.outcome);
      assert.deepEqual(trace.client, { name: 'test-client', version: '1.2.3' });
      if (c.responseNull) assert.equal(trace.response, null);
      else assert.equal(typeof trace.response.action, 'string');
      assert.ok(trace.duration_ms >= 0);
    });
  }
}
