import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createServer } from '../../server/src/mcp/server.js';
import type { RepoChoice } from '../../server/src/steps/repo-choice.js';
import type { FlowOptions } from '../../server/src/call/context.js';
import type { ToolResult } from '../../server/src/steps/tool-call.js';
import { VERSION } from '../../server/src/version.js';

/**
 * The real MCP server in this process, called by an SDK client over an in-memory pair, with the
 * options a CLI call gives it (a person's words): what the CLI's direct calls (cli/direct.ts) are
 * held to, word for word. The CLI itself no longer goes through MCP.
 */
export async function callOverMcp(repo: RepoChoice, tool: string, options: FlowOptions): Promise<ToolResult> {
  const server = createServer(repo, { ...options, repoArg: options.repoArg ?? repo.explicit ?? '' });
  const client = new Client(
    { name: 'copilot-onboard-cli', version: VERSION },
    { capabilities: {}, versionNegotiation: { mode: 'legacy' } },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    return (await client.callTool({ name: tool, arguments: {} })) as ToolResult;
  } finally {
    await client.close();
    await server.close();
  }
}
