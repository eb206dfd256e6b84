import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, connect, openSession, outcomeOf, textOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readTraces, sandbox } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';
const verify = (repo: string) => spawnSync(process.execPath, [CLI, 'traces', 'verify', '--repo', repo], { encoding: 'utf8', input: '' });

for (const [what, name] of [
  ['the chain head', 'trace-chain.json'],
  ["the traces lock's owner file", 'traces.lock-owner.json'],
] as const) {
  test(`migrate does not start when ${what} cannot be written (a folder in its place), and nothing changes`, async (t) => {
    const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
    const first = await connect({ repo, elicit: yesToAll });
    await first.call('onboarding_propose');
    assert.equal(outcomeOf(await first.call('onboarding_approve')), 'approved');
    await first.close();
    const file = path.join(repo, '.copilot-state', name);
    fs.rmSync(file, { force: true });
    fs.mkdirSync(file);
    const tree = hashTree(repo);
    const s = await openSession(t, { repo, elicit: yesToAll });
    const r = await s.call('onboarding_migrate');
    assert.equal(outcomeOf(r), 'error', textOf(r));
    assert.match(textOf(r), new RegExp(`trace cannot be written.*${name.replace(/\./g, '\\.')}`));
    assert.equal(s.elicitations.length, 0, 'the person is not asked');
    assert.deepEqual(hashTree(repo), tree);
    assert.equal(fs.existsSync(path.join(repo, '.copilot-state/backups')), false, 'no backup was made');
  });
}

test('an approve whose form stays open while an analyze is traced verifies, and names follow the chain', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  // The first form stays open until the analyze is done: ordered by events, not by sleeps, so a loaded machine cannot reorder it.
  let asked!: () => void;
  const formShown = new Promise<void>((r) => (asked = r));
  let analyzeDone!: () => void;
  const analyzed = new Promise<void>((r) => (analyzeDone = r));
  const slowYes: ElicitAnswer = async (req) => {
    asked();
    await analyzed;
    return yesToAll(req);
  };
  const s = await openSession(t, { repo, elicit: slowYes });
  await s.call('onboarding_propose');
  const approve = s.call('onboarding_approve');
  await formShown;
  // Well after the form went out, so the traces' millisecond timestamps cannot tie.
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(outcomeOf(await s.call('onboarding_analyze')), 'analyzed');
  analyzeDone();
  assert.equal(outcomeOf(await approve), 'approved');
  const r = verify(repo);
  assert.equal(r.status, 0, r.stderr);
  // Two chains (state/traces/chains.ts): the gated one, and the read-only one of the narrations, each in its own order.
  const bySeq = (kind: 'elicitation' | 'sampling') => readTraces(repo, kind).sort((a, b) => a.seq - b.seq);
  const gated = bySeq('elicitation');
  const readOnly = bySeq('sampling');
  // Approve asks in two rounds here (the plan has a choice).
  assert.deepEqual(
    gated.map((x) => [x.seq, x.action]),
    [
      [1, 'approve'],
      [2, 'approve'],
    ],
  );
  assert.deepEqual(
    readOnly.map((x) => [x.seq, x.intent, x.chain]),
    [
      [1, 'propose', 'read-only'],
      [2, 'analyze', 'read-only'],
    ],
  );
  for (const chain of [gated, readOnly])
    assert.deepEqual(
      chain.map((x) => x._file),
      [...chain.map((x) => x._file)].sort(),
      'file names sort in chain order',
    );
  // The first round's trace is written after the analyze, and its duration reaches back to the start of the exchange.
  const approveTrace = gated[0]!;
  assert.ok(Date.parse(approveTrace.timestamp) >= Date.parse(readOnly[1]!.timestamp));
  assert.ok(
    Date.parse(approveTrace.timestamp) - approveTrace.duration_ms <= Date.parse(readOnly[1]!.timestamp),
    'duration_ms reaches back to the start of the exchange',
  );
});

test('two trace files whose names were swapped are reported', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  await s.call('onboarding_migrate');
  await s.close();
  assert.equal(verify(repo).status, 0);
  const dir = path.join(repo, '.copilot-state/elicitation-traces');
  const [a, b] = readTraces(repo, 'elicitation').map((x) => path.join(dir, x._file));
  fs.renameSync(a!, `${a}.tmp`);
  fs.renameSync(b!, a!);
  fs.renameSync(`${a}.tmp`, b!);
  const r = verify(repo);
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`${path.basename(a!)}.*name`));
  assert.match(r.stderr, new RegExp(`${path.basename(b!)}.*name`));
});

for (const action of ['list', 'verify'] as const) {
  test(`traces ${action} first recovers an interrupted migrate, and traces the recovery`, async (t) => {
    const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
    const before = hashTree(repo);
    const s = await connect({ repo, elicit: yesToAll });
    await s.call('onboarding_propose');
    await s.call('onboarding_approve');
    await s.close();
    // journal, state, the backup, manifest, journal (apply), the first file: killed mid-migration.
    const crashing = await connect({ repo, elicit: yesToAll, env: { COPILOT_ONBOARD_CRASH_AFTER: '6' } });
    await assert.rejects(crashing.call('onboarding_migrate'));
    await crashing.close().catch(() => {});
    assert.ok(fs.existsSync(path.join(repo, '.copilot-state/journal.json')));
    const r = spawnSync(process.execPath, [CLI, 'traces', action, '--repo', repo], { encoding: 'utf8', input: '' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /Recovered first/);
    assert.equal(fs.existsSync(path.join(repo, '.copilot-state/journal.json')), false);
    assert.deepEqual(hashTree(repo), before);
    const recovery = readTraces(repo, 'elicitation').find((x) => x.recovery);
    assert.ok(recovery, 'the recovery is traced');
    if (action === 'list') assert.match(r.stdout, new RegExp(recovery._file.replace('.json', '')));
  });
}
