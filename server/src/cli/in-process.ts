import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../mcp/server.js';
import type { RepoChoice } from '../mcp/repo.js';
import type { FlowOptions } from '../steps/context.js';
import { VERSION } from '../version.js';

/** Answers a form; `signal` aborts when the server stops waiting for the answer. */
export type ElicitHandler = (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;

/**
 * The CLI runs the same server core as `serve`, with an MCP client in the same process. The
 * client declares elicitation only when a person can answer in this terminal.
 */
export async function callInProcess(repo: RepoChoice, tool: string, elicit: ElicitHandler | null, options: FlowOptions = {}): Promise<CallToolResult> {
  const server = createServer(repo, options);
  const client = new Client(
    { name: 'copilot-onboard-cli', version: VERSION },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  // A form still open when the result comes (the server timed out) is closed before the result is shown.
  const done = new AbortController();
  const open = new Set<Promise<unknown>>();
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (req, extra) => {
      const answer = elicit(req.params, AbortSignal.any([extra.signal, done.signal]));
      const settled = answer.catch(() => undefined).finally(() => open.delete(settled));
      open.add(settled);
      return answer;
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    // A person at a terminal may take long; the server applies its own elicitation timeout.
    // Progress shows once a step has taken over a second (large monorepos).
    const started = Date.now();
    let shown = false;
    const onprogress = (p: { progress: number; total?: number; message?: string }) => {
      if (Date.now() - started < 1000 || !process.stderr.isTTY) return;
      shown = true;
      process.stderr.write(`\r${p.message ?? `${p.progress}/${p.total ?? '?'}`}\x1b[K`);
    };
    const result = (await client.callTool({ name: tool, arguments: {} }, undefined, { timeout: 24 * 3600 * 1000, onprogress })) as CallToolResult;
    done.abort();
    await Promise.all(open);
    if (shown) process.stderr.write('\r\x1b[K');
    return result;
  } finally {
    await client.close();
    await server.close();
  }
}
