import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, connect, openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readState, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

/**
 * Rollback trusts nothing it has not checked: a damaged backup or manifest is refused before the
 * person is asked, and an interrupted operation that cannot be recovered does not wedge the tool.
 */
const FILE = '.github/copilot-instructions.md';
const JOURNAL = '.copilot-state/journal.json';

async function migrated(t: Cleanup) {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS, 'AGENTS.md': '- Write a test for every bug fix.\n' });
  const original = hashTree(repo);
  const s = await connect({ repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'migrated');
  await s.close();
  const id = (m.structuredContent as { migrationId: string }).migrationId;
  return { repo, id, original, backup: path.join(repo, '.copilot-state/backups', id) };
}

const cli = (repo: string, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args, '--repo', repo], { encoding: 'utf8', input: '' });

test('a damaged backup copy is refused before the person is asked, naming the file, and nothing changes', async (t) => {
  const { repo, id, backup } = await migrated(t);
  fs.writeFileSync(path.join(backup, 'files', FILE), 'corrupt');
  const tree = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesToAll });
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
  assert.match(textOf(r), new RegExp(`\\.copilot-state/backups/${id}/files/\\.github/copilot-instructions\\.md`));
  assert.equal(s.elicitations.length, 0, 'the person is not asked');
  assert.deepEqual(hashTree(repo), tree);
  assert.equal(fs.existsSync(path.join(repo, JOURNAL)), false, 'no journal is left');
  assert.equal(readTraces(repo, 'elicitation').at(-1)!.outcome, 'precondition_failed');
  // The tool is not wedged.
  assert.equal(outcomeOf(await s.call('onboarding_status')), 'status');
  assert.equal((await s.call('onboarding_status')).isError, false);
  assert.equal(outcomeOf(await s.call('onboarding_analyze')), 'analyzed');
  assert.equal(cli(repo, 'status').status, 0);
});

test('an unreadable manifest is refused before the person is asked, naming it', async (t) => {
  const { repo, id, backup } = await migrated(t);
  fs.writeFileSync(path.join(backup, 'manifest.json'), '{"version": 1,');
  const tree = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesToAll });
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
  assert.match(textOf(r), new RegExp(`backups/${id}/manifest\\.json`));
  assert.equal(s.elicitations.length, 0);
  assert.deepEqual(hashTree(repo), tree);
});

for (const [name, edit] of [
  [
    'an updated file marked as created',
    (f: Record<string, unknown>) => Object.assign(f, { existed: false, backup: null, sha256: null, beforeSha256: null }),
  ],
  ['a changed sha256 after the migration', (f: Record<string, unknown>) => Object.assign(f, { afterSha256: '0'.repeat(64) })],
  ['a backup path that leaves the backup folder', (f: Record<string, unknown>) => Object.assign(f, { backup: '../../onboarding.json' })],
] as const) {
  test(`a manifest edited to hold ${name} does not match the state: refused, the person's file stays`, async (t) => {
    const { repo, backup } = await migrated(t);
    const manifestFile = path.join(backup, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    edit(manifest.files.find((f: { path: string }) => f.path === FILE));
    fs.writeFileSync(manifestFile, JSON.stringify(manifest));
    const tree = hashTree(repo);
    const s = await openSession(t, { repo, elicit: yesToAll });
    const r = await s.call('onboarding_rollback');
    assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
    assert.match(textOf(r), /manifest\.json/);
    assert.deepEqual(hashTree(repo), tree, 'nothing changed; the file was not deleted');
    assert.equal(fs.existsSync(path.join(repo, JOURNAL)), false);
    assert.equal(readState(repo)!.migrations[0].rolledBackAt, null);
  });
}

test('an interrupted rollback whose backup is damaged is reported by status, refused by gated steps, and finished once repaired', async (t) => {
  const { repo, original, backup } = await migrated(t);
  const copy = path.join(backup, 'files', FILE);
  const good = fs.readFileSync(copy);
  const crashed = await connect({ repo, elicit: yesToAll, env: { COPILOT_ONBOARD_CRASH_AFTER: '1' } });
  await assert.rejects(crashed.call('onboarding_rollback'));
  await crashed.close().catch(() => {});
  assert.ok(fs.existsSync(path.join(repo, JOURNAL)), 'the crash left the journal');
  fs.writeFileSync(copy, 'corrupt');

  const s = await openSession(t, { repo, elicit: yesToAll });
  const status = await s.call('onboarding_status');
  assert.equal(outcomeOf(status), 'status');
  assert.equal(status.isError, false);
  const sc = status.structuredContent as { damaged: boolean };
  assert.equal(sc.damaged, true);
  assert.match(textOf(status), /rollback/);
  assert.match(textOf(status), /files\/\.github\/copilot-instructions\.md/);
  assert.match(textOf(status), /journal\.json/, 'the way back names the journal');
  assert.equal(outcomeOf(await s.call('onboarding_analyze')), 'analyzed');
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  const tracesBefore = readTraces(repo, 'elicitation').length;
  for (const step of ['approve', 'migrate', 'rollback']) {
    const r = await s.call(`onboarding_${step}`);
    assert.equal(outcomeOf(r), 'precondition_failed', `${step}: ${textOf(r)}`);
    assert.match(textOf(r), /interrupted rollback/, step);
  }
  assert.equal(readTraces(repo, 'elicitation').length, tracesBefore + 3, 'each refusal is traced');
  assert.equal(s.elicitations.length, 0);
  await s.close();
  const c = cli(repo, 'status');
  assert.equal(c.status, 0, c.stderr);
  assert.match(c.stdout, /could not be finished/);

  fs.writeFileSync(copy, good);
  const st = cli(repo, 'status', '--json');
  assert.equal(st.status, 0, st.stderr);
  assert.equal(JSON.parse(st.stdout).damaged, false);
  assert.deepEqual(hashTree(repo), original, 'the rollback was finished');
  assert.equal(fs.existsSync(path.join(repo, JOURNAL)), false);
  assert.ok(
    readTraces(repo, 'elicitation').some((x) => x.recovery),
    'the recovery is traced',
  );
});

test("a journal.json that cannot be read is reported as not written here, and rollback goes on from this clone's own state", async (t) => {
  const { repo } = await migrated(t);
  fs.writeFileSync(path.join(repo, JOURNAL), '{"version":1,');
  const tree = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesToAll });
  const status = await s.call('onboarding_status');
  assert.equal(outcomeOf(status), 'status');
  assert.equal((status.structuredContent as { damaged: boolean }).damaged, false);
  assert.match(textOf(status), /not written here: ignored \(\.copilot-state\/journal\.json\)/);
  assert.deepEqual(hashTree(repo), tree, 'nothing was recovered from it');
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'rolled_back');
  const aside = fs.readdirSync(path.join(repo, '.copilot-state')).filter((n) => n.startsWith('journal.json.not-written-here-'));
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state', aside[0]!), 'utf8'), '{"version":1,', 'kept aside as it was');
});
