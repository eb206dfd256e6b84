import { BadInputError } from '../common/errors.js';
import { checkRepoDir, repoChoice } from '../steps/repo-choice.js';

export interface ServeArgs {
  repo?: string;
  branch?: string;
  commit: boolean;
  http: boolean;
  port: string;
  host: string;
  'allowed-host'?: string[];
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
