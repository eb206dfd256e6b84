// planning/plan.ts on its own: buildPlan's two hashes and the operations its choices add, and
// hashPlan's promise (what an approval binds to). The parts it asks for (targets, render, notes,
// options) have their own tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { analyze } from '../../server/src/analysis/analyze.js';
import { buildPlan, hashPlan, type PlanOperation } from '../../server/src/planning/plan.js';
import { conflictProblems } from '../../server/src/planning/choices.js';
import { sandbox } from '../helpers/sandbox.js';

const COPILOT = '.github/copilot-instructions.md';
const FILES = {
  'CLAUDE.md': '# Claude\n\n- Use pnpm to install dependencies.\n',
  '.cursorrules': '- Use npm to install dependencies.\n- Write tests first.\n',
};

async function scanned(t: Parameters<typeof sandbox>[0]) {
  const scan = await scanRepository(sandbox(t, FILES));
  return { scan, analysis: analyze(scan) };
}

test('buildPlan: under the default choices the chosen hash is the plan hash, and the same scan gives the same plan byte for byte', async (t) => {
  const { scan, analysis } = await scanned(t);
  const plan = buildPlan(scan, analysis);
  assert.equal(plan.chosenHash, plan.planHash);
  assert.equal(JSON.stringify(buildPlan(scan, analysis)), JSON.stringify(plan));
  assert.equal(JSON.stringify(buildPlan(scan)), JSON.stringify(plan), 'the analysis it makes itself is the one passed in');
  assert.deepEqual(
    plan.operations.map((o) => [o.op, o.path]),
    [['create', COPILOT]],
  );
  assert.deepEqual(
    plan.legacy.map((l) => [l.path, l.fates]),
    [
      ['CLAUDE.md', ['keep', 'remove', 'pointer']],
      ['.cursorrules', ['keep', 'remove']],
    ],
  );
  assert.deepEqual(
    plan.conflicts.map((c) => c.locations.map((l) => `${l.path}:${l.line}`)),
    [['.cursorrules:1', 'CLAUDE.md:3']],
  );
});

test('buildPlan: a choice changes the chosen plan and its hash, never the plan hash, and adds the delete or pointer it asks for', async (t) => {
  const { scan, analysis } = await scanned(t);
  const base = buildPlan(scan, analysis);
  const chosen = buildPlan(scan, analysis, {
    legacy: { 'CLAUDE.md': 'pointer', '.cursorrules': 'remove' },
    conflicts: { conflict_1: 'keep_1' },
  });
  assert.equal(chosen.planHash, base.planHash);
  assert.notEqual(chosen.chosenHash, base.planHash);
  const byPath = new Map(chosen.operations.map((o) => [o.path, o]));
  assert.deepEqual(
    [...byPath.keys()],
    ['.cursorrules', '.github/copilot-instructions.md', 'CLAUDE.md'],
    'operations in code-unit order of their paths',
  );
  assert.equal(byPath.get('.cursorrules')!.op, 'delete');
  assert.equal(byPath.get('.cursorrules')!.content, null);
  assert.equal(byPath.get('CLAUDE.md')!.content, '@.github/copilot-instructions.md\n');
  // keep_1 keeps the side of the first location (.cursorrules): CLAUDE.md's pnpm line is dropped, not written.
  assert.deepEqual(chosen.dropped, [
    {
      path: 'CLAUDE.md',
      line: 3,
      text: '- Use pnpm to install dependencies.',
      reason: 'a side of "package manager" you did not choose to stand',
    },
  ]);
  assert.ok(!byPath.get(COPILOT)!.content!.includes('Use pnpm'), byPath.get(COPILOT)!.content!);
  assert.ok(byPath.get(COPILOT)!.content!.includes('- Use npm to install dependencies.'), byPath.get(COPILOT)!.content!);
  // The options offered are those of the default plan: the person chooses among the same ones.
  assert.deepEqual(chosen.legacy, base.legacy);
  assert.deepEqual(chosen.conflicts, base.conflicts);
});

test('buildPlan: a fate a file is not offered adds nothing', async (t) => {
  const { scan, analysis } = await scanned(t);
  const plan = buildPlan(scan, analysis, { legacy: { '.cursorrules': 'pointer' }, conflicts: {} });
  assert.deepEqual(
    plan.operations.map((o) => o.path),
    [COPILOT],
  );
});

const op = (over: Partial<PlanOperation> = {}): PlanOperation => ({
  op: 'create',
  path: 'a.md',
  content: 'x\n',
  beforeSha256: null,
  afterSha256: 'b'.repeat(64),
  diff: '+x',
  ...over,
});
const source = { path: 'AGENTS.md', kind: 'agents-md', bytes: 3, sha256: 'a'.repeat(64) };

test('hashPlan binds the sources read, the operations content and the options offered, not the words shown about them', () => {
  const h = hashPlan([source], [op()]);
  assert.match(h, /^[0-9a-f]{64}$/);
  assert.equal(hashPlan([source], [op()]), h);
  // What is bound.
  assert.notEqual(hashPlan([{ ...source, sha256: 'c'.repeat(64) }], [op()]), h);
  assert.notEqual(hashPlan([source], [op({ content: 'y\n' })]), h);
  assert.notEqual(hashPlan([source], [op({ beforeSha256: 'd'.repeat(64) })]), h);
  const legacy = { path: 'AGENTS.md', kind: 'agents-md', target: 'a.md', fates: ['keep' as const], note: 'n' };
  assert.notEqual(hashPlan([source], [op()], [legacy]), h);
  const conflict = { id: 'conflict_1', description: 'd', locations: [{ path: 'AGENTS.md', line: 1, text: 't' }], topic: 'x', said: 's' };
  assert.notEqual(hashPlan([source], [op()], [], [conflict]), h);
  // What is words or derived: the diff, the after hash, a source's kind and size, a note, a description.
  assert.equal(hashPlan([source], [op({ diff: 'other', afterSha256: 'e'.repeat(64) })]), h);
  assert.equal(hashPlan([{ ...source, kind: 'claude-md', bytes: 9 }], [op()]), h);
  assert.equal(hashPlan([source], [op()], [legacy]), hashPlan([source], [op()], [{ ...legacy, note: 'other words' }]));
  assert.equal(hashPlan([source], [op()], [], [conflict]), hashPlan([source], [op()], [], [{ ...conflict, description: 'other' }]));
});

test("a conflict's problem and topic are found by its id in the plan: the reported ones first, those worth a second look after", async (t) => {
  const problems = [
    { type: 'contradiction' as const, description: 'low one', certainty: 'low' as const },
    { type: 'duplication' as const, description: 'a repeat', certainty: 'high' as const },
    { type: 'contradiction' as const, description: 'high one', certainty: 'high' as const },
    { type: 'contradiction' as const, description: 'medium one', certainty: 'medium' as const },
  ];
  assert.deepEqual(
    [...conflictProblems(problems)].map(([id, p]) => `${id}: ${p.description}`),
    ['conflict_1: high one', 'conflict_2: medium one', 'conflict_3: low one'],
  );
  const { scan, analysis } = await scanned(t);
  const plan = buildPlan(scan, analysis);
  // Each conflict carries its contradiction's topic as data, in the order they are offered.
  assert.deepEqual(
    plan.conflicts.map((c) => c.topic),
    [...conflictProblems(analysis.problems).values()].map((p) => (p.type === 'contradiction' ? p.topic : null)),
  );
  assert.deepEqual(
    [...conflictProblems(plan.problems)].map(([id, p]) => [id, p.description]),
    plan.conflicts.map((c) => [c.id, c.description]),
  );
});
