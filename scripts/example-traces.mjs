// Regenerates .copilot-state/examples/: the traces of one real run of the whole flow, made by the
// real server over stdio, driven by the MCP SDK's Client (run after `npm run build`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const project = path.resolve(new URL('..', import.meta.url).pathname);
const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'co-example-'));
execFileSync('git', ['init', '-q', repo]);
fs.mkdirSync(path.join(repo, '.github'));
fs.writeFileSync(
  path.join(repo, '.github/copilot-instructions.md'),
  '# Team guidelines\n\n- Use pnpm for every install.\n- Write tests with vitest.\n- Indent with 2 spaces.\n- Use npm to add new packages.\n- Indent with 2 spaces.\n- Document exported functions.\n',
);
fs.writeFileSync(path.join(repo, 'AGENTS.md'), '# Agents\n\n- Never commit secrets or tokens.\n- Use pnpm for every install.\n');

let declineNext = true;
const client = new Client({ name: 'example-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  model: 'example-model',
  role: 'assistant',
  content: { type: 'text', text: 'The instructions repeat one rule and disagree about the package manager; the plan groups them into sections and keeps both package-manager rules, marked.' },
  stopReason: 'endTurn',
}));
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  const props = Object.keys(req.params.requestedSchema?.properties ?? {});
  if (props.includes('approved')) {
    if (declineNext) {
      declineNext = false;
      return { action: 'decline' };
    }
    return { action: 'accept', content: { approved: true, comment: 'Looks right.' } };
  }
  if (props.includes('understood_risks')) return { action: 'accept', content: { confirmed: true, understood_risks: true } };
  return { action: 'accept', content: { confirmed: true, reason: 'Example run: restoring the original files.' } };
});
await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(project, 'server/dist/cli.js'), 'serve', '--repo', repo], stderr: 'ignore' }));
for (const tool of ['onboarding_analyze', 'onboarding_propose', 'onboarding_approve', 'onboarding_approve', 'onboarding_migrate', 'onboarding_rollback']) {
  const r = await client.callTool({ name: tool, arguments: {} });
  console.log(`${tool}: ${r.structuredContent?.outcome}`);
}
await client.close();

const out = path.join(project, '.copilot-state/examples');
for (const kind of ['elicitation-traces', 'sampling-traces']) {
  fs.rmSync(path.join(out, kind), { recursive: true, force: true });
  fs.cpSync(path.join(repo, '.copilot-state', kind), path.join(out, kind), { recursive: true });
}
fs.copyFileSync(path.join(repo, '.copilot-state/trace-chain.json'), path.join(out, 'trace-chain.json'));
fs.rmSync(repo, { recursive: true, force: true });
console.log('Wrote .copilot-state/examples/');
