import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { sealed } from '../../server/src/state/binding.js';
import { hashTree, MESSY_INSTRUCTIONS, readTraces, sandbox, tempDir, writeFile } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';
const STATE = '.copilot-state/onboarding.json';

for (const [name, damage] of [
  ['not JSON', '{"version": 1, "step": '],
  ['JSON that fails its schema', '{"version": 1, "step": "flying", "migrations": "none"}\n'],
  [
    'a state of the right shape that this clone did not write',
    '{"version":1,"step":"approved","updatedAt":"x","plan":null,"approval":null,"migrations":[]}',
  ],
] as const) {
  test(`a damaged onboarding.json (${name}) is reported as not written here, never used, and kept aside byte for byte`, async (t) => {
    const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS, [STATE]: damage });
    const before = hashTree(repo);
    const s = await openSession(t, { repo, elicit: yesToAll });

    const status = await s.call('onboarding_status');
    assert.equal(outcomeOf(status), 'status');
    assert.equal((status.structuredContent as { step: string }).step, 'new', 'the ignored state is not read');
    // A file of the right shape without a seal is what 0.1.0 wrote (state/earlier-version.ts): named so, and still not used.
    assert.match(
      textOf(status),
      name.startsWith('a state of the right shape')
        ? /State in \.copilot-state was written by copilot-onboard 0\.1\.0, an earlier version \(\.copilot-state\/onboarding\.json\)\. Its plan and approval are not used/
        : /State in \.copilot-state was not written here: ignored \(\.copilot-state\/onboarding\.json\)/,
    );
    assert.doesNotMatch(textOf(status), /\brm -r/, 'no state is advised away');
    assert.deepEqual(hashTree(repo), before, 'status changes nothing');

    assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
    const aside = fs.readdirSync(path.join(repo, '.copilot-state')).filter((n) => n.startsWith('onboarding.json.not-written-here-'));
    assert.equal(aside.length, 1, 'the ignored file is kept beside the new state');
    assert.equal(fs.readFileSync(path.join(repo, '.copilot-state', aside[0]!), 'utf8'), damage, 'byte for byte');
    assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  });
}

test('an onboarding.json this clone wrote that no longer fits its schema is reported as damaged and never reset', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const bytes = JSON.stringify(await sealed(repo, STATE, { version: 1, step: 'flying', migrations: 'none' }));
  writeFile(repo, STATE, bytes);
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesToAll });
  const status = await s.call('onboarding_status');
  assert.equal((status.structuredContent as { damaged: boolean }).damaged, true);
  assert.match(textOf(status), /onboarding\.json is damaged/);
  assert.match(textOf(status), /Move it aside/);
  for (const tool of ['onboarding_propose', 'onboarding_approve', 'onboarding_migrate', 'onboarding_rollback']) {
    const r = await s.call(tool);
    assert.equal(outcomeOf(r), 'error', tool);
    assert.match(textOf(r), /damaged/, tool);
  }
  assert.equal(fs.readFileSync(path.join(repo, STATE), 'utf8'), bytes, 'the damaged file is left as it was');
  assert.deepEqual(hashTree(repo), before);
});

test('a damaged state names the latest backup as the way back', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const migrated = await s.call('onboarding_migrate');
  const id = (migrated.structuredContent as { migrationId: string }).migrationId;
  fs.writeFileSync(path.join(repo, STATE), 'garbage');
  const status = await s.call('onboarding_status');
  assert.match(textOf(status), new RegExp(`latest: ${id}`));
  assert.match(textOf(status), /original bytes of your files are in \.copilot-state\/backups\//);
});

for (const [name, bytes, reason] of [
  ['binary', Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02, 0x0a]), 'binary'],
  ['not UTF-8', Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0x41, 0x0a]), 'not_utf8'],
  ['over 1 MiB', Buffer.from('- Use pnpm.\n'.repeat(100_000)), 'too_large'],
] as const) {
  test(`an instruction file that is ${name} is reported, not parsed, and left untouched`, async (t) => {
    const repo = sandbox(t, { [FILE]: bytes });
    const before = hashTree(repo);
    const s = await openSession(t, { repo });
    const a = await s.call('onboarding_analyze');
    assert.equal(outcomeOf(a), 'analyzed');
    const skipped = (a.structuredContent as { skipped: { path: string; reason: string }[] }).skipped;
    assert.deepEqual(
      skipped.map((x) => [x.path, x.reason]),
      [[FILE, reason]],
    );
    assert.deepEqual((a.structuredContent as { problems: unknown[] }).problems, []);
    const p = await s.call('onboarding_propose');
    assert.equal(outcomeOf(p), 'proposed');
    assert.deepEqual((p.structuredContent as { operations: unknown[] }).operations, []);
    assert.deepEqual(hashTree(repo), before);
  });
}

test('a symlinked instruction file that leaves the repository is not followed', async (t) => {
  const outside = tempDir(t, 'co-outside-');
  fs.writeFileSync(path.join(outside, 'secret.md'), '- Use pnpm.\n- Use npm.\n');
  const repo = sandbox(t);
  fs.mkdirSync(path.join(repo, '.github'));
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(repo, FILE));
  const s = await openSession(t, { repo });
  const a = await s.call('onboarding_analyze');
  const skipped = (a.structuredContent as { skipped: { reason: string }[] }).skipped;
  assert.equal(skipped[0]?.reason, 'symlink_outside');
  assert.doesNotMatch(textOf(a), /Use npm/);
  assert.equal(fs.readFileSync(path.join(outside, 'secret.md'), 'utf8'), '- Use pnpm.\n- Use npm.\n');
});

test('serve with a repository that does not exist exits 2 with a clear message', () => {
  const r = spawnSync(process.execPath, [CLI, 'serve', '--repo', '/nonexistent/co-repo'], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /\/nonexistent\/co-repo .*does not exist/);
  assert.equal(r.stdout, '', 'stdout stays clean: it is the protocol');
});

test('serve with a file as repository exits 2', (t) => {
  const repo = sandbox(t, { 'a.txt': 'x' });
  const r = spawnSync(process.execPath, [CLI, 'serve', '--repo', path.join(repo, 'a.txt')], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /is not a directory/);
});

test('COPILOT_ONBOARD_REPO picks the repository when --repo is absent', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const elsewhere = sandbox(t);
  const s = await openSession(t, { cwd: elsewhere, env: { COPILOT_ONBOARD_REPO: repo } });
  const a = await s.call('onboarding_analyze');
  assert.equal((a.structuredContent as { pattern: string }).pattern, 'messy');
});

test('the working directory is the repository when nothing else names one', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const env = { ...process.env } as Record<string, string>;
  delete env.COPILOT_ONBOARD_REPO;
  const s = await openSession(t, { cwd: repo, env });
  const a = await s.call('onboarding_analyze');
  assert.equal((a.structuredContent as { pattern: string }).pattern, 'messy');
  assert.equal(readTraces(repo, 'sampling').length, 1, 'traces go to the repository');
});

test('an unknown tool is an error and changes nothing', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo });
  await assert.rejects(s.call('onboarding_everything'), /Unknown tool/);
});

test('writing a file through a symlinked folder that leaves the repository is refused', async (t) => {
  const outside = tempDir(t, 'co-outside-');
  const repo = sandbox(t);
  writeFile(outside, 'copilot-instructions.md', MESSY_INSTRUCTIONS);
  fs.symlinkSync(outside, path.join(repo, '.github'));
  const s = await openSession(t, { repo, elicit: yesToAll });
  const p = await s.call('onboarding_propose');
  assert.deepEqual((p.structuredContent as { operations: unknown[] }).operations, []);
  assert.equal(fs.readFileSync(path.join(outside, 'copilot-instructions.md'), 'utf8'), MESSY_INSTRUCTIONS);
});
