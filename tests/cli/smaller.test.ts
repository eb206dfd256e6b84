import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('a refused migrate in a repository without .copilot-state/ never says "Created" after "Nothing was changed"', (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '- Use pnpm for all package management.\n' });
  const r = spawnSync(process.execPath, [CLI, 'migrate', '--repo', repo], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 4);
  const said = r.stdout + r.stderr;
  assert.match(said, /Nothing was changed\./);
  assert.doesNotMatch(said, /Created \.copilot-state/);
  assert.match(said, /Only the trace of this refusal was written, in \.copilot-state\//);
  assert.ok(fs.existsSync(path.join(repo, '.copilot-state', '.gitignore')));
});

test("the README's commands work as written: its one-file test command names a test the runner runs, traces prune runs", (t) => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const oneFile = /^node scripts\/run-tests\.mjs (tests\/\S+\.test\.ts)$/m.exec(readme);
  assert.ok(oneFile, 'the README shows how to run one test file');
  const listed = spawnSync(process.execPath, [path.join(ROOT, 'scripts/run-tests.mjs'), '--list', oneFile[1]!], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(`^(unit|e2e) ${oneFile[1]!.replace(/[.]/g, '\\.')}$`, 'm'));
  assert.ok(fs.existsSync(path.join(ROOT, oneFile[1]!)), `${oneFile[1]} does not exist`);
  const usage = /`copilot-onboard (traces prune) \[--repo DIR\] \[--reason TEXT\]`/.exec(readme);
  assert.ok(usage, 'the README says how to prune the traces');
  const repo = sandbox(t, { 'AGENTS.md': '- Use pnpm.\n' });
  const pruned = spawnSync(process.execPath, [CLI, ...usage[1]!.split(' '), '--repo', repo, '--reason', 'as the README says'], {
    encoding: 'utf8',
  });
  assert.equal(pruned.status, 0, pruned.stderr);
  assert.match(pruned.stdout, /Nothing to prune/);
});

test('npm ci is quiet: every dependency with an install script is approved in allowScripts', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
  const withScripts = Object.entries(lock.packages)
    .filter(([p, v]) => p !== '' && v.hasInstallScript)
    .map(([p]) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length));
  assert.ok(withScripts.length > 0);
  for (const name of withScripts) assert.equal(pkg.allowScripts?.[name], true, `${name} runs an install script`);
});
