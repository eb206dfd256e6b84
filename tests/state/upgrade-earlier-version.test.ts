import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, outcomeOf, rollbackYes, textOf } from '../helpers/mcp.js';
import { readState, sandbox, tempDir, type Cleanup } from '../helpers/sandbox.js';

/**
 * Issue 41, upgrades keep faith. tests/fixtures/earlier-0.1.0/ is what the build of 0abd236
 * (copilot-onboard 0.1.0, before state was sealed to its clone) left after propose, approve and
 * migrate in a sandbox (scripts/earlier-version-fixture.mjs made it; ORIGINALS.json holds the files
 * as they were before that migration). After the upgrade, the state is named as an earlier
 * version's, never as state that "came with the repository"; its migration can still be rolled back,
 * after the person's yes, with its backup checked byte for byte; and nothing advises an `rm` of it.
 */

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/earlier-0.1.0');
const ORIGINALS = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'ORIGINALS.json'), 'utf8')) as Record<string, string>;

/** A sandbox repository holding what 0.1.0 left: the migrated files and its .copilot-state/. */
function upgraded(t: Cleanup): { repo: string; id: string } {
  const repo = sandbox(t);
  fs.cpSync(FIXTURE, repo, { recursive: true, filter: (src) => path.basename(src) !== 'ORIGINALS.json' });
  const id = fs.readdirSync(path.join(repo, '.copilot-state/backups'))[0]!;
  return { repo, id };
}

const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

test("status after an upgrade names 0.1.0's state as an earlier version's, with its migration to roll back, and advises no rm", (t) => {
  const { repo, id } = upgraded(t);
  const r = cli(['status', '--repo', repo]);
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout + r.stderr;
  assert.match(out, /written by copilot-onboard 0\.1\.0, an earlier version/);
  assert.match(out, /^Step: migrated \(by copilot-onboard 0\.1\.0, an earlier version\)$/m);
  assert.match(out, /^Step: migrated \(by copilot-onboard 0\.1\.0, an earlier version\)$/m);
  assert.match(out, new RegExp(`Migration to roll back: ${id} \\(recorded by copilot-onboard 0\\.1\\.0, an earlier version; backup in`));
  assert.match(out, /Next: Run .* rollback .*to undo the migration copilot-onboard 0\.1\.0 recorded/);
  assert.doesNotMatch(out, /came with the repository/);
  assert.doesNotMatch(out, /\brm -r/);
  const json = JSON.parse(cli(['status', '--repo', repo, '--json']).stdout);
  assert.equal(json.activeMigration.id, id);
  assert.equal(json.activeMigration.writtenBy, '0.1.0');
});

test("rollback after an upgrade: 0.1.0's migration is rolled back after the yes, byte for byte, and taken up as this version's", async (t) => {
  const { repo, id } = upgraded(t);
  const s = await openSession(t, { repo, elicit: rollbackYes });
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'rolled_back', textOf(r));
  assert.match(
    s.elicitations[0]!.message,
    new RegExp(`Migration ${id} was recorded by copilot-onboard 0\\.1\\.0, an earlier version, on this machine`),
  );
  assert.match(s.elicitations[0]!.message, /Its backup was checked byte for byte/);
  for (const [rel, text] of Object.entries(ORIGINALS)) assert.equal(fs.readFileSync(path.join(repo, rel), 'utf8'), text, rel);
  const state = readState(repo)!;
  assert.equal(state.step, 'rolled_back');
  assert.match(state.writtenBy, /^\d+\.\d+\.\d+$/);
  assert.equal(state.migrations[0].id, id);
  assert.notEqual(state.migrations[0].rolledBackAt, null);
  // The earlier file is kept aside, byte for byte, and git offers none of it.
  const aside = fs.readdirSync(path.join(repo, '.copilot-state')).filter((n) => n.startsWith('onboarding.json.not-written-here-'));
  assert.equal(aside.length, 1);
  assert.deepEqual(
    JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state', aside[0]!), 'utf8')),
    JSON.parse(fs.readFileSync(path.join(FIXTURE, '.copilot-state/onboarding.json'), 'utf8')),
  );
  const offered = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', '.copilot-state'], {
    cwd: repo,
    encoding: 'utf8',
  });
  assert.doesNotMatch(offered, /not-written-here|plan\.json|onboarding\.json|backups\//);
  // Nothing is left to roll back, and status no longer offers it.
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'precondition_failed');
  assert.match(cli(['status', '--repo', repo]).stdout, /Migration to roll back: none/);
});

test("an earlier version's backup changed since is refused before the person is asked, naming the file; nothing changes", async (t) => {
  const { repo, id } = upgraded(t);
  fs.writeFileSync(path.join(repo, `.copilot-state/backups/${id}/files/.github/copilot-instructions.md`), '# changed\n');
  const before = fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8');
  const s = await openSession(t, { repo, elicit: rollbackYes });
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /copilot-instructions\.md.*has changed since the migration saved it/);
  assert.equal(s.elicitations.length, 0);
  assert.equal(fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8'), before);
});

test('earlier-version state that git tracks came with the repository: never rolled back, still no rm advised', async (t) => {
  const { repo } = upgraded(t);
  execFileSync('git', ['add', '-f', '.copilot-state/onboarding.json'], { cwd: repo });
  const s = await openSession(t, { repo, elicit: rollbackYes });
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /There is no migration to roll back/);
  assert.match(textOf(r), /was not written here: ignored/);
  assert.doesNotMatch(textOf(r), /\brm -r/);
  assert.equal(s.elicitations.length, 0);
});

test("an archive that brings 0.1.0's state, unpacked outside git over the person's files: nothing is offered to roll back, nothing changes", async (t) => {
  const repo = tempDir(t, 'co-archive-');
  fs.writeFileSync(path.join(repo, '.env'), 'SECRET=mine\n');
  // The attacker's archive: 0.1.0's state and a backup that would "put back" .env with its own bytes.
  const packed = tempDir(t, 'co-packed-');
  fs.cpSync(FIXTURE, packed, { recursive: true, filter: (src) => path.basename(src) !== 'ORIGINALS.json' });
  const id = fs.readdirSync(path.join(packed, '.copilot-state/backups'))[0]!;
  fs.writeFileSync(path.join(packed, `.copilot-state/backups/${id}/files/.env`), 'SECRET=attacker\n');
  const tarball = path.join(tempDir(t, 'co-tar-'), 'a.tar');
  execFileSync('tar', ['-cf', tarball, '-C', packed, '.']);
  execFileSync('tar', ['-xf', tarball, '-C', repo]);
  const status = cli(['status', '--repo', repo]);
  assert.doesNotMatch(status.stdout + status.stderr, /Migration to roll back: (?!none)/);
  assert.doesNotMatch(status.stdout + status.stderr, /an earlier version/);
  const s = await openSession(t, { repo, elicit: rollbackYes });
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
  assert.equal(s.elicitations.length, 0);
  assert.equal(fs.readFileSync(path.join(repo, '.env'), 'utf8'), 'SECRET=mine\n');
});
