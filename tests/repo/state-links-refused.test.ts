import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { hashTree } from '../helpers/sandbox.js';
import { VICTIM, cli, outsideDir, snapshot, repoWithRules, linkAt, proposedAndApproved, json, escape } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: State files as links / .copilot-state and its folders as links.
 */

// State files as links

const STATE_FILE_LINKS: Array<[string, 'file' | 'folder']> = [
  ['trace-chain.json', 'file'],
  ['plan.json', 'file'],
  ['onboarding.json', 'file'],
  ['journal.json', 'file'],
  ['operation.lock', 'folder'],
  ['traces.lock-owner.json', 'file'],
  ['.gitignore', 'file'],
];

for (const [name, kind] of STATE_FILE_LINKS) {
  test(`.copilot-state/${name} as a link to an outside ${kind}: analyze, propose, status and traces refuse (exit 2) naming it, and write nothing anywhere`, async (t) => {
    const repo = repoWithRules(t);
    const outside = outsideDir(t);
    assert.equal(cli(['propose', '--json', '--repo', repo]).status, 0);
    linkAt(repo, `.copilot-state/${name}`, path.join(outside, kind === 'file' ? 'victim.txt' : 'folder'));
    const before = snapshot(outside);
    const state = snapshot(path.join(repo, '.copilot-state'));
    const tree = hashTree(repo);
    for (const cmd of ['analyze', 'propose', 'status']) {
      const r = cli([cmd, '--json', '--repo', repo]);
      assert.equal(r.status, 2, `${cmd}: ${r.stdout}${r.stderr}`);
      assert.equal(json(r).outcome, 'precondition_failed', cmd);
      assert.match(String(json(r).message), new RegExp(`\\.copilot-state/${escape(name)}.*link`), cmd);
    }
    const v = cli(['traces', 'verify', '--repo', repo]);
    assert.equal(v.status, 2, v.stderr);
    assert.match(v.stderr, new RegExp(`\\.copilot-state/${escape(name)}`));
    assert.deepEqual(snapshot(outside), before, 'nothing outside changed');
    assert.deepEqual(snapshot(path.join(repo, '.copilot-state')), state, 'nothing in .copilot-state changed either');
    assert.deepEqual(hashTree(repo), tree);
    assert.equal(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8'), VICTIM);
  });
}

for (const name of ['trace-chain.json', 'plan.json', 'onboarding.json', 'journal.json', 'traces.lock']) {
  test(`.copilot-state/${name} as a link to an outside file: migrate is precondition_failed naming it, nobody is asked, nothing changes`, async (t) => {
    const repo = repoWithRules(t);
    const outside = outsideDir(t);
    await proposedAndApproved(repo);
    linkAt(repo, `.copilot-state/${name}`, path.join(outside, 'victim.txt'));
    const before = snapshot(outside);
    const tree = hashTree(repo);
    const s = await openSession(t, { repo, elicit: yesToAll });
    for (const tool of ['onboarding_migrate', 'onboarding_approve', 'onboarding_rollback']) {
      const r = await s.call(tool);
      assert.equal(outcomeOf(r), 'precondition_failed', `${tool}: ${textOf(r)}`);
      assert.match(textOf(r), new RegExp(`\\.copilot-state/${escape(name)}`));
    }
    assert.equal(s.elicitations.length, 0, 'the person is not asked');
    assert.deepEqual(snapshot(outside), before);
    assert.deepEqual(hashTree(repo), tree);
    assert.equal(fs.existsSync(path.join(repo, '.copilot-state/backups')), false, 'no backup was made');
  });
}

// .copilot-state and its folders as links

test('.copilot-state as a link to an outside folder: every command refuses naming it, and the outside folder stays empty', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.symlinkSync(path.join(outside, 'empty'), path.join(repo, '.copilot-state'));
  const before = snapshot(outside);
  for (const cmd of ['analyze', 'propose', 'status']) {
    const r = cli([cmd, '--json', '--repo', repo]);
    assert.equal(r.status, 2, `${cmd}: ${r.stdout}${r.stderr}`);
    assert.equal(json(r).outcome, 'precondition_failed');
    assert.match(String(json(r).message), /"?\.copilot-state"?.*link/);
  }
  for (const action of ['list', 'verify']) assert.equal(cli(['traces', action, '--repo', repo]).status, 2, action);
  const s = await openSession(t, { repo, elicit: yesToAll });
  for (const tool of [
    'onboarding_analyze',
    'onboarding_propose',
    'onboarding_approve',
    'onboarding_migrate',
    'onboarding_rollback',
    'onboarding_status',
  ]) {
    const r = await s.call(tool);
    assert.equal(outcomeOf(r), 'precondition_failed', `${tool}: ${textOf(r)}`);
    assert.match(textOf(r), /\.copilot-state/);
  }
  assert.equal(s.elicitations.length, 0);
  assert.deepEqual(snapshot(outside), before);
  assert.deepEqual(fs.readdirSync(path.join(outside, 'empty')), []);
});

for (const sub of ['backups', 'elicitation-traces', 'sampling-traces']) {
  test(`.copilot-state/${sub} as a link to an outside folder: analyze and migrate refuse naming it; no backup or trace lands outside`, async (t) => {
    const repo = repoWithRules(t);
    const outside = outsideDir(t);
    await proposedAndApproved(repo);
    linkAt(repo, `.copilot-state/${sub}`, path.join(outside, 'empty'));
    const before = snapshot(outside);
    const tree = hashTree(repo);
    const a = cli(['analyze', '--json', '--repo', repo]);
    assert.equal(a.status, 2, a.stdout);
    assert.match(String(json(a).message), new RegExp(`\\.copilot-state/${sub}`));
    const s = await openSession(t, { repo, elicit: yesToAll });
    const r = await s.call('onboarding_migrate');
    assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
    assert.match(textOf(r), new RegExp(`\\.copilot-state/${sub}`));
    assert.equal(s.elicitations.length, 0);
    assert.deepEqual(snapshot(outside), before);
    assert.deepEqual(fs.readdirSync(path.join(outside, 'empty')), []);
    assert.deepEqual(hashTree(repo), tree);
  });
}

test('a backup folder turned into a link after the migration: rollback refuses naming it, and restores nothing from outside', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  const backups = path.join(repo, '.copilot-state/backups');
  const [id] = fs.readdirSync(backups);
  fs.cpSync(path.join(backups, id!), path.join(outside, 'copy'), { recursive: true });
  linkAt(repo, `.copilot-state/backups/${id}`, path.join(outside, 'copy'));
  const before = snapshot(outside);
  const tree = hashTree(repo);
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
  assert.match(textOf(r), new RegExp(`\\.copilot-state/backups/${escape(id!)}`));
  assert.deepEqual(snapshot(outside), before);
  assert.deepEqual(hashTree(repo), tree);
});
