import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sealed } from '../../server/src/state/binding.js';
import { openSession, outcomeOf, textOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readState, sandbox, STRUCTURED_INSTRUCTIONS } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';
const backups = (repo: string) =>
  fs.existsSync(path.join(repo, '.copilot-state/backups')) ? fs.readdirSync(path.join(repo, '.copilot-state/backups')) : [];

test('forged arguments are invalid params: no argument stands in for the person', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  const before = hashTree(repo);
  await assert.rejects(s.call('onboarding_approve', { approved: true }), (e: { code?: number }) => e.code === -32602);
  await assert.rejects(s.call('onboarding_migrate', { confirmed: true }), (e: { code?: number }) => e.code === -32602);
  await assert.rejects(s.call('onboarding_rollback', { confirmed: true }), (e: { code?: number }) => e.code === -32602);
  assert.equal(s.elicitations.length, 0);
  assert.equal(readState(repo)!.approval, null);
  assert.deepEqual(hashTree(repo), before);
});

test('an argument named __proto__ is refused like any other, on every tool', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  const before = hashTree(repo);
  // JSON.parse makes __proto__ an own key, as a client's JSON on the wire does.
  for (const raw of ['{"__proto__":false}', '{"__proto__":{"confirmed":true,"approved":true}}']) {
    for (const tool of ['onboarding_analyze', 'onboarding_approve', 'onboarding_migrate', 'onboarding_status']) {
      await assert.rejects(
        s.call(tool, JSON.parse(raw)),
        (e: { code?: number; message?: string }) => e.code === -32602 && /__proto__/.test(e.message ?? ''),
        `${tool} ${raw}`,
      );
    }
  }
  assert.equal(s.elicitations.length, 0);
  assert.equal(readState(repo)!.approval, null);
  assert.deepEqual(hashTree(repo), before);
});

test('migrate without approve is refused and changes nothing', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  const before = hashTree(repo);
  const r = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /not been approved/);
  assert.equal(s.elicitations.length, 0);
  assert.deepEqual(hashTree(repo), before);
  assert.deepEqual(backups(repo), []);
});

test('migrate refused when a source changed after approve leaves the edit in place and writes no backup', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const edited = `${MESSY_INSTRUCTIONS}- A rule added by hand.\n`;
  fs.writeFileSync(path.join(repo, FILE), edited);
  const r = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /stale/);
  assert.equal(fs.readFileSync(path.join(repo, FILE), 'utf8'), edited);
  assert.deepEqual(backups(repo), []);
});

test('a source edited while the migrate form is open is caught after the yes', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const edited = `${MESSY_INSTRUCTIONS}- Edited while the form was open.\n`;
  const answer: ElicitAnswer = (req: any) => {
    if ('understood_risks' in req.requestedSchema.properties) fs.writeFileSync(path.join(repo, FILE), edited);
    return yesToAll(req);
  };
  const s = await openSession(t, { repo, elicit: answer });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const r = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.equal(fs.readFileSync(path.join(repo, FILE), 'utf8'), edited);
  assert.deepEqual(backups(repo), []);
  assert.equal(readState(repo)!.migrations.length, 0);
});

test('an approval is used once: a second migrate, and a migrate after rollback, are refused', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  const migrated = hashTree(repo);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'precondition_failed');
  assert.deepEqual(hashTree(repo), migrated);
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  const restored = hashTree(repo);
  const again = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(again), 'precondition_failed');
  assert.match(textOf(again), /already used/);
  assert.deepEqual(hashTree(repo), restored);
});

test('a plan.json edited after propose is refused at approve', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  const planFile = path.join(repo, '.copilot-state/plan.json');
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
  plan.operations[0].content += '- Smuggled rule.\n';
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /no plan yet/);
  assert.match(textOf(r), /not written here: ignored \(\.copilot-state\/plan\.json\)/);
  assert.equal(s.elicitations.length, 0);
});

test('a plan.json replaced by one sealed here but not the proposed one is refused at approve', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  const planFile = path.join(repo, '.copilot-state/plan.json');
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
  plan.operations[0].content += '- Smuggled rule.\n';
  fs.writeFileSync(planFile, JSON.stringify(await sealed(repo, '.copilot-state/plan.json', plan)));
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /edited or replaced/);
  assert.equal(s.elicitations.length, 0);
});

test('a structured file: the plan has nothing to do, and approve says so', async (t) => {
  const repo = sandbox(t, { [FILE]: STRUCTURED_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  const p = await s.call('onboarding_propose');
  assert.deepEqual((p.structuredContent as { operations: unknown[] }).operations, []);
  assert.match(textOf(p), /nothing to do/);
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /nothing to do/);
});

test('rollback with nothing to roll back is refused', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /no migration to roll back/);
});

test('the messages say exactly what will happen: the file to change and where the backup goes', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const migrated = await s.call('onboarding_migrate');
  // The plan offers a choice (a contradiction): round one asks it, round two the approval.
  const [, approveForm, migrateForm] = s.elicitations as any[];
  assert.match(approveForm.message, /Change \.github\/copilot-instructions\.md/);
  assert.match(approveForm.message, /\.copilot-state\/backups\//);
  assert.match(approveForm.message, /^\+<!-- copilot-onboard: conflicting rules/m, 'the diff is shown');
  const backupDir = (migrated.structuredContent as { backupDir: string }).backupDir;
  assert.ok(migrateForm.message.includes(backupDir), 'the migrate message names the exact backup folder');
  assert.ok(fs.existsSync(path.join(repo, backupDir, 'manifest.json')));
  await s.call('onboarding_rollback');
  assert.match((s.elicitations[3] as any).message, /Restore \.github\/copilot-instructions\.md/);
});
