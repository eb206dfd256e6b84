import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { CLI } from '../helpers/mcp.js';
import { skipWithoutTmux, startTmux } from '../helpers/tmux.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';

const EXISTING = `{
  // our other servers
  "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],
  "servers": {
    "github": { "type": "http", "url": "https://api.example.invalid/mcp" },
    "local-db": { "type": "stdio", "command": "db-mcp", "env": { "TOKEN": "\${input:token}" } }
  }
}
`;
const skip = skipWithoutTmux;
const run = (args: string[], cwd?: string) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', cwd });

test('setup print shows the snippet for VS Code, Claude Code, Cursor and the Copilot CLI', () => {
  const r = run(['setup', 'print']);
  assert.equal(r.status, 0);
  for (const client of ['VS Code', 'Claude Code', 'Cursor', 'Copilot CLI']) assert.match(r.stdout, new RegExp(client));
  assert.match(r.stdout, /"copilot-onboard serve"|"serve"/);
});

const CLI_FILE = path.resolve(import.meta.dirname, '../..', 'server', 'dist', 'cli.js');

test('setup vscode from a checkout that is not installed writes node and this build, not npx copilot-onboard', (t) => {
  const repo = sandbox(t);
  const r = run(['setup', 'vscode', '--repo', repo]);
  assert.equal(r.status, 3);
  assert.match(r.stdout, /"command": "node"/);
  assert.ok(r.stdout.includes(JSON.stringify(CLI_FILE)), r.stdout);
  const added = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('+'))
    .join('\n');
  assert.doesNotMatch(added, /"command": "npx"/, 'the entry it would write');
});

test('setup print never shows a bare npx copilot-onboard that npm may fetch', () => {
  const r = run(['setup', 'print']);
  assert.equal(r.status, 0);
  for (const line of r.stdout.split('\n')) {
    if (/npx(?!\s+--no-install)\s+copilot-onboard/.test(line)) assert.match(line, /would fetch whatever/, line);
  }
  assert.doesNotMatch(r.stdout, /"args": \[\s*"copilot-onboard"/);
  assert.ok(r.stdout.includes(JSON.stringify(CLI_FILE)), 'the node form of this checkout');
});

test('setup vscode without a terminal shows the change, writes nothing and exits 3', (t) => {
  const repo = sandbox(t, { '.vscode/mcp.json': EXISTING });
  const r = run(['setup', 'vscode', '--repo', repo]);
  assert.equal(r.status, 3);
  assert.match(r.stdout, /\+\s+"copilot-onboard": \{/);
  assert.equal(fs.readFileSync(path.join(repo, '.vscode/mcp.json'), 'utf8'), EXISTING);
});

test('setup vscode merges into an existing mcp.json after a yes, losing no entry or comment', { skip }, async (t) => {
  const repo = sandbox(t, { '.vscode/mcp.json': EXISTING });
  const tm = startTmux(t, 'co-setup', `${JSON.stringify(process.execPath)} ${CLI} setup vscode --repo ${repo}`, repo);
  await tm.answer(/Write .*mcp\.json\?/, 'y', 'Enter');
  assert.equal(await tm.exitCode(), 0);
  const text = fs.readFileSync(path.join(repo, '.vscode/mcp.json'), 'utf8');
  assert.match(text, /\/\/ our other servers/);
  const json = parse(text);
  assert.deepEqual(Object.keys(json.servers).sort(), ['copilot-onboard', 'github', 'local-db']);
  assert.deepEqual(json.servers['local-db'], { type: 'stdio', command: 'db-mcp', env: { TOKEN: '${input:token}' } });
  assert.equal(json.inputs[0].id, 'token');
  // From this checkout (not installed): node and this build, never a name npx may fetch.
  assert.deepEqual(json.servers['copilot-onboard'], {
    type: 'stdio',
    command: 'node',
    args: [CLI_FILE, 'serve'],
    cwd: '${workspaceFolder}',
  });
  const again = run(['setup', 'vscode', '--repo', repo]);
  assert.equal(again.status, 0);
  assert.match(again.stdout, /nothing to do/);
});

test('setup vscode creates the file when there is none, and refuses a broken one', { skip }, async (t) => {
  const repo = sandbox(t);
  const tm = startTmux(t, 'co-setup-new', `${JSON.stringify(process.execPath)} ${CLI} setup vscode --repo ${repo}`, repo);
  await tm.answer(/Write .*mcp\.json\?/, 'y', 'Enter');
  assert.equal(await tm.exitCode(), 0);
  assert.equal(parse(fs.readFileSync(path.join(repo, '.vscode/mcp.json'), 'utf8')).servers['copilot-onboard'].type, 'stdio');
  writeFile(repo, '.vscode/mcp.json', '{ "servers": { oops');
  const r = run(['setup', 'vscode', '--repo', repo]);
  assert.equal(r.status, 2, 'bad input');
  assert.match(r.stderr, /not valid JSON/);
  assert.equal(fs.readFileSync(path.join(repo, '.vscode/mcp.json'), 'utf8'), '{ "servers": { oops');
});
