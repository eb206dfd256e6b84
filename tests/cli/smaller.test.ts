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

test('the README says how long the tests take, how to run one file, and what traces prune does', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  assert.match(readme, /takes about 5 minutes/);
  assert.match(readme, /^node scripts\/run-tests\.mjs tests\/\S+\.test\.ts$/m);
  assert.match(readme, /`copilot-onboard traces prune \[--repo DIR\] \[--reason TEXT\]` applies the retention policy now/);
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
