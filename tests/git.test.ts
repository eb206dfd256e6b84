import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, outcomeOf, textOf, type ElicitAnswer } from './helpers/mcp.js';
import { hashTree, makeRepo, MESSY_INSTRUCTIONS, readTraces, removeRepo, writeFile } from './helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';
const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

function committedRepo(): string {
  const repo = makeRepo({ [FILE]: MESSY_INSTRUCTIONS });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'initial instructions');
  return repo;
}

const answers = (migrateExtra: Record<string, unknown> = {}): ElicitAnswer => (req: any) => {
  const props = req.requestedSchema.properties;
  if ('approved' in props) return { action: 'accept', content: { approved: true } };
  if ('understood_risks' in props) return { action: 'accept', content: { confirmed: true, understood_risks: true, ...migrateExtra } };
  return { action: 'accept', content: { confirmed: true } };
};

test('propose and the forms show HEAD and uncommitted changes in the files the plan touches', async (t) => {
  const repo = committedRepo();
  t.after(() => removeRepo(repo));
  fs.appendFileSync(path.join(repo, FILE), '- Keep functions short.\n');
  const s = await connect({ repo, elicit: answers({ allow_uncommitted: true }) });
  t.after(() => s.close());
  const proposed = await s.call('onboarding_propose');
  assert.match(textOf(proposed), /HEAD [0-9a-f]{7,} initial instructions/);
  assert.match(textOf(proposed), /Uncommitted changes in files the plan touches: \.github\/copilot-instructions\.md/);
  assert.deepEqual((proposed.structuredContent as any).git.modified, [FILE]);
  await s.call('onboarding_approve');
  // The approval round (after the round of choices) shows the git facts with the plan.
  assert.match((s.elicitations.find((e: any) => 'approved' in e.requestedSchema.properties) as any).message, /initial instructions/);
});

test('migrate refuses to overwrite uncommitted changes unless the person allows it in the form', async (t) => {
  const repo = committedRepo();
  t.after(() => removeRepo(repo));
  fs.appendFileSync(path.join(repo, FILE), '- Keep functions short.\n');
  const before = hashTree(repo);
  const s = await connect({ repo, elicit: answers() });
  t.after(() => s.close());
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const refused = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(refused), 'precondition_failed');
  assert.match(textOf(refused), /uncommitted changes/);
  const field = (s.elicitations.at(-1) as any).requestedSchema.properties.allow_uncommitted;
  assert.equal(field.type, 'boolean');
  assert.equal(field.default, false);
  assert.deepEqual(hashTree(repo), before);

  const s2 = await connect({ repo, elicit: answers({ allow_uncommitted: true }) });
  t.after(() => s2.close());
  await s2.call('onboarding_approve');
  assert.equal(outcomeOf(await s2.call('onboarding_migrate')), 'migrated');
});

test('--branch and --commit migrate on a new branch and commit with a message naming the trace', async (t) => {
  const repo = committedRepo();
  t.after(() => removeRepo(repo));
  const s = await connect({ repo, elicit: answers(), args: ['--branch', 'copilot-onboarding', '--commit'] });
  t.after(() => s.close());
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', textOf(migrated));
  assert.match(textOf(migrated), /Committed as [0-9a-f]+/);
  assert.equal(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD'), 'copilot-onboarding');
  const message = git(repo, 'log', '-1', '--format=%B');
  const trace = readTraces(repo, 'elicitation').find((x) => x.action === 'migrate')!;
  assert.ok(message.includes(trace._file), message);
  assert.equal(git(repo, 'status', '--porcelain', '--', FILE), '', 'the migrated file is committed');
});

test('a branch that exists is refused before anything changes', async (t) => {
  const repo = committedRepo();
  t.after(() => removeRepo(repo));
  git(repo, 'branch', 'taken');
  const before = hashTree(repo);
  const s = await connect({ repo, elicit: answers(), args: ['--branch', 'taken'] });
  t.after(() => s.close());
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const r = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /branch taken exists/);
  assert.deepEqual(hashTree(repo), before);
});

test('without git everything works the same', async (t) => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'co-nogit-'));
  t.after(() => removeRepo(repo));
  writeFile(repo, FILE, MESSY_INSTRUCTIONS);
  const before = hashTree(repo);
  const s = await connect({ repo, elicit: answers(), args: ['--commit'] });
  t.after(() => s.close());
  assert.match(textOf(await s.call('onboarding_propose')), /not a git work tree/);
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
});
