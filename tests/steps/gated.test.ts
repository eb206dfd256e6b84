import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NO_SESSION, type FormReply, type Session } from '../../server/src/call/ports.js';
import { roleOf } from '../../server/src/call/field-roles.js';
import { proposeStep } from '../../server/src/steps/read-only.js';
import { approveStep, migrateStep } from '../../server/src/steps/gated.js';
import { hashTree, readState, sandbox, type Cleanup } from '../helpers/sandbox.js';

/**
 * steps/gated.ts in process, with a person of our own (call/ports.ts): what approve and migrate do
 * with an answer. The forms' contract and the gate's refusals are tests/gate/; the whole flow over
 * MCP is tests/steps/accepted-path.test.ts.
 */

const COPILOT = '.github/copilot-instructions.md';

/** A person who takes the defaults of approve's choices round, answers each other form with the next of `answers`, and remembers the forms. */
function session(answers: Record<string, unknown>[]): Session & { forms: { message: string; fields: string[] }[] } {
  const forms: { message: string; fields: string[] }[] = [];
  return {
    ...NO_SESSION,
    forms,
    person: {
      canAnswerForms: () => true,
      async askForm(message, schema): Promise<FormReply> {
        const fields = Object.keys((schema as { properties: object }).properties);
        forms.push({ message, fields });
        if (!fields.some((f) => roleOf(f) === 'confirm')) return { action: 'accept', content: {}, hasContent: true };
        const content = answers.shift();
        return content ? { action: 'accept', content, hasContent: true } : { action: 'cancel', hasContent: false };
      },
    },
    client: { info: () => ({ name: 'unit person', version: '0.0.1' }) },
  };
}

async function proposed(t: Cleanup, files: Record<string, string>): Promise<string> {
  const root = sandbox(t, files);
  const p = await proposeStep({ root, session: NO_SESSION });
  assert.equal(p.outcome, 'proposed', p.text);
  return root;
}

test('approve answered no with a comment keeps the comment as requested changes, and approves nothing', async (t) => {
  const root = await proposed(t, { 'AGENTS.md': '# Rules\n\n- Use pnpm.\n' });
  const r = await approveStep({ root, session: session([{ approved: false, comment: '  Keep AGENTS.md as a pointer.  ' }]) });
  assert.equal(r.outcome, 'not_confirmed');
  assert.equal(r.structured.requestedChanges, 'Keep AGENTS.md as a pointer.');
  const state = readState(root)!;
  assert.equal(state.approval, null);
  assert.equal(state.feedback.comment, 'Keep AGENTS.md as a pointer.');
  assert.deepEqual(state.feedback.client, { name: 'unit person', version: '0.0.1' });
});

test('approve answered yes records the approval of the plan shown, by the client that answered, with no comment', async (t) => {
  const root = await proposed(t, { 'AGENTS.md': '# Rules\n\n- Use pnpm.\n' });
  const person = session([{ approved: true, comment: '' }]);
  const r = await approveStep({ root, session: person });
  assert.equal(r.outcome, 'approved', r.text);
  assert.deepEqual(person.forms.at(-1)!.fields, ['approved', 'comment', 'choose_again'], 'after the choices, round two can go back');
  const state = readState(root)!;
  assert.equal(state.step, 'approved');
  assert.equal(state.approval.comment, null);
  assert.equal(state.approval.approvedHash, r.structured.planHash);
  assert.deepEqual(state.approval.client, { name: 'unit person', version: '0.0.1' });
});

test('migrate over uncommitted changes asks to overwrite them, and without that yes refuses and writes nothing', async (t) => {
  const root = sandbox(t, { [COPILOT]: '# Rules\n\n- Write tests.\n', 'AGENTS.md': '# Rules\n\n- Use pnpm.\n' });
  execFileSync('git', ['-C', root, 'add', '-A']);
  execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'start']);
  fs.appendFileSync(path.join(root, COPILOT), '- Review every change.\n');
  assert.equal((await proposeStep({ root, session: NO_SESSION })).outcome, 'proposed');
  assert.equal((await approveStep({ root, session: session([{ approved: true }]) })).outcome, 'approved');
  const before = hashTree(root);
  const person = session([{ confirmed: true, understood_risks: true }]);
  const refused = await migrateStep({ root, session: person });
  assert.deepEqual(person.forms[0]!.fields, ['confirmed', 'understood_risks', 'allow_uncommitted']);
  assert.equal(refused.outcome, 'precondition_failed', refused.text);
  assert.match(refused.text, /uncommitted changes in \.github\/copilot-instructions\.md/);
  assert.deepEqual(hashTree(root), before, 'nothing outside .copilot-state/ changed');
  const allowed = await migrateStep({ root, session: session([{ confirmed: true, understood_risks: true, allow_uncommitted: true }]) });
  assert.equal(allowed.outcome, 'migrated', allowed.text);
  assert.match(fs.readFileSync(path.join(root, COPILOT), 'utf8'), /- Review every change\.\n[^]*- Use pnpm\./);
});
