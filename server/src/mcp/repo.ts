import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { fileURLToPath } from 'node:url';
import { BadInputError } from '../common/errors.js';
import { checkRepoDir, type RepoChoice } from '../steps/repo-choice.js';

export { repoChoice, type RepoChoice } from '../steps/repo-choice.js';

/**
 * `ctx`: the client's request this belongs to, so that roots/list travels on its response stream.
 * A 2026-07-28 request is not asked for roots (`askRoots` false): that revision has no requests
 * from the server, and roots are deprecated in it.
 */
export async function resolveRepoForSession(choice: RepoChoice, server: Server, ctx: ServerContext, askRoots = true): Promise<string> {
  if (choice.explicit) return checkRepoDir(choice.explicit, '--repo or COPILOT_ONBOARD_REPO');
  if (askRoots && server.getClientCapabilities()?.roots) {
    const { roots } = await ctx.mcpReq.send({ method: 'roots/list' }, { timeout: 10_000 });
    const first = roots[0];
    if (first) {
      if (!first.uri.startsWith('file://')) throw new BadInputError(`The client's first root is not a local folder: ${first.uri}`);
      return checkRepoDir(fileURLToPath(first.uri), "the client's first root");
    }
  }
  return checkRepoDir(choice.cwd, 'the working directory');
}
