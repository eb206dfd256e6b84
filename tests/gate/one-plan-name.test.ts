import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, isChoicesRound, openSession, outcomeOf, textOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';
import { readState, readTraces, sandbox } from '../helpers/sandbox.js';

/**
 * One plan, one name: once choices give a plan of their own, its hash is what approve, migrate,
 * status, the traces and the migration record name; the plan it was built from is named once, in
 * approve's second round.
 */
const FILES = {
  '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
  'AGENTS.md': '- Use npm to install dependencies.\n- Write a test for every bug fix.\n',
  'CLAUDE.md': '- Explain shell commands before running them.\n',
};

type Req = { message: string; requestedSchema: { properties: Record<string, any> } };
const fieldFor = (props: Record<string, any>, needle: string) => Object.keys(props).find((k) => String(props[k].title).includes(needle))!;

/** Round one removes AGENTS.md and CLAUDE.md; yes to everything after. */
const removeBoth: ElicitAnswer = (req) => {
  if (!isChoicesRound(req)) return yesToAll(req);
  const props = (req as Req).requestedSchema.properties;
  return { action: 'accept', content: { [fieldFor(props, 'AGENTS.md')]: 'remove', [fieldFor(props, 'CLAUDE.md')]: 'remove' } };
};

function status(repo: string): string {
  const r = spawnSync(process.execPath, [CLI, 'status', '--repo', repo], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('choices that give a plan of its own: its hash is the one name from approve to rollback', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: removeBoth });
  const proposed = await s.call('onboarding_propose');
  const base = (proposed.structuredContent!.planHash as string).slice(0, 12);
  const baseOps = (proposed.structuredContent!.operations as unknown[]).length;

  const a = await s.call('onboarding_approve');
  assert.equal(outcomeOf(a), 'approved', textOf(a));
  const approved = (a.structuredContent!.planHash as string).slice(0, 12);
  assert.notEqual(approved, base);
  const roundTwo = (s.elicitations[1] as unknown as Req).message;
  assert.ok(
    roundTwo.includes(`approve migration plan ${approved} (from ${base} with your choices) for this repository.`),
    'round two names the plan and, once, the plan it was built from',
  );
  assert.match(textOf(a), new RegExp(`^Plan ${approved} is approved`));
  assert.ok(!textOf(a).includes(base), 'after round two, the base plan is not named again');

  // status: the approved plan, the operations migrate will run, and an approval that reads as decided.
  const shown = status(repo);
  const ops = readState(repo)!.approval.approvedOperations as number;
  assert.equal(ops, baseOps + 2, 'the two removals are operations of the approved plan');
  assert.match(shown, new RegExp(`^Plan: ${approved} \\(${ops} operations to run\\)$`, 'm'));
  assert.match(shown, /^Approval: approved, not applied yet \(by /m);
  assert.doesNotMatch(shown, /open/);
  assert.ok(!shown.includes(base));
  const st = await s.call('onboarding_status');
  assert.equal((st.structuredContent!.approvedHash as string).slice(0, 12), approved);

  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'migrated', textOf(m));
  const migrateForm = (s.elicitations[2] as unknown as Req).message;
  assert.ok(migrateForm.startsWith(`copilot-onboard will now apply the plan ${approved} you approved, with your choices:`), migrateForm);
  assert.ok(!migrateForm.includes(base));
  assert.equal(readState(repo)!.migrations[0].approvedHash.slice(0, 12), approved);

  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'rolled_back', textOf(r));
  const traces = readTraces(repo, 'elicitation').sort((x, y) => x.seq - y.seq);
  assert.deepEqual(
    traces.map((x) => [x.action, x.outcome, x.planHash?.slice(0, 12)]),
    [
      ['approve', 'chosen', base],
      ['approve', 'approved', approved],
      ['migrate', 'migrated', approved],
      ['rollback', 'rolled_back', approved],
    ],
  );
});

test('default choices: the plan keeps the name propose gave it, with no "from"', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: yesToAll });
  const base = ((await s.call('onboarding_propose')).structuredContent!.planHash as string).slice(0, 12);
  const a = await s.call('onboarding_approve');
  assert.equal(outcomeOf(a), 'approved', textOf(a));
  const roundTwo = (s.elicitations[1] as unknown as Req).message;
  assert.ok(roundTwo.includes(`approve migration plan ${base} for this repository.`));
  assert.match(status(repo), new RegExp(`^Plan: ${base} \\(\\d+ operations? to run\\)$`, 'm'));
  await s.call('onboarding_migrate');
  assert.ok((s.elicitations[2] as unknown as Req).message.startsWith(`copilot-onboard will now apply the plan ${base} you approved:`));
  assert.equal(readState(repo)!.migrations[0].approvedHash, undefined);
});
