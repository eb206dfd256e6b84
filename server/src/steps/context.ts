import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** What a step needs: the repository, and the MCP session that connects it to a person and a model. */
export interface FlowContext {
  root: string;
  server: Server;
  signal?: AbortSignal;
}
