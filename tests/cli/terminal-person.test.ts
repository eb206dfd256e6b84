import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NoReplyError } from '../../server/src/call/ports.js';
import { terminalPerson } from '../../server/src/cli/terminal-person.js';
import type { FormAnswer, FormAsked, TerminalForm } from '../../server/src/cli/terminal-form.js';

/** The person at the terminal as the flow's port (cli/terminal-person.ts), with a form of our own making. */

const SCHEMA = { type: 'object', properties: { approved: { type: 'boolean', title: 'Approve?' } }, required: ['approved'] };

/** A form that answers `answer` at once, and keeps what it was asked. */
function answering(answer: FormAnswer): { form: TerminalForm; asked: FormAsked[] } {
  const asked: FormAsked[] = [];
  return { asked, form: async (a) => (asked.push(a), answer) };
}

/** A form nobody answers: like the real one, it closes as cancelled when its signal aborts (the prompt's AbortPromptError). */
const unanswered: TerminalForm = (_asked, signal) =>
  new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));

test('an accepted form comes back with its content, as a client sends it; the form is shown the message and the schema as given', async () => {
  const { form, asked } = answering({ action: 'accept', content: { approved: true } });
  const person = terminalPerson(form);
  assert.equal(person.canAnswerForms(), true);
  const reply = await person.askForm('Approve the plan?', SCHEMA, { timeoutMs: 60_000 });
  assert.deepEqual(reply, { action: 'accept', content: { approved: true }, hasContent: true });
  assert.deepEqual(asked, [{ message: 'Approve the plan?', requestedSchema: SCHEMA }]);
});

test('a declined form comes back as a decline without content (the trace records no content then)', async () => {
  const reply = await terminalPerson(answering({ action: 'decline' }).form).askForm('Approve?', SCHEMA, { timeoutMs: 60_000 });
  assert.deepEqual(reply, { action: 'decline', hasContent: false });
});

test('Esc or Ctrl-C in the prompt cancels: a cancel, never a yes', async () => {
  const reply = await terminalPerson(answering({ action: 'cancel' }).form).askForm('Approve?', SCHEMA, { timeoutMs: 60_000 });
  assert.deepEqual(reply, { action: 'cancel', hasContent: false });
});

test('when the wait ends the prompt closes at once, and the answer is a timeout (NoReplyError), not the closed form', async () => {
  let closedAt = 0;
  const form: TerminalForm = async (asked, signal) => {
    const answer = await unanswered(asked, signal);
    closedAt = Date.now();
    return answer;
  };
  const started = Date.now();
  await assert.rejects(terminalPerson(form).askForm('Approve?', SCHEMA, { timeoutMs: 50 }), (err: unknown) => {
    assert.ok(err instanceof NoReplyError);
    assert.equal(err.kind, 'timeout');
    return true;
  });
  assert.ok(closedAt >= started + 40, 'the prompt was closed by the end of the wait, before the answer came back');
});

test('an answer in time clears the wait: no timer is left to close a later form', async () => {
  const person = terminalPerson(answering({ action: 'accept', content: { approved: false } }).form);
  const reply = await person.askForm('Approve?', SCHEMA, { timeoutMs: 30 });
  assert.equal(reply.action, 'accept');
  await new Promise((resolve) => setTimeout(resolve, 60));
});

test('a call stopped while the form is open closes the prompt; what it returned is no answer', async () => {
  const stop = new AbortController();
  const asking = terminalPerson(unanswered).askForm('Approve?', SCHEMA, { timeoutMs: 60_000, signal: stop.signal });
  stop.abort();
  await assert.rejects(asking, (err: unknown) => err instanceof NoReplyError && err.kind === 'failed');
});

test('a wait longer than a timer can hold is not cut to nothing', async () => {
  const stop = new AbortController();
  const asking = terminalPerson(unanswered).askForm('Approve?', SCHEMA, { timeoutMs: 2 ** 40, signal: stop.signal });
  // Had the timer overflowed it would have fired at once, as a timeout.
  await new Promise((resolve) => setTimeout(resolve, 30));
  stop.abort();
  await assert.rejects(asking, (err: unknown) => err instanceof NoReplyError && err.kind === 'failed');
});
