import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cli, repoWithRules, json } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: --repo "".
 */

test('--repo "" (an unset shell variable) exits 2 with a clear line, for every command, and never uses the working directory', (t) => {
  const cwd = repoWithRules(t);
  for (const args of [
    ['analyze', '--repo', ''],
    ['analyze', '--repo='],
    ['propose', '--json', '--repo', ''],
    ['status', '--repo', ''],
    ['approve', '--repo', ''],
    ['migrate', '--repo', ''],
    ['rollback', '--repo', ''],
    ['traces', 'verify', '--repo', ''],
    ['traces', 'list', '--repo', ''],
    ['setup', 'vscode', '--repo', ''],
    ['serve', '--repo', ''],
  ]) {
    const r = cli(args, { cwd, env: { ...process.env, COPILOT_ONBOARD_REPO: cwd } });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /--repo is empty/, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, `one clear line: ${r.stderr}`);
  }
  assert.equal(fs.existsSync(path.join(cwd, '.copilot-state')), false, 'nothing was created in the working directory');
  assert.equal(fs.existsSync(path.join(cwd, '.vscode')), false);
});

test('COPILOT_ONBOARD_REPO="" is treated as unset: the working directory is the repository', (t) => {
  const cwd = repoWithRules(t);
  const r = cli(['status', '--json'], { cwd, env: { ...process.env, COPILOT_ONBOARD_REPO: '' } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(json(r).outcome, 'status');
});
