import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { createServer } from './server.js';
import type { RepoChoice } from './repo.js';
import type { FlowOptions } from '../call/context.js';

/** Serve MCP on stdio. stdout is the protocol: everything else goes to stderr. */
export async function serveStdio(repo: RepoChoice, options: FlowOptions = {}): Promise<void> {
  const server = createServer(repo, options);
  const transport = new StdioServerTransport();
  // The SDK's read buffer throws when unread input passes its limit, then closes the transport
  // without a word: say which limit it was, so the person is not left with a server that vanished.
  server.onerror = (err) => {
    if (/ReadBuffer exceeded maximum size/.test(err.message)) {
      const mib = STDIO_DEFAULT_MAX_BUFFER_SIZE / (1024 * 1024);
      process.stderr.write(
        `copilot-onboard: a message on stdin was larger than the MCP SDK's stdio limit of ${mib} MiB (${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes); the server stops.\n`,
      );
      process.exitCode = 1;
    }
  };
  await server.connect(transport);
  process.stderr.write(`copilot-onboard: serving MCP on stdio (repository: ${repo.explicit ?? 'client root or working directory'})\n`);
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
}
