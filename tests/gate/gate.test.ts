import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runGated, type GateContext } from '../../server/src/gate/gate.js';
import { NoReplyError, type FormReply, type Person } from '../../server/src/call/ports.js';
import { readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

/**
 * The gate driven by a fake person: no SDK, no child process. Each answer a client can give maps to
 * one contract outcome, the step acts only on an accepted and confirmed answer, and every exchange
 * leaves one elicitation trace.
 */

type Reply = FormReply | (() => Promise<FormReply>);

function personAnswering(reply: Reply, canAnswer = true): Person & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    canAnswerForms: () => canAnswer,
    async askForm(message) {
      asked.push(message);
      return typeof reply === 'function' ? reply() : reply;
    },
  };
}

const accept = (content: Record<string, unknown>): FormReply => ({ action: 'accept', content, hasContent: true });

async function gate(t: Cleanup, person: Person) {
  const root = sandbox(t, { 'AGENTS.md': '# Rules\n' });
  const ctx: GateContext = { root, session: { person, client: { info: () => ({ name: 'fake client', version: '1.0' }) } } };
  let acted = 0;
  const result = await runGated(
    ctx,
    'migrate',
    async () => ({ planHash: 'a'.repeat(64), message: 'Migrate AGENTS.md?', prepared: { files: ['AGENTS.md'] } }),
    async (content, prepared) => {
      acted++;
      return { outcome: 'migrated', detail: `Migrated ${prepared.files.join(', ')} (${JSON.stringify(content)}).` };
    },
  );
  return { result, acted, traces: readTraces(root, 'elicitation') };
}

test('accepted and confirmed: the step acts, with what prepare returned, and the trace records the answer', async (t) => {
  const person = personAnswering(accept({ confirmed: true, understood_risks: true }));
  const { result, acted, traces } = await gate(t, person);
  assert.equal(result.outcome, 'migrated');
  assert.equal(acted, 1);
  assert.match(result.text, /^Migrated AGENTS\.md/);
  assert.deepEqual(person.asked, ['Migrate AGENTS.md?']);
  assert.equal(traces.length, 1);
  assert.equal(traces[0]!.outcome, 'migrated');
  assert.deepEqual(traces[0]!.response, { action: 'accept', content: { confirmed: true, understood_risks: true } });
  assert.deepEqual(traces[0]!.client, { name: 'fake client', version: '1.0' });
  assert.equal(result.trace, `.copilot-state/elicitation-traces/${traces[0]!._file}`);
});

for (const [name, reply, outcome, text] of [
  ['declined', { action: 'decline', hasContent: false }, 'declined', /The person declined\. Nothing was changed\./],
  ['cancelled', { action: 'cancel', hasContent: false }, 'cancelled', /The person dismissed the request\. Nothing was changed\./],
  [
    'accepted but not confirmed',
    accept({ confirmed: true, understood_risks: false }),
    'not_confirmed',
    /"understood_risks" was not confirmed/,
  ],
  ['an unknown action', { action: 'maybe', hasContent: false }, 'invalid_response', /unknown action \(maybe\)/],
  ['no action at all', { action: undefined, hasContent: false }, 'invalid_response', /unknown action \(null\)/],
  ['content that does not fit the form', accept({ confirmed: 'yes' }), 'invalid_response', /does not match the form \(confirmed: /],
] as const) {
  test(`${name}: ${outcome}, nothing acted, one trace`, async (t) => {
    const { result, acted, traces } = await gate(t, personAnswering(reply));
    assert.equal(result.outcome, outcome);
    assert.match(result.text, text);
    assert.equal(acted, 0);
    assert.equal(traces.length, 1);
    assert.equal(traces[0]!.outcome, outcome);
  });
}

for (const [kind, outcome, text] of [
  ['timeout', 'timeout', /No answer came within \d+ ms; that counts as cancelled, never as approval\./],
  ['malformed', 'invalid_response', /The answer does not match the form: bad reply\./],
  ['failed', 'error', /Asking the person failed: bad reply\./],
] as const) {
  test(`no reply (${kind}): ${outcome}, nothing acted, one trace with no response`, async (t) => {
    const { result, acted, traces } = await gate(
      t,
      personAnswering(() => Promise.reject(new NoReplyError(kind, 'bad reply'))),
    );
    assert.equal(result.outcome, outcome);
    assert.match(result.text, text);
    assert.equal(acted, 0);
    assert.equal(traces.length, 1);
    assert.equal(traces[0]!.response, null);
  });
}

test('a person who cannot be shown a form: elicitation_unsupported, never asked, the trace holds what would have been asked', async (t) => {
  const person = personAnswering(accept({ confirmed: true, understood_risks: true }), false);
  const { result, acted, traces } = await gate(t, person);
  assert.equal(result.outcome, 'elicitation_unsupported');
  assert.equal(acted, 0);
  assert.deepEqual(person.asked, []);
  assert.equal(traces[0]!.message, 'Migrate AGENTS.md?');
});
