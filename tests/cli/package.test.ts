import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tempDir } from '../helpers/sandbox.js';

const root = path.resolve(import.meta.dirname, '../..');

test('the packed tarball installs in an empty folder, and its CLI and server work', { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t, 'co-pack-');
  // --ignore-scripts: the build already ran (npm test builds first); prepack would only repeat it.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const files: string[] = packed[0].files.map((f: { path: string }) => f.path);
  assert.ok(files.includes('server/dist/cli.js'));
  // The read-only commands' CommonJS file and its code cache (scripts/bundle.mjs) ship beside the ES modules.
  for (const f of ['chunks/read-only-cli.js', 'chunks/read-only-cli.cjs', 'chunks/read-only-cli.cache', 'chunks/read-only-schemas.cjs'])
    assert.ok(files.includes(`server/dist/${f}`), `${f} is not packed`);
  assert.ok(!files.some((f) => f.startsWith('server/src/') || f.startsWith('tests/') || f.startsWith('.copilot-state/')), files.join('\n'));
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{"name":"empty-app","version":"1.0.0","private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(dir, packed[0].filename)], {
    cwd: app,
    stdio: 'ignore',
  });

  const help = spawnSync('npx', ['copilot-onboard', '--help'], { cwd: app, encoding: 'utf8' });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /serve/);

  // Installed as a package: setup vscode writes npx --no-install, which never fetches from the registry.
  const setup = spawnSync(path.join(app, 'node_modules/.bin/copilot-onboard'), ['setup', 'vscode', '--repo', app], {
    cwd: app,
    encoding: 'utf8',
    input: '',
  });
  assert.equal(setup.status, 3, setup.stderr);
  assert.match(
    setup.stdout,
    /"command": "npx",\s*\n\+?\s*"args": \[\s*\n\+?\s*"--no-install",\s*\n\+?\s*"copilot-onboard",\s*\n\+?\s*"serve"/,
  );

  const analyzed = spawnSync(path.join(app, 'node_modules/.bin/copilot-onboard'), ['analyze', '--json', '--repo', app], {
    cwd: app,
    encoding: 'utf8',
  });
  assert.equal(analyzed.status, 0, analyzed.stderr);
  assert.match(analyzed.stdout, /"outcome": "analyzed"/);

  const client = new Client({ name: 'pack-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: path.join(app, 'node_modules/.bin/copilot-onboard'),
      args: ['serve', '--repo', app],
      stderr: 'ignore',
    }),
  );
  t.after(() => client.close());
  assert.equal(client.getServerVersion()?.name, 'copilot-onboard');
  const { tools } = await client.listTools();
  assert.equal(tools.length, 7);
});
