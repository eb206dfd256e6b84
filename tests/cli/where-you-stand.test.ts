import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Every command the README and the tool's hints print works from the person's own repository after
 * the README's install steps: `node /path/to/server/dist/cli.js` from a checkout, or an installed
 * `copilot-onboard`; never a bare `npx copilot-onboard`, which npm would fetch from the registry.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const BARE_NPX = /npx(?!\s+--no-install)\s+copilot-onboard/;
const FILES = { 'AGENTS.md': '# Agents\n\n- Use pnpm for all package management.\n' };

/** The shell blocks of a Markdown file, one command line each. */
function shellLines(markdown: string): string[] {
  return [...markdown.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n').filter((l) => l.trim() !== ''));
}

test('README and docs: no shell block runs a bare npx copilot-onboard; every snippet that names npx writes --no-install', () => {
  const files = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));
  for (const f of files) {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    for (const line of shellLines(text)) assert.doesNotMatch(line, BARE_NPX, `${f}: ${line}`);
    for (const m of text.matchAll(/"command": "npx",\s*"args": \[([^\]]*)\]/g)) assert.match(m[1]!, /^"--no-install"/, `${f}: ${m[0]}`);
  }
});

test("the README's command for your own repository runs there, and so does the Next: hint it prints", (t) => {
  const repo = sandbox(t, FILES);
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const own = shellLines(readme).find((l) => l.includes('/path/to/copilot-onboard/server/dist/cli.js analyze'));
  assert.ok(own, 'the README shows the command for your own repository');
  const line = own.replaceAll('/path/to/copilot-onboard', ROOT);
  const r = spawnSync('sh', ['-c', line], { cwd: repo, encoding: 'utf8', input: '' });
  assert.equal(r.status, 0, r.stderr);
  const next = /^Next: (.*) asks the person to approve this exact plan\.$/m.exec(r.stdout)?.[1];
  assert.ok(next, r.stdout.slice(-500));
  assert.doesNotMatch(next, BARE_NPX);
  // The hint, pasted in the person's repository, runs (approve without a terminal: exit 3, asked nothing).
  const hint = spawnSync('sh', ['-c', next], { cwd: repo, encoding: 'utf8', input: '' });
  assert.equal(hint.status, 3, hint.stderr);
  assert.match(hint.stdout + hint.stderr, /Run it in a terminal: node \S+cli\.js approve/);
});

test('run by npx in the checkout, the hints name this build by its path, which works from any folder', (t) => {
  const repo = sandbox(t, FILES);
  const npx = spawnSync('npx', ['--no-install', 'copilot-onboard', 'status', '--repo', repo], { cwd: ROOT, encoding: 'utf8', input: '' });
  assert.equal(npx.status, 0, npx.stderr);
  const next = /^Next: Run (.*) to see the instruction files/m.exec(npx.stdout)?.[1];
  assert.ok(next, npx.stdout);
  assert.equal(next, `node ${CLI} analyze --repo ${repo}`);
  const again = spawnSync('sh', ['-c', next], { cwd: repo, encoding: 'utf8', input: '' });
  assert.equal(again.status, 0, again.stderr);
});

test("setup vscode from a checkout says it would write this machine's path, and offers the portable entry", (t) => {
  const repo = sandbox(t);
  const r = spawnSync(process.execPath, [CLI, 'setup', 'vscode', '--repo', repo], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 3);
  assert.ok(r.stdout.includes(`This entry runs node with this machine's path to the build (${CLI}).`), r.stdout);
  assert.match(r.stdout, /\.vscode\/mcp\.json is usually committed,\nand that path works on no other machine/);
  assert.match(r.stdout, /"command": "npx",\n\s+"args": \[\n\s+"--no-install",\n\s+"copilot-onboard",\n\s+"serve"\n\s+\]/);
  assert.equal(fs.existsSync(path.join(repo, '.vscode')), false, 'nothing was written');
});

test('setup print: every command it shows runs from a checkout too', () => {
  const r = spawnSync(process.execPath, [CLI, 'setup', 'print'], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 0);
  assert.ok(r.stdout.includes(`or run: node ${CLI} setup vscode`), r.stdout);
  assert.ok(r.stdout.includes(`start \`node ${CLI} serve --http\` yourself`));
});
