import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './server.js';
import type { RepoChoice } from './repo.js';
import type { FlowOptions } from '../steps/context.js';

/** Serve MCP on stdio. stdout is the protocol: everything else goes to stderr. */
export async function serveStdio(repo: RepoChoice, options: FlowOptions = {}): Promise<void> {
  const server = createServer(repo, options);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  process.stderr.write(`copilot-onboard: serving MCP on stdio (repository: ${repo.explicit ?? 'client root or working directory'})\n`);
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
}
