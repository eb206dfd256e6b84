import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/server';
import { createServer } from './server.js';
import type { RepoChoice } from '../steps/repo-choice.js';
import type { FlowOptions } from '../call/context.js';

/**
 * Serve MCP on stdio, to clients of both protocol eras: the SDK pins one server from the factory
 * to the connection by its opening (a 2026-07-28 `server/discover`, or a 2025 `initialize`, which
 * may follow a probe). stdout is the protocol: everything else goes to stderr.
 */
export async function serveStdio(repo: RepoChoice, options: FlowOptions = {}): Promise<void> {
  await new Promise<void>((resolve) => {
    const handle = serveBothEras(() => createServer(repo, options), {
      legacy: 'serve',
      // The SDK's read buffer throws when unread input passes its limit, then closes the transport
      // without a word: say which limit it was, so the person is not left with a server that vanished.
      onerror: (err) => {
        if (/ReadBuffer exceeded maximum size/.test(err.message)) {
          const mib = STDIO_DEFAULT_MAX_BUFFER_SIZE / (1024 * 1024);
          process.stderr.write(
            `copilot-onboard: a message on stdin was larger than the MCP SDK's stdio limit of ${mib} MiB (${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes); the server stops.\n`,
          );
          process.exitCode = 1;
          void handle.close().finally(resolve);
        }
      },
    });
    process.stderr.write(`copilot-onboard: serving MCP on stdio (repository: ${repo.explicit ?? 'client root or working directory'})\n`);
    process.stdin.on('end', () => resolve());
    process.stdin.on('close', () => resolve());
  });
}
