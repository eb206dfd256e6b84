import { quickArgs, type OptionSpec } from './quick-args.js';
import { BadInputError } from '../common/errors.js';
import { checkRepoDir, repoChoice } from '../mcp/repo.js';

/**
 * `copilot-onboard serve`: its options, defined once for yargs (help, errors) and for the fast path
 * that starts a server without loading yargs at all (a client waits for every millisecond of it).
 */
export const SERVE_OPTIONS = {
  repo: {
    type: 'string',
    describe: "repository folder (default: COPILOT_ONBOARD_REPO, else the client's first root, else the working directory)",
  },
  branch: { type: 'string', describe: 'migrate on a new git branch of this name' },
  commit: { type: 'boolean', default: false, describe: 'commit the migrated files, naming the trace in the message' },
  http: { type: 'boolean', default: false, describe: 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio' },
  // A string, checked in runServe: yargs would read "" as 0 and "abc" as NaN.
  port: { type: 'string', default: '3333', describe: 'port for --http, 0 to 65535 (0 picks a free one)' },
  host: { type: 'string', default: '127.0.0.1', describe: 'loopback address for --http: 127.0.0.0/8, localhost or ::1' },
  'allowed-host': { type: 'string', array: true, describe: 'extra Host header values to accept with --http' },
} as const satisfies Record<string, OptionSpec>;

export interface ServeArgs {
  repo?: string;
  branch?: string;
  commit: boolean;
  http: boolean;
  port: string;
  host: string;
  'allowed-host'?: string[];
}

/** The arguments after `serve` when they are plainly valid; null sends them to yargs (help, errors, odd forms). */
export function quickServeArgs(args: string[]): ServeArgs | null {
  return quickArgs<ServeArgs>(args, SERVE_OPTIONS);
}

/** A port as typed: a whole number from 0 to 65535. */
export function parsePort(raw: string): number {
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 0 && n <= 65535))
    throw new BadInputError(`--port must be a whole number from 0 to 65535 (0 picks a free port); got ${JSON.stringify(raw)}.`);
  return n;
}

/** Serve until the client goes away (stdio) or forever (HTTP). */
export async function runServe(argv: ServeArgs): Promise<void> {
  const choice = repoChoice(argv.repo);
  if (choice.explicit) await checkRepoDir(choice.explicit, '--repo or COPILOT_ONBOARD_REPO');
  const flow = { ...(argv.branch ? { branch: argv.branch } : {}), ...(argv.commit ? { commit: true } : {}) };
  if (argv.http) {
    const port = parsePort(String(argv.port));
    const http = await import('../mcp/http.js');
    const host = http.loopbackHost(argv.host);
    if (!host) throw new BadInputError(http.notLoopback(argv.host));
    const { token, fromEnv } = http.httpToken();
    const options = { host: argv.host, port, token, idleMs: http.idleMs(), allowedHosts: argv['allowed-host'] ?? [] };
    const server = await http.serveHttp(choice, options, flow);
    const address = server.address();
    const url = `http://${host.url}:${typeof address === 'object' && address ? address.port : port}/mcp`;
    // The token is printed here, once; nothing else the server says holds it.
    const lines = [`serving MCP on ${url}`];
    if (fromEnv) {
      lines.push(
        `token from COPILOT_ONBOARD_HTTP_TOKEN: send "Authorization: Bearer <token>" with every request; a client that sends no headers can use ${url}?token=<token>`,
      );
    } else {
      lines.push(`token for this run (set COPILOT_ONBOARD_HTTP_TOKEN to choose your own): ${token}`);
      lines.push(`send "Authorization: Bearer <token>" with every request; a client that sends no headers can use ${url}?token=${token}`);
    }
    process.stderr.write(lines.map((l) => `copilot-onboard: ${l}\n`).join(''));
  } else {
    const { serveStdio } = await import('../mcp/stdio.js');
    await serveStdio(choice, flow);
  }
}
