import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approveForm, FORMS, migrateForm } from '../../server/src/gate/confirm-forms.js';
import { choicesForm, choicesMessage, hasChoices, type ApproveFormInput } from '../../server/src/gate/choices-round.js';
import { answerOf, FIXED_FIELDS, roleOf, saidNo } from '../../server/src/call/field-roles.js';
import { field, formOf, MAX_TEXT, type Form } from '../../server/src/gate/fields.js';
import { MAX_CONFLICT_FIELDS } from '../../server/src/planning/choices.js';
import type { PlanFile } from '../../server/src/state/schema.js';

const TARGET = '.github/copilot-instructions.md';

const PLAN: ApproveFormInput = {
  legacy: [
    { path: 'AGENTS.md', target: TARGET, fates: ['keep', 'remove', 'pointer'] },
    { path: 'CLAUDE.md', target: TARGET, fates: ['keep'] },
  ],
  conflicts: [
    {
      id: 'conflict_1',
      description: 'Contradicting rules about package manager: "npm" (AGENTS.md:3) vs "pnpm" (CLAUDE.md:5)',
      topic: 'package manager',
      said: '"npm" (AGENTS.md:3) vs "pnpm" (CLAUDE.md:5)',
      locations: [
        { path: 'AGENTS.md', line: 3, text: '- Use npm.', side: 0 },
        { path: 'CLAUDE.md', line: 5, text: '- Use pnpm.', side: 1 },
        { path: 'GEMINI.md', line: 1, text: '- npm only.', side: 0 },
      ],
    },
  ],
  scopes: [{ path: 'pkg/AGENTS.md', folder: 'pkg', decided: 'folder', reason: 'its rules name files under pkg/' }],
  assistants: [
    {
      path: 'AGENTS.md',
      target: TARGET,
      fates: ['keep', 'rewrite', 'leave_out'],
      lines: [{ line: 7, text: 'Claude reads this.', names: 'Claude', rewrite: 'Copilot reads this.' }],
      leftOut: [{ line: 7, text: 'Claude reads this.' }],
    },
  ],
};

/** Every form the gate can send, by a name for the failure message. */
function everyForm(): [string, Form][] {
  return [
    ['approve', FORMS.approve],
    ['migrate', FORMS.migrate],
    ['rollback', FORMS.rollback],
    ['approve, second round after choices', approveForm(true)],
    ['migrate over uncommitted changes', migrateForm(['src/a.md'])],
    ['approve, first round', choicesForm(PLAN)],
  ];
}

test("the contract's forms ask exactly its fields: approve approved (comment), migrate confirmed and understood_risks, rollback confirmed (reason)", () => {
  const shape = (f: Form) => ({ fields: Object.keys(f.requestedSchema.properties), required: f.requestedSchema.required });
  assert.deepEqual(shape(FORMS.approve), { fields: ['approved', 'comment'], required: ['approved'] });
  assert.deepEqual(shape(FORMS.migrate), { fields: ['confirmed', 'understood_risks'], required: ['confirmed', 'understood_risks'] });
  assert.deepEqual(shape(FORMS.rollback), { fields: ['confirmed', 'reason'], required: ['confirmed'] });
  assert.equal(approveForm(false), FORMS.approve, 'a plan without choices gets the contract form itself');
  assert.equal(migrateForm([]), FORMS.migrate);
  assert.deepEqual(shape(approveForm(true)), { fields: ['approved', 'comment', 'choose_again'], required: ['approved'] });
  assert.deepEqual(shape(migrateForm(['a.md'])), {
    fields: ['confirmed', 'understood_risks', 'allow_uncommitted'],
    required: ['confirmed', 'understood_risks'],
  });
});

test('every optional field of every form carries a default, and the required fields are exactly the confirmations', () => {
  for (const [name, form] of everyForm()) {
    const { properties, required } = form.requestedSchema;
    for (const [field, p] of Object.entries(properties))
      if (!required.includes(field)) assert.ok('default' in p, `${name}: optional ${field} has no default`);
    assert.deepEqual(form.confirmations, required, `${name}: the confirmations are the required fields`);
    for (const field of required) {
      assert.equal(properties[field]!.type, 'boolean', `${name}: ${field}`);
      assert.equal(roleOf(field), 'confirm', `${name}: ${field}`);
    }
  }
});

test("each field's validator accepts exactly what its property offers: a choice's options, a boolean, text up to its limit", () => {
  for (const [name, form] of everyForm()) {
    for (const [f, p] of Object.entries(form.requestedSchema.properties)) {
      const others = Object.fromEntries(form.requestedSchema.required.filter((r) => r !== f).map((r) => [r, true]));
      const accepts = (v: unknown) => form.content.safeParse({ ...others, [f]: v }).success;
      if (Array.isArray(p.oneOf)) {
        for (const o of p.oneOf as { const: string }[]) assert.ok(accepts(o.const), `${name}: ${f} refuses its own option ${o.const}`);
        assert.ok(!accepts('keep_99'), `${name}: ${f} takes a value it does not offer`);
        assert.ok(accepts(p.default), `${name}: ${f} refuses its default`);
      } else if (p.type === 'boolean') {
        assert.ok(accepts(true) && accepts(false), `${name}: ${f}`);
        assert.ok(!accepts('yes'), `${name}: ${f} takes a string`);
      } else {
        assert.equal(p.maxLength, MAX_TEXT);
        assert.ok(accepts('x'.repeat(MAX_TEXT)) && !accepts('x'.repeat(MAX_TEXT + 1)), `${name}: ${f}`);
      }
    }
  }
});

test('a field built once is the same property and validator in its form, and its role comes with it', () => {
  const choice = field.choice('scope_1', 'Where?', [{ const: 'repo', title: 'Everywhere' }], 'repo');
  assert.deepEqual(choice.property, { type: 'string', title: 'Where?', oneOf: [{ const: 'repo', title: 'Everywhere' }], default: 'repo' });
  assert.equal(choice.role, 'choice');
  const back = field.yesNo('choose_again', 'Back?', 'Asks again.');
  assert.equal(back.role, 'go_back');
  const form = formOf([field.confirm('approved', 'Yes?', 'It goes ahead.'), back, choice]);
  assert.deepEqual(form.requestedSchema.properties.scope_1, choice.property);
  assert.deepEqual(form.requestedSchema.required, ['approved']);
  assert.deepEqual(form.confirmations, ['approved']);
  assert.ok(!form.content.safeParse({ approved: true, scope_1: 'folder' }).success);
});

test('roles: the fixed names hold theirs, any other field is a choice; the answer to a role is read by it', () => {
  assert.deepEqual(
    Object.keys(FIXED_FIELDS).filter((n) => roleOf(n) === 'confirm'),
    ['approved', 'confirmed', 'understood_risks'],
  );
  for (const n of ['legacy_1', 'legacy_all', 'conflict_3', 'scope_2', 'assistant_1', 'constructor', 'toString'])
    assert.equal(roleOf(n), 'choice', n);
  const roles = Object.values(FIXED_FIELDS).filter((r) => r !== 'confirm');
  assert.equal(new Set(roles).size, roles.length, 'a role other than confirm belongs to one field name only');
  assert.equal(answerOf({ approved: false, comment: 'use yarn' }, 'comment'), 'use yarn');
  assert.equal(answerOf({ approved: true }, 'go_back'), undefined);
  assert.equal(answerOf({ confirmed: true, understood_risks: true, allow_uncommitted: true }, 'allow_uncommitted'), true);
  assert.ok(saidNo({ approved: false }));
  assert.ok(saidNo({ confirmed: true, understood_risks: false }));
  assert.ok(!saidNo({ approved: true, comment: 'no' }), 'a no written in a comment is no refusal');
  assert.ok(!saidNo({}), 'leaving a confirmation out is not saying no');
});

test('the first round reads back only the choices that differ from the tool decision, and asks nothing of a file with one fate', () => {
  const form = choicesForm(PLAN);
  assert.deepEqual(Object.keys(form.requestedSchema.properties), ['legacy_1', 'conflict_1', 'scope_1', 'assistant_1']);
  assert.deepEqual(
    (form.requestedSchema.properties.conflict_1!.oneOf as { const: string }[]).map((o) => o.const),
    ['keep_all', 'keep_1', 'keep_2'],
    'the two lines that agree are one side, named by the first',
  );
  assert.deepEqual(form.choicesFrom({}), { legacy: {}, conflicts: {} });
  assert.deepEqual(form.choicesFrom({ legacy_1: 'pointer', conflict_1: 'keep_2', scope_1: 'folder', assistant_1: 'rewrite' }), {
    legacy: { 'AGENTS.md': 'pointer' },
    conflicts: { conflict_1: 'keep_2' },
    assistants: { 'AGENTS.md': 'rewrite' },
  });
  assert.deepEqual(form.choicesFrom({ scope_1: 'repo' }).scopes, { 'pkg/AGENTS.md': 'repo' });
  assert.ok(hasChoices(PLAN));
  assert.ok(!hasChoices({ legacy: [PLAN.legacy[1]!], conflicts: [] }));
});

test('past twenty choosable legacy files one field decides them all, keep or remove', () => {
  const legacy = Array.from({ length: 21 }, (_, i) => ({ path: `docs/r${i}.md`, target: TARGET, fates: ['keep', 'remove'] as const }));
  const form = choicesForm({ legacy: legacy.map((l) => ({ ...l, fates: [...l.fates] })), conflicts: [] });
  assert.deepEqual(Object.keys(form.requestedSchema.properties), ['legacy_all']);
  assert.deepEqual(Object.keys(form.choicesFrom({ legacy_all: 'remove' }).legacy).length, 21);
  assert.ok(!form.content.safeParse({ legacy_all: 'pointer' }).success);
});

test("the first round's message names the contradictions its form cannot hold, and says the defaults", () => {
  const conflicts = Array.from({ length: MAX_CONFLICT_FIELDS + 2 }, (_, i) => ({
    id: `conflict_${i + 1}`,
    description: `Contradicting rules about topic ${i + 1}: "a" (A.md:${i + 1}) vs "b" (B.md:${i + 1})`,
    topic: `topic ${i + 1}`,
    said: `"a" (A.md:${i + 1}) vs "b" (B.md:${i + 1})`,
    locations: [
      { path: 'A.md', line: i + 1, text: '- a' },
      { path: 'B.md', line: i + 1, text: '- b' },
    ],
  }));
  const plan = { planHash: 'a'.repeat(64), operations: [], legacy: [], conflicts } as unknown as PlanFile;
  const message = choicesMessage(plan);
  assert.match(message, /^copilot-onboard asks for your choices for migration plan aaaaaaaaaaaa \(step 1 of 2\)\./);
  assert.match(message, /- change no file/);
  assert.match(message, new RegExp(`the form asks which rule stands for the first ${MAX_CONFLICT_FIELDS}`));
  assert.equal(message.match(/\(not asked: all kept, marked\)/g)?.length, 2);
  assert.equal(Object.keys(choicesForm(plan).requestedSchema.properties).length, MAX_CONFLICT_FIELDS);
});
