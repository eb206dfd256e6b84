import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, connect, openSession, yesToAll } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

async function repoWithTraces(t: Cleanup): Promise<string> {
  const repo = sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS });
  const s = await connect({ repo, elicit: yesToAll });
  await s.call('onboarding_analyze');
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  await s.call('onboarding_migrate');
  await s.close();
  return repo;
}

const verify = (repo: string) => spawnSync(process.execPath, [CLI, 'traces', 'verify', '--repo', repo], { encoding: 'utf8', input: '' });
const traceFile = (repo: string, t: { _file: string }, kind: string) => path.join(repo, '.copilot-state', `${kind}-traces`, t._file);

test('every trace carries seq and prev, in its chain (gated, read-only), and an untouched chain verifies', async (t) => {
  const repo = await repoWithTraces(t);
  // approve's two rounds (the plan has a choice) and migrate; analyze and propose in the read-only chain.
  for (const [kind, n] of [
    ['elicitation', 3],
    ['sampling', 2],
  ] as const) {
    const chain = readTraces(repo, kind).sort((a, b) => a.seq - b.seq);
    assert.deepEqual(
      chain.map((x) => x.seq),
      Array.from({ length: n }, (_, i) => i + 1),
      kind,
    );
    assert.equal(chain[0]!.prev, null);
    for (const x of chain.slice(1)) assert.match(x.prev, /^[0-9a-f]{64}$/);
  }
  const r = verify(repo);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /5 traces verified/);
});

test('a removed newest read-only trace is reported through the read-only chain head', async (t) => {
  const repo = await repoWithTraces(t);
  const newest = [...readTraces(repo, 'sampling')].sort((a, b) => b.seq - a.seq)[0]!;
  fs.rmSync(traceFile(repo, newest, 'sampling'));
  const r = verify(repo);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /missing at the end/);
});

test('an edited trace is reported and verify exits non-zero', async (t) => {
  const repo = await repoWithTraces(t);
  const approve = readTraces(repo, 'elicitation').find((x) => x.action === 'approve' && x.outcome === 'approved')!;
  const file = traceFile(repo, approve, 'elicitation');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"approved": true', '"approved": false'));
  const r = verify(repo);
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`${approve._file}.*edited`));
});

test('a missing trace is reported', async (t) => {
  const repo = await repoWithTraces(t);
  const sampling = readTraces(repo, 'sampling')[0]!;
  fs.rmSync(traceFile(repo, sampling, 'sampling'));
  const r = verify(repo);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /missing/);
});

test('a removed newest trace is reported through the chain head', async (t) => {
  const repo = await repoWithTraces(t);
  const newest = [...readTraces(repo, 'elicitation')].sort((a, b) => b.seq - a.seq)[0]!;
  fs.rmSync(traceFile(repo, newest, 'elicitation'));
  const r = verify(repo);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /missing at the end/);
});

test('reordered traces are reported', async (t) => {
  const repo = await repoWithTraces(t);
  const [a, b] = readTraces(repo, 'elicitation');
  const fa = traceFile(repo, a!, 'elicitation');
  const fb = traceFile(repo, b!, 'elicitation');
  const ja = JSON.parse(fs.readFileSync(fa, 'utf8'));
  const jb = JSON.parse(fs.readFileSync(fb, 'utf8'));
  [ja.seq, jb.seq] = [jb.seq, ja.seq];
  fs.writeFileSync(fa, `${JSON.stringify(ja, null, 2)}\n`);
  fs.writeFileSync(fb, `${JSON.stringify(jb, null, 2)}\n`);
  const r = verify(repo);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /reordered|edited/);
});

test('a gated step whose trace cannot be written is refused, and nothing changes', async (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  // A file where the traces folder should be: no trace can be written there, even by root.
  fs.writeFileSync(path.join(repo, '.copilot-state', 'elicitation-traces'), 'in the way');
  const state = fs.readFileSync(path.join(repo, '.copilot-state', 'onboarding.json'), 'utf8');
  const r = await s.call('onboarding_approve');
  assert.equal((r.structuredContent as { outcome: string }).outcome, 'error');
  assert.match((r.content[0] as { text: string }).text, /trace cannot be written/);
  assert.equal(s.elicitations.length, 0, 'the person is not asked');
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state', 'onboarding.json'), 'utf8'), state);
});
