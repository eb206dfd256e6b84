import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { connect, isChoicesRound, never, openSession, outcomeOf, textOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';
import { FLAT_INSTRUCTIONS, hashTree, readState, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

/**
 * Approve asks in two rounds when the plan offers choices: round one only the choices, round two
 * the approval of the plan rebuilt with them, its exact diff shown, the approval bound to its hash.
 * A refusal in either round ends the step with that round's outcome, and nothing changes.
 */
const FILES = {
  '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
  'AGENTS.md': '- Use npm to install dependencies.\n- Write a test for every bug fix.\n',
};

type Req = { message: string; requestedSchema: { properties: Record<string, any>; required?: string[] } };
const fieldFor = (props: Record<string, any>, needle: string) => Object.keys(props).find((k) => String(props[k].title).includes(needle))!;
const removeAgents = (req: Req) => ({ [fieldFor(req.requestedSchema.properties, 'AGENTS.md')]: 'remove' });

/** Round one answered by `first`, round two by `second`; migrate and rollback with yes. */
function person(first: ElicitAnswer, second: ElicitAnswer): ElicitAnswer {
  return (req) => (isChoicesRound(req) ? first(req) : 'approved' in (req as Req).requestedSchema.properties ? second(req) : yesToAll(req));
}
const acceptWith =
  (content: (req: Req) => Record<string, unknown>): ElicitAnswer =>
  (req) => ({ action: 'accept', content: content(req as Req) });
const yes = acceptWith(() => ({ approved: true }));

async function proposed(t: Cleanup, env?: Record<string, string>) {
  const repo = sandbox(t, FILES);
  const s = await connect({ repo, elicit: yesToAll, env });
  const planHash = (await s.call('onboarding_propose')).structuredContent!.planHash as string;
  await s.close();
  return { repo, planHash };
}

const refusals: { name: string; round: 1 | 2; answer: ElicitAnswer; outcome: string; env?: Record<string, string> }[] = [];
for (const round of [1, 2] as const) {
  const at = (a: ElicitAnswer) => (round === 1 ? person(a, yes) : person(acceptWith(removeAgents), a));
  refusals.push(
    { name: 'decline', round, answer: at(() => ({ action: 'decline' })), outcome: 'declined' },
    { name: 'cancel', round, answer: at(() => ({ action: 'cancel' })), outcome: 'cancelled' },
    { name: 'timeout', round, answer: at(never), outcome: 'timeout', env: { COPILOT_ONBOARD_ELICITATION_TIMEOUT_MS: '400' } },
  );
}
refusals.push(
  {
    name: 'not confirmed',
    round: 2,
    answer: person(
      acceptWith(removeAgents),
      acceptWith(() => ({ approved: false })),
    ),
    outcome: 'not_confirmed',
  },
  {
    name: 'an invalid choice',
    round: 1,
    answer: person(
      acceptWith((req) => ({ [fieldFor(req.requestedSchema.properties, 'AGENTS.md')]: 'burn' })),
      yes,
    ),
    outcome: 'invalid_response',
  },
);

for (const c of refusals) {
  test(`a ${c.name} in round ${c.round} ends the step with ${c.outcome}; nothing changes; ${c.round} trace(s)`, async (t) => {
    const { repo, planHash } = await proposed(t);
    const tree = hashTree(repo);
    const state = readState(repo)!;
    const before = readTraces(repo, 'elicitation').length;
    const s = await openSession(t, { repo, elicit: c.answer, env: c.env });
    const r = await s.call('onboarding_approve');
    assert.equal(outcomeOf(r), c.outcome, textOf(r));
    assert.equal(s.elicitations.length, c.round, 'nothing more is asked after a refusal');
    assert.deepEqual(hashTree(repo), tree);
    assert.deepEqual(readState(repo)!.approval, state.approval);
    assert.equal(readState(repo)!.step, 'proposed');
    const traces = readTraces(repo, 'elicitation')
      .slice(before)
      .sort((a, b) => a.seq - b.seq);
    assert.equal(traces.length, c.round, 'one trace per round asked');
    assert.ok(traces.every((x) => x.action === 'approve'));
    assert.equal(traces.at(-1)!.outcome, c.outcome);
    assert.equal(traces[0]!.planHash, planHash, 'round one is traced with the proposed plan hash');
    if (c.round === 2) {
      assert.equal(traces[0]!.outcome, 'chosen');
      assert.notEqual(traces[1]!.planHash, planHash, 'round two shows the plan rebuilt with the choices');
      assert.match(traces[1]!.message, /Remove AGENTS\.md/);
    }
    // Nothing was approved: migrate refuses.
    const m = await s.call('onboarding_migrate');
    assert.equal(outcomeOf(m), 'precondition_failed');
    assert.deepEqual(hashTree(repo), tree);
  });
}

test('accepting both rounds with changed choices: round two shows that plan; the approval binds to its hash; migrate applies exactly it', async (t) => {
  const { repo, planHash } = await proposed(t);
  const s = await openSession(t, { repo, elicit: person(acceptWith(removeAgents), yes) });
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'approved', textOf(r));
  const [one, two] = s.elicitations as unknown as Req[];
  assert.deepEqual(one!.requestedSchema.required ?? [], [], 'round one requires nothing');
  assert.ok(!('approved' in one!.requestedSchema.properties), 'round one asks only the choices');
  assert.doesNotMatch(one!.message, /^@@ /m, 'round one shows no diff');
  assert.deepEqual(two!.requestedSchema.required, ['approved']);
  assert.equal(two!.requestedSchema.properties.choose_again.default, false);
  assert.match(two!.message, /Remove AGENTS\.md/);
  assert.match(two!.message, /^--- a\/AGENTS\.md/m, "round two shows the removal's diff");

  const traces = readTraces(repo, 'elicitation').sort((a, b) => a.seq - b.seq);
  assert.deepEqual(
    traces.map((x) => [x.action, x.outcome]),
    [
      ['approve', 'chosen'],
      ['approve', 'approved'],
    ],
  );
  assert.equal(traces[0]!.planHash, planHash);
  const approvedHash = traces[1]!.planHash as string;
  assert.notEqual(approvedHash, planHash);
  assert.ok(two!.message.includes(approvedHash.slice(0, 12)), 'round two names the hash it binds');
  const approval = readState(repo)!.approval;
  assert.equal(approval.approvedHash, approvedHash);
  assert.equal(approval.planHash, planHash);
  assert.deepEqual(approval.choices.legacy, { 'AGENTS.md': 'remove' });

  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'migrated', textOf(m));
  assert.equal(fs.existsSync(path.join(repo, 'AGENTS.md')), false);
  const migrateTrace = readTraces(repo, 'elicitation')
    .sort((a, b) => a.seq - b.seq)
    .at(-1)!;
  assert.equal(migrateTrace.planHash, approvedHash, 'migrate applies the plan that was approved');
});

test('going back from round two asks the choices again; the last choices are the ones approved', async (t) => {
  const { repo } = await proposed(t);
  let firsts = 0;
  const s = await openSession(t, {
    repo,
    elicit: person(
      // The second time, AGENTS.md is kept after all (going back preselects "remove").
      acceptWith((req) => (++firsts === 1 ? removeAgents(req) : { [fieldFor(req.requestedSchema.properties, 'AGENTS.md')]: 'keep' })),
      acceptWith(() => (firsts === 1 ? { approved: false, choose_again: true } : { approved: true })),
    ),
  });
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'approved', textOf(r));
  assert.equal(s.elicitations.length, 4);
  const traces = readTraces(repo, 'elicitation').sort((a, b) => a.seq - b.seq);
  assert.deepEqual(
    traces.map((x) => x.outcome),
    ['chosen', 'choose_again', 'chosen', 'approved'],
  );
  assert.deepEqual(readState(repo)!.approval.choices.legacy, { 'AGENTS.md': 'keep' });
  assert.equal(readState(repo)!.approval.approvedHash, traces[3]!.planHash);
});

test('going back without end is refused after a bounded number of rounds', async (t) => {
  const { repo } = await proposed(t);
  const tree = hashTree(repo);
  const s = await openSession(t, {
    repo,
    elicit: person(
      acceptWith(() => ({})),
      acceptWith(() => ({ approved: true, choose_again: true })),
    ),
  });
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'not_confirmed');
  assert.equal(s.elicitations.length, 10);
  assert.equal(readState(repo)!.approval, null);
  assert.deepEqual(hashTree(repo), tree);
});

test('a plan without choices asks no choices round: the flat Copilot file alone, left as the person wrote it, leaves nothing to approve', async (t) => {
  // Before issue 40 this plan sorted the person's flat file (one round: the approval). Now it writes
  // nothing, and no question at all is asked.
  const repo = sandbox(t, { '.github/copilot-instructions.md': FLAT_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  const p = await s.call('onboarding_propose');
  assert.deepEqual(p.structuredContent!.operations, []);
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
  assert.match(textOf(r), /nothing to approve/);
  assert.equal(s.elicitations.length, 0);
});

test('migrate without elicitation: precondition_failed before an approval, elicitation_unsupported after one', async (t) => {
  const { repo } = await proposed(t);
  const bare = await openSession(t, { repo, elicit: null });
  const before = await bare.call('onboarding_migrate');
  assert.equal(outcomeOf(before), 'precondition_failed', textOf(before));
  assert.match(textOf(before), /approve/i);
  const s = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  await s.close();
  const after = await bare.call('onboarding_migrate');
  assert.equal(outcomeOf(after), 'elicitation_unsupported', textOf(after));
});

test('choices that leave nothing to write: round one, then "nothing to approve", no round two', async (t) => {
  // A linked Copilot file and nothing else: the default plan writes nothing, the choice is keep or replace.
  const repo = sandbox(t, { 'docs/ai.md': '# Rules\n\n- Use pnpm.\n' });
  fs.mkdirSync(path.join(repo, '.github'), { recursive: true });
  fs.symlinkSync('../docs/ai.md', path.join(repo, '.github/copilot-instructions.md'));
  const s = await openSession(t, { repo, elicit: yesToAll });
  const p = await s.call('onboarding_propose');
  assert.deepEqual(p.structuredContent!.operations, [], 'the default plan writes nothing');
  const tree = hashTree(repo);
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
  assert.match(textOf(r), /nothing to approve/);
  assert.equal(s.elicitations.length, 1, 'only the choices were asked');
  assert.ok(
    s.elicitations.every((e) => !/will:\s*$/m.test((e as unknown as Req).message)),
    'no empty list of what will happen',
  );
  assert.deepEqual(hashTree(repo), tree);
  assert.equal(readState(repo)!.approval, null);
});

test("going back keeps the person's answers: round one comes back with them as the defaults, and an answer that leaves them out keeps them", async (t) => {
  const { repo } = await proposed(t);
  let firsts = 0;
  const s = await openSession(t, {
    repo,
    elicit: person(
      // The second time, the client sends nothing back: the preselected answers stand.
      acceptWith((req) => (++firsts === 1 ? removeAgents(req) : {})),
      acceptWith(() => (firsts === 1 ? { approved: false, choose_again: true } : { approved: true })),
    ),
  });
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'approved', textOf(r));
  const [first, , again] = s.elicitations as unknown as Req[];
  const field = fieldFor(first!.requestedSchema.properties, 'AGENTS.md');
  assert.equal(first!.requestedSchema.properties[field].default, 'keep');
  assert.equal(again!.requestedSchema.properties[field].default, 'remove', 'the last answer is preselected');
  const conflict = fieldFor(first!.requestedSchema.properties, 'Which rule stands?');
  assert.equal(again!.requestedSchema.properties[conflict].default, 'keep_all', 'a field the person did not answer keeps its default');
  assert.deepEqual(readState(repo)!.approval.choices.legacy, { 'AGENTS.md': 'remove' });
});
