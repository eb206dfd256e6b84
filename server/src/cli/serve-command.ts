import { quickArgs, type OptionSpec } from './quick-args.js';
import { checkRepoDir, repoChoice } from '../mcp/repo.js';

/**
 * `copilot-onboard serve`: its options, defined once for yargs (help, errors) and for the fast path
 * that starts a server without loading yargs at all (a client waits for every millisecond of it).
 */
export const SERVE_OPTIONS = {
  repo: { type: 'string', describe: 'repository folder (default: COPILOT_ONBOARD_REPO, else the client\'s first root, else the working directory)' },
  branch: { type: 'string', describe: 'migrate on a new git branch of this name' },
  commit: { type: 'boolean', default: false, describe: 'commit the migrated files, naming the trace in the message' },
  http: { type: 'boolean', default: false, describe: 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio' },
  port: { type: 'number', default: 3333, describe: 'port for --http (0 picks a free one)' },
  host: { type: 'string', default: '127.0.0.1', describe: 'address for --http; keep it on loopback' },
  'allowed-host': { type: 'string', array: true, describe: 'extra Host header values to accept with --http' },
} as const satisfies Record<string, OptionSpec>;

export interface ServeArgs {
  repo?: string;
  branch?: string;
  commit: boolean;
  http: boolean;
  port: number;
  host: string;
  'allowed-host'?: string[];
}

/** The arguments after `serve` when they are plainly valid; null sends them to yargs (help, errors, odd forms). */
export function quickServeArgs(args: string[]): ServeArgs | null {
  const parsed = quickArgs<ServeArgs>(args, SERVE_OPTIONS);
  return parsed && Number.isInteger(parsed.port) ? parsed : null;
}

/** Serve until the client goes away (stdio) or forever (HTTP). */
export async function runServe(argv: ServeArgs): Promise<void> {
  const choice = repoChoice(argv.repo);
  if (choice.explicit) await checkRepoDir(choice.explicit, '--repo or COPILOT_ONBOARD_REPO');
  const flow = { ...(argv.branch ? { branch: argv.branch } : {}), ...(argv.commit ? { commit: true } : {}) };
  if (argv.http) {
    const { serveHttp } = await import('../mcp/http.js');
    const server = await serveHttp(choice, { host: argv.host, port: argv.port, allowedHosts: argv['allowed-host'] ?? [] }, flow);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : argv.port;
    process.stderr.write(`copilot-onboard: serving MCP on http://${argv.host}:${port}/mcp\n`);
  } else {
    const { serveStdio } = await import('../mcp/stdio.js');
    await serveStdio(choice, flow);
  }
}
