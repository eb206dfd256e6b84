import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { readTraces } from '../helpers/sandbox.js';
import { cli, fullFlow, repoWithRules, proposedAndApproved } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: Honest traces.
 */

type Traced = Record<string, any> & { _file: string; _kind: string };

/** The gated chain, in seq order: the elicitation traces (the sampling traces are in a read-only chain of their own). */
function allTraces(repo: string): Traced[] {
  const all: Traced[] = [
    ...readTraces(repo, 'elicitation').map((x) => ({ ...x, _kind: 'elicitation' })),
    ...readTraces(repo, 'sampling')
      .filter((x) => x.chain !== 'read-only')
      .map((x) => ({ ...x, _kind: 'sampling' })),
  ];
  return all.sort((a, b) => a.seq - b.seq);
}

const traceFileOf = (repo: string, x: { _file: string; _kind: string }) => path.join(repo, '.copilot-state', `${x._kind}-traces`, x._file);

for (const [what, damage] of [
  [
    'the newest two traces and trace-chain.json deleted',
    (repo: string) => {
      for (const x of allTraces(repo).slice(-2)) fs.rmSync(traceFileOf(repo, x));
      fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
    },
  ],
  [
    'the newest trace deleted, the chain head kept',
    (repo: string) => {
      fs.rmSync(traceFileOf(repo, allTraces(repo).at(-1)!));
    },
  ],
  [
    'the newest trace edited',
    (repo: string) => {
      const file = traceFileOf(repo, allTraces(repo).at(-1)!);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"migrated"', '"declined"'));
    },
  ],
  [
    'a trace in the middle deleted',
    (repo: string) => {
      fs.rmSync(traceFileOf(repo, allTraces(repo)[1]!));
    },
  ],
  [
    'trace-chain.json deleted',
    (repo: string) => {
      fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
    },
  ],
] as const) {
  test(`${what}: the next command does not heal the chain; verify fails until the break is acknowledged, with a trace saying so`, async (t) => {
    const repo = repoWithRules(t);
    await fullFlow(repo);
    assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 0);
    damage(repo);
    assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 2);
    assert.equal(cli(['analyze', '--repo', repo]).status, 0);
    assert.equal(cli(['status', '--repo', repo]).status, 0);
    const still = cli(['traces', 'verify', '--repo', repo]);
    assert.equal(still.status, 2, `verify must keep failing after an ordinary command: ${still.stdout}`);
    assert.match(still.stderr, /acknowledge/);
    const noReason = cli(['traces', 'acknowledge', '--repo', repo]);
    assert.equal(noReason.status, 2);
    assert.match(noReason.stderr, /--reason/);
    assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 2, 'a refused acknowledgement changes nothing');
    const reason = 'I removed traces by hand while testing';
    const ack = cli(['traces', 'acknowledge', '--reason', reason, '--repo', repo]);
    assert.equal(ack.status, 0, ack.stderr);
    const v = cli(['traces', 'verify', '--repo', repo]);
    assert.equal(v.status, 0, v.stderr);
    const newest = allTraces(repo).at(-1)!;
    assert.equal(newest.action, 'acknowledge');
    assert.equal(newest.outcome, 'acknowledged');
    assert.equal(newest.acknowledged.reason, reason);
    assert.ok(newest.acknowledged.problems.length > 0);
    // What was acknowledged stays acknowledged; the chain goes on as usual.
    assert.equal(cli(['analyze', '--repo', repo]).status, 0);
    assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 0);
  });
}

test('traces acknowledge with nothing to acknowledge writes nothing', async (t) => {
  const repo = repoWithRules(t);
  await fullFlow(repo);
  const before = allTraces(repo).length;
  const r = cli(['traces', 'acknowledge', '--reason', 'just checking', '--repo', repo]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /nothing to acknowledge/i);
  assert.equal(allTraces(repo).length, before);
});

test('a new break after an acknowledgement is reported again', async (t) => {
  const repo = repoWithRules(t);
  await fullFlow(repo);
  fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
  assert.equal(cli(['traces', 'acknowledge', '--reason', 'first', '--repo', repo]).status, 0);
  assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 0);
  fs.rmSync(traceFileOf(repo, allTraces(repo).at(-1)!));
  fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
  assert.equal(cli(['analyze', '--repo', repo]).status, 0);
  assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 2);
});

test('no absolute path of the machine appears in any trace after an error', async (t) => {
  const repo = repoWithRules(t);
  await proposedAndApproved(repo);
  // A file where the backups folder should be: migrate fails while saving the backup.
  fs.writeFileSync(path.join(repo, '.copilot-state/backups'), 'in the way\n');
  const s = await openSession(t, { repo, elicit: yesToAll });
  const r = await s.call('onboarding_migrate');
  assert.notEqual(outcomeOf(r), 'migrated', textOf(r));
  await s.close();
  const real = fs.realpathSync(repo);
  const files = [
    ...readTraces(repo, 'elicitation').map((x) => path.join(repo, '.copilot-state/elicitation-traces', x._file)),
    ...readTraces(repo, 'sampling').map((x) => path.join(repo, '.copilot-state/sampling-traces', x._file)),
    path.join(repo, '.copilot-state/trace-chain.json'),
  ];
  assert.ok(files.length >= 4);
  const migrate = readTraces(repo, 'elicitation').find((x) => x.action === 'migrate')!;
  assert.match(migrate.detail, /\.copilot-state\/backups/, 'the path is still named, relative to the repository');
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes(repo) && !text.includes(real), `${path.basename(file)} holds the repository's absolute path:\n${text}`);
    if (os.homedir().length > 1) assert.ok(!text.includes(os.homedir()), `${path.basename(file)} holds the home folder`);
  }
});

test('paths in a trace are made relative to the repository in every field', async (t) => {
  const { writeElicitationTrace } = await import('../../server/src/state/traces/writer.js');
  const repo = repoWithRules(t);
  const real = fs.realpathSync(repo);
  const file = await writeElicitationTrace(repo, {
    action: 'migrate',
    message: `Write ${real}/.github/copilot-instructions.md`,
    schema: { note: `${repo}/x` },
    response: { action: 'accept', content: { where: repo } },
    outcome: 'error',
    duration_ms: 1,
    planHash: null,
    client: null,
    detail: `ENOENT: no such file or directory, open '${repo}/.copilot-state/backups/x'. The repository is ${real}. Not ${repo}-2 nor ${repo}.git.`,
  });
  const text = fs.readFileSync(file, 'utf8');
  const trace = JSON.parse(text);
  const rest = JSON.stringify({ ...trace, detail: '' });
  assert.ok(!rest.includes(repo) && !rest.includes(real), text);
  assert.equal(trace.message, 'Write .github/copilot-instructions.md');
  assert.equal(
    trace.detail,
    `ENOENT: no such file or directory, open '.copilot-state/backups/x'. The repository is .. Not ${repo}-2 nor ${repo}.git.`,
  );
  assert.equal(trace.response.content.where, '.');
});
