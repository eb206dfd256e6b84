import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { planVscodeSetup, serveCommand } from '../../server/src/cli/setup.js';
import { CLI } from '../helpers/mcp.js';
import { sandbox, type Cleanup } from '../helpers/sandbox.js';

/** setup vscode touches only its own entry, and never replaces one that is there. */

/** Tests run from this checkout, which is not installed: the entry runs this build with node. */
const THIS_CLI = path.resolve(import.meta.dirname, '../..', 'server', 'dist', 'cli.js');

const OURS = `    "copilot-onboard": {
      "type": "stdio",
      "command": "node",
      "args": [
        ${JSON.stringify(THIS_CLI)},
        "serve"
      ],
      "cwd": "\${workspaceFolder}"
    }`;

async function planned(t: Cleanup, mcpJson: string): Promise<string> {
  const repo = sandbox(t, { '.vscode/mcp.json': mcpJson });
  return (await planVscodeSetup(repo))!.after;
}

test('a one-line entry of another server stays one line: only a comma is added after it', async (t) => {
  const before = `{
  "servers": {
    "local-db": { "type": "stdio", "command": "db-mcp" },
    "github": { "type": "http", "url": "https://api.example.invalid/mcp" }
  }
}
`;
  assert.equal(
    await planned(t, before),
    `{
  "servers": {
    "local-db": { "type": "stdio", "command": "db-mcp" },
    "github": { "type": "http", "url": "https://api.example.invalid/mcp" },
${OURS}
  }
}
`,
  );
});

test('a comment after the last entry stays with it, and a trailing comma is not doubled', async (t) => {
  const before = `{
  "servers": {
    "github": { "type": "http", "url": "https://api.example.invalid/mcp" }, // work account
  }
}
`;
  const after = await planned(t, before);
  assert.ok(after.includes('    "github": { "type": "http", "url": "https://api.example.invalid/mcp" }, // work account\n'), after);
  assert.deepEqual(Object.keys(parse(after).servers), ['github', 'copilot-onboard']);
});

test('tabs, CRLF, no servers yet, and no file are handled', async (t) => {
  const tabs = await planned(t, '{\n\t"servers": {\n\t\t"a": {"command": "x"}\n\t}\n}\n');
  assert.ok(tabs.startsWith('{\n\t"servers": {\n\t\t"a": {"command": "x"},\n\t\t"copilot-onboard": {'), tabs);
  const crlf = await planned(t, '{\r\n  "servers": {\r\n    "a": { "command": "x" }\r\n  }\r\n}\r\n');
  assert.ok(crlf.startsWith('{\r\n  "servers": {\r\n    "a": { "command": "x" },\r\n    "copilot-onboard": {\r\n'), JSON.stringify(crlf));
  assert.doesNotMatch(crlf, /[^\r]\n/, 'every line ends in CRLF');
  const inputsOnly = await planned(t, '{\n  "inputs": [ { "id": "token", "type": "promptString" } ]\n}\n');
  assert.ok(inputsOnly.startsWith('{\n  "inputs": [ { "id": "token", "type": "promptString" } ],\n  "servers": {\n'), inputsOnly);
  assert.deepEqual(parse(inputsOnly).servers['copilot-onboard'].args, [THIS_CLI, 'serve']);
  const repo = sandbox(t);
  assert.deepEqual(parse((await planVscodeSetup(repo))!.after).servers['copilot-onboard'].command, 'node');
});

test('the serve command: npx --no-install where the package is installed, node and the build from a checkout, never a bare npx name', () => {
  assert.deepEqual(serveCommand('/home/me/app/node_modules/copilot-onboard/server/dist/cli.js'), {
    command: 'npx',
    args: ['--no-install', 'copilot-onboard', 'serve'],
  });
  assert.deepEqual(serveCommand('/usr/lib/node_modules/copilot-onboard/server/dist/cli.js'), {
    command: 'npx',
    args: ['--no-install', 'copilot-onboard', 'serve'],
  });
  assert.deepEqual(serveCommand('C:\\Users\\me\\app\\node_modules\\copilot-onboard\\server\\dist\\cli.js').args[0], '--no-install');
  assert.deepEqual(serveCommand('/src/copilot-onboard/server/dist/cli.js'), {
    command: 'node',
    args: ['/src/copilot-onboard/server/dist/cli.js', 'serve'],
  });
  assert.deepEqual(serveCommand('/src/my_node_modules_notes/copilot-onboard/server/dist/cli.js').command, 'node');
  assert.equal(serveCommand(null).command, 'node');
});

test('an existing copilot-onboard entry of its own is left as it is, and the command says so', async (t) => {
  const custom = `{
  "servers": {
    "copilot-onboard": { "type": "stdio", "command": "node", "args": ["/home/me/copilot-onboard/server/dist/cli.js", "serve"] }
  }
}
`;
  const repo = sandbox(t, { '.vscode/mcp.json': custom });
  assert.equal(await planVscodeSetup(repo), null);
  const r = spawnSync(process.execPath, [CLI, 'setup', 'vscode', '--repo', repo], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /already registers copilot-onboard/);
  assert.equal(fs.readFileSync(path.join(repo, '.vscode/mcp.json'), 'utf8'), custom);
});

test('setup print says how to install the package, which is not on the npm registry, and names this build', () => {
  const text = spawnSync(process.execPath, [CLI, 'setup', 'print'], { encoding: 'utf8' }).stdout;
  assert.match(text, /not on the npm registry/);
  assert.match(text, /npm install -g/);
  assert.ok(text.includes(`"command": "node", "args": [${JSON.stringify(CLI)}, "serve"]`), text.slice(0, 600));
});
