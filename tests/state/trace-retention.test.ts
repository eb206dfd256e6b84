import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { readTraces, sandbox } from '../helpers/sandbox.js';
import { writeElicitationTrace, writeSamplingTrace } from '../../server/src/state/traces/writer.js';
import { prune, RETENTION } from '../../server/src/state/retention.js';
import { verifyTraces } from '../../server/src/state/traces/verify.js';

const cli = (repo: string, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'traces', ...args, '--repo', repo], { encoding: 'utf8', input: '' });

async function sampling(repo: string, n: number) {
  for (let i = 0; i < n; i++) {
    await writeSamplingTrace(repo, {
      intent: i % 2 ? 'analyze' : 'propose',
      request: { messages: [], maxTokens: 1, systemPrompt: '' },
      response: null,
      outcome: 'unsupported',
      duration_ms: 0,
      fallback: true,
      client: null,
    });
  }
}

async function gated(repo: string, action: 'approve' | 'migrate') {
  await writeElicitationTrace(repo, {
    action,
    message: 'm',
    schema: {},
    response: null,
    outcome: 'declined',
    duration_ms: 0,
    planHash: null,
    client: null,
  });
}

test('past the bound, the oldest read-only traces go, every gated trace stays, and the chain still verifies', async (t) => {
  const repo = sandbox(t);
  await sampling(repo, 40);
  await gated(repo, 'approve');
  await sampling(repo, 80);
  await gated(repo, 'migrate');
  await sampling(repo, 20);
  // 140 read-only traces: within the slack, nothing goes on its own.
  assert.equal(await prune(repo, 'test'), null);
  await sampling(repo, RETENTION.readOnlyTraces + RETENTION.slack + 1 - 140);
  const before = readTraces(repo, 'sampling').length;
  assert.equal(before, RETENTION.readOnlyTraces + RETENTION.slack + 1);
  const gatedChain = fs.readFileSync(path.join(repo, '.copilot-state/trace-chain.json'), 'utf8');
  const done = await prune(repo, 'test');
  assert.equal(done?.traces, before - RETENTION.readOnlyTraces);
  assert.equal(done?.trace, null);
  assert.equal(readTraces(repo, 'sampling').length, RETENTION.readOnlyTraces);
  // The read-only chain records its own prune, in its head: the gated chain (which a team may commit) is untouched.
  assert.deepEqual(
    readTraces(repo, 'elicitation').map((x) => x.action),
    ['approve', 'migrate'],
  );
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state/trace-chain.json'), 'utf8'), gatedChain);
  const head = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/sampling-traces/.read-only-chain.json'), 'utf8'));
  assert.equal(head.prunedThrough.seq, before - RETENTION.readOnlyTraces);
  assert.equal(readTraces(repo, 'sampling')[0]!.prev, head.prunedThrough.sha256);
  assert.deepEqual(await verifyTraces(repo), { ok: true, traces: RETENTION.readOnlyTraces + 2, problems: [], acknowledged: [] });
  assert.equal(cli(repo, 'verify').status, 0);
  await sampling(repo, 1);
  assert.equal(
    JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/sampling-traces/.read-only-chain.json'), 'utf8')).prunedThrough.seq,
    head.prunedThrough.seq,
    'the record is kept',
  );
  assert.equal((await verifyTraces(repo)).ok, true);

  // A kept trace removed by hand is still reported missing.
  const kept = readTraces(repo, 'sampling')[5]!;
  fs.rmSync(path.join(repo, '.copilot-state/sampling-traces', kept._file));
  const report = await verifyTraces(repo);
  assert.equal(report.ok, false);
  assert.match(report.problems.join('\n'), new RegExp(`trace ${kept.seq} missing before`));
});

test('traces prune applies the policy now and says what it removed; a second run has nothing to do', async (t) => {
  const repo = sandbox(t);
  await sampling(repo, RETENTION.readOnlyTraces + 7);
  const first = cli(repo, 'prune');
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /^Pruned 7 read-only traces; the read-only chain's head records what was removed/);
  assert.equal(readTraces(repo, 'sampling').length, RETENTION.readOnlyTraces);
  const again = cli(repo, 'prune');
  assert.match(again.stdout, /^Nothing to prune/);
  assert.equal(cli(repo, 'verify').status, 0);
});
