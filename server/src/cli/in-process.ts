import { Client, InMemoryTransport, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/client';
import type { ToolResult } from '../mcp/tool-call.js';
import { createServer } from '../mcp/server.js';
import type { RepoChoice } from '../mcp/repo.js';
import type { FlowOptions } from '../call/context.js';
import { VERSION } from '../version.js';
import { cliCommand } from '../call/for-person.js';
import { showLine } from '../show/untrusted.js';
import { progressLine } from '../show/progress-line.js';

/** What a tool call returns, as the CLI prints it (the MCP result: the CLI serves MCP here). */
export type { ToolResult };

/** Answers a form; `signal` aborts when the server stops waiting for the answer. */
export type ElicitHandler = (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;

/**
 * The CLI runs the same server core as `serve`, with an MCP client in the same process. The
 * client declares elicitation only when a person can answer in this terminal. The server writes
 * its own sentences for the person (tool names read as commands, see call/words.ts); nothing it
 * returns is rewritten here, so file text and diffs reach the terminal as the server showed them.
 */
export async function callInProcess(
  repo: RepoChoice,
  tool: string,
  elicit: ElicitHandler | null,
  options: FlowOptions = {},
): Promise<ToolResult> {
  // Commands in the server's sentences name the repository this call was given (see call/words.ts).
  const server = createServer(repo, {
    ...options,
    cliCommand: options.cliCommand ?? cliCommand(),
    repoArg: options.repoArg ?? repo.explicit ?? '',
  });
  // A 2025-era client: the server asks the person while the call waits, as it asks every client that speaks 2025.
  const client = new Client(
    { name: 'copilot-onboard-cli', version: VERSION },
    { capabilities: elicit ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: 'legacy' } },
  );
  // A form still open when the result comes (the server timed out) is closed before the result is shown.
  const done = new AbortController();
  const open = new Set<Promise<unknown>>();
  const line = progressLine();
  if (elicit) {
    client.setRequestHandler('elicitation/create', (req, ctx) => {
      line.pause();
      const answer = elicit(req.params, AbortSignal.any([ctx.mcpReq.signal, done.signal]));
      const settled = answer.catch(() => undefined).finally(() => (open.delete(settled), line.resume()));
      open.add(settled);
      return answer;
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    // A person at a terminal may take long; the server applies its own elicitation timeout.
    const onprogress = (p: { progress: number; total?: number; message?: string }) =>
      line.update(showLine(p.message ?? `${p.progress} of ${p.total ?? '?'}`));
    const result = (await client.callTool({ name: tool, arguments: {} }, { timeout: 24 * 3600 * 1000, onprogress })) as ToolResult;
    done.abort();
    await Promise.all(open);
    return result;
  } finally {
    await line.stop();
    await client.close();
    await server.close();
  }
}
