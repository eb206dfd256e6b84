// Records the state an earlier build leaves after a migration, as test fixtures (tests/fixtures/earlier-0.1.0/).
// Usage: node scripts/earlier-version-fixture.mjs /work/baseline-0abd236/server/dist/cli.js tests/fixtures/earlier-0.1.0
// It builds a sandbox repository, runs propose, approve and migrate of that build over MCP (a client that answers yes),
// and copies the repository's files (the .git folder aside) to the fixture folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [cli, out] = process.argv.slice(2);
const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'co-earlier-'));
execFileSync('git', ['init', '-q', repo]);
const files = {
  '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
  'CLAUDE.md': '# Project\n\n- Write a test for every bug fix.\n- Keep functions small.\n',
};
for (const [rel, text] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
  fs.writeFileSync(path.join(repo, rel), text);
}
const client = new Client({ name: 'fixture-maker', version: '1.0.0' }, { capabilities: { elicitation: {} } });
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  const props = Object.keys(req.params.requestedSchema?.properties ?? {});
  if (props.includes('approved')) return { action: 'accept', content: { approved: true } };
  if (props.includes('understood_risks')) return { action: 'accept', content: { confirmed: true, understood_risks: true } };
  return { action: 'accept', content: {} };
});
await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'serve', '--repo', repo] }));
for (const tool of ['onboarding_propose', 'onboarding_approve', 'onboarding_migrate']) {
  const r = await client.callTool({ name: tool, arguments: {} });
  console.log(tool, r.structuredContent?.outcome);
}
await client.close();
fs.rmSync(out, { recursive: true, force: true });
fs.cpSync(repo, out, { recursive: true, filter: (src) => path.basename(src) !== '.git' });
fs.writeFileSync(path.join(out, 'ORIGINALS.json'), `${JSON.stringify(files, null, 2)}\n`);
fs.rmSync(repo, { recursive: true, force: true });
