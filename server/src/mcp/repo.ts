import type { Server, ServerContext } from '@modelcontextprotocol/server';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BadInputError } from '../common/errors.js';

/**
 * Which repository a session works on: `--repo`, else COPILOT_ONBOARD_REPO, else the client's first
 * root (when it supports roots), else the working directory.
 */
export interface RepoChoice {
  /** From --repo or the environment; wins over everything else. */
  explicit: string | null;
  cwd: string;
}

export function repoChoice(flag: string | undefined, env = process.env, cwd = process.cwd()): RepoChoice {
  // An unset shell variable (`--repo "$REPO"`) must not quietly become the working directory.
  if (flag !== undefined && flag.trim() === '') {
    throw new BadInputError(
      '--repo is empty (an unset shell variable?): name the repository folder, or leave --repo out to use COPILOT_ONBOARD_REPO or the working directory.',
    );
  }
  const explicit = flag ?? (env.COPILOT_ONBOARD_REPO && env.COPILOT_ONBOARD_REPO !== '' ? env.COPILOT_ONBOARD_REPO : null);
  return { explicit: explicit ? path.resolve(cwd, explicit) : null, cwd };
}

export async function checkRepoDir(dir: string, from: string): Promise<string> {
  let st;
  try {
    // Synchronous, like safe-fs's look-ups: a stat takes microseconds, its promise form a round trip
    // through the thread pool (a CLI command checks its repository twice before it starts).
    st = fs.statSync(dir);
  } catch {
    throw new BadInputError(`The repository ${dir} (${from}) does not exist.`);
  }
  if (!st.isDirectory()) throw new BadInputError(`The repository ${dir} (${from}) is not a directory.`);
  return dir;
}

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
