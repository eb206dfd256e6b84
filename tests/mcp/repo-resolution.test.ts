import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, readTraces, sandbox, STRUCTURED_INSTRUCTIONS } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';

async function analyzeWithRoots(roots: string[], opts: { cwd: string; args?: string[]; env?: Record<string, string> }) {
  const client = new Client({ name: 'roots-client', version: '0.0.1' }, { capabilities: { roots: {} } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((uri) => ({ uri })) }));
  const env = { ...(process.env as Record<string, string>), ...(opts.env ?? {}) };
  if (!opts.env?.COPILOT_ONBOARD_REPO) delete env.COPILOT_ONBOARD_REPO;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...(opts.args ?? [])],
    cwd: opts.cwd,
    env,
    stderr: 'pipe',
  });
  await client.connect(transport);
  try {
    return (await client.callTool({ name: 'onboarding_analyze', arguments: {} })) as CallToolResult;
  } finally {
    await client.close();
  }
}

test("the client's first root is the repository when neither --repo nor the env names one", async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const other = sandbox(t, { [FILE]: STRUCTURED_INSTRUCTIONS });
  const cwd = sandbox(t);
  const r = await analyzeWithRoots([pathToFileURL(repo).href, pathToFileURL(other).href], { cwd });
  assert.equal((r.structuredContent as { pattern: string }).pattern, 'messy');
  assert.equal(readTraces(repo, 'sampling').length, 1);
  assert.equal(readTraces(cwd, 'sampling').length, 0);
});

test('--repo wins over the env, and the env wins over the client roots', async (t) => {
  const flagged = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const envRepo = sandbox(t, { [FILE]: STRUCTURED_INSTRUCTIONS });
  const rootRepo = sandbox(t);
  const viaFlag = await analyzeWithRoots([pathToFileURL(rootRepo).href], {
    cwd: rootRepo,
    args: ['--repo', flagged],
    env: { COPILOT_ONBOARD_REPO: envRepo },
  });
  assert.equal((viaFlag.structuredContent as { pattern: string }).pattern, 'messy');
  const viaEnv = await analyzeWithRoots([pathToFileURL(rootRepo).href], { cwd: rootRepo, env: { COPILOT_ONBOARD_REPO: envRepo } });
  assert.equal((viaEnv.structuredContent as { pattern: string }).pattern, 'structured');
});

test('a root that does not exist is a clear error', async (t) => {
  const cwd = sandbox(t);
  const r = await analyzeWithRoots(['file:///nonexistent/co-root'], { cwd });
  assert.equal(r.isError, true);
  assert.equal((r.structuredContent as { outcome: string }).outcome, 'error');
  assert.match((r.content[0] as { text: string }).text, /nonexistent\/co-root .*does not exist/);
});
