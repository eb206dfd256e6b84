import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cli, outsideDir, snapshot, repoWithRules, linkAt } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: setup vscode.
 */

test('setup vscode with .vscode as a link to an outside folder: exit 2 naming it, the outside file is neither shown nor written', (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'folder', 'mcp.json'), '{ "servers": { "secret-outside": {} } }\n');
  fs.symlinkSync(path.join(outside, 'folder'), path.join(repo, '.vscode'));
  const before = snapshot(outside);
  const r = cli(['setup', 'vscode', '--repo', repo]);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /\.vscode.*link/);
  assert.doesNotMatch(r.stdout, /secret-outside/);
  assert.deepEqual(snapshot(outside), before);
});

test('setup vscode with .vscode/mcp.json as a link to an outside file: exit 2 naming it', (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'mcp.json'), '{}\n');
  linkAt(repo, '.vscode/mcp.json', path.join(outside, 'mcp.json'));
  const before = snapshot(outside);
  const r = cli(['setup', 'vscode', '--repo', repo]);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /\.vscode\/mcp\.json.*link/);
  assert.deepEqual(snapshot(outside), before);
});

test('setup vscode: .vscode replaced by an outside link after the diff was shown is refused when writing', async (t) => {
  const { planVscodeSetup, applyVscodeSetup } = await import('../../server/src/cli/setup.js');
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.mkdirSync(path.join(repo, '.vscode'));
  const change = await planVscodeSetup(repo);
  assert.ok(change);
  linkAt(repo, '.vscode', path.join(outside, 'empty'));
  const before = snapshot(outside);
  await assert.rejects(applyVscodeSetup(change), /\.vscode.*link/);
  assert.deepEqual(snapshot(outside), before);
});
