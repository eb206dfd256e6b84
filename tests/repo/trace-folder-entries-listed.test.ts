import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cli, outsideDir, snapshot, repoWithRules, escape } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: Odd entries in the trace folders.
 */

test('traces verify and list with a folder named x.json, a FIFO and a link in the trace folders: listed as problems, no crash, no hang', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  assert.equal(cli(['analyze', '--repo', repo]).status, 0);
  const sampling = path.join(repo, '.copilot-state/sampling-traces');
  const elicitation = path.join(repo, '.copilot-state/elicitation-traces');
  fs.mkdirSync(elicitation, { recursive: true });
  fs.mkdirSync(path.join(sampling, 'x.json'));
  execFileSync('mkfifo', [path.join(elicitation, 'y.json')]);
  fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(sampling, 'z.json'));
  const before = snapshot(outside);
  const v = cli(['traces', 'verify', '--repo', repo], { timeout: 20_000 });
  assert.equal(v.signal, null, 'verify did not hang');
  assert.equal(v.status, 2, v.stdout + v.stderr);
  for (const name of ['sampling-traces/x.json', 'elicitation-traces/y.json', 'sampling-traces/z.json'])
    assert.match(v.stderr, new RegExp(escape(name)));
  assert.doesNotMatch(v.stderr, /Internal error|TypeError|EISDIR|at .*\.js:\d+/);
  assert.doesNotMatch(v.stderr, /precious/);
  const vj = cli(['traces', 'verify', '--json', '--repo', repo], { timeout: 20_000 });
  assert.equal(vj.status, 2);
  assert.ok((JSON.parse(vj.stdout) as { problems: string[] }).problems.length >= 3);
  const l = cli(['traces', 'list', '--repo', repo], { timeout: 20_000 });
  assert.equal(l.signal, null, 'list did not hang');
  assert.equal(l.status, 0, l.stderr);
  assert.doesNotMatch(l.stdout + l.stderr, /precious/);
  // An ordinary command still works, also when it has to look for the newest trace.
  fs.rmSync(path.join(repo, '.copilot-state/sampling-traces/.read-only-chain.json'));
  const a = cli(['analyze', '--repo', repo], { timeout: 20_000 });
  assert.equal(a.signal, null, 'analyze did not hang');
  assert.equal(a.status, 0, a.stderr);
  assert.deepEqual(snapshot(outside), before);
});
