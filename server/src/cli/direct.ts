import type { FlowOptions } from '../call/context.js';
import { NO_SESSION, type Session } from '../call/ports.js';
import { cliCommand } from '../call/for-person.js';
import { checkRepoDir, type RepoChoice } from '../mcp/repo.js';
import { callStep, type ToolResult } from '../mcp/tool-call.js';
import { READ_ONLY_STEPS, type ReadOnlyTool } from '../mcp/read-only-steps.js';
import { showLine } from '../show/untrusted.js';
import { VERSION } from '../version.js';
import { progressLine } from '../show/progress-line.js';
import type { EarlyListing } from '../analysis/discovery/git-listing.js';

export type { ReadOnlyTool } from '../mcp/read-only-steps.js';

/**
 * The session of a CLI command that asks no one: no form, no sampling (the narration is the
 * built-in report, as for a client without sampling), and the client named as the in-process
 * client names itself (cli/in-process.ts), for the traces.
 */
const CLI_SESSION: Session = { ...NO_SESSION, client: { info: () => ({ name: 'copilot-onboard-cli', version: VERSION }) } };

/**
 * A read-only command without an MCP client: the same call as the server's (mcp/tool-call.ts),
 * with the same checks, words and bounds, so the text and `--json` are those of `serve`'s tool
 * result; but the process never loads the MCP SDK, which was most of its start and memory.
 */
export async function callDirect(
  repo: RepoChoice,
  tool: ReadOnlyTool,
  options: FlowOptions = {},
  early?: EarlyListing,
): Promise<ToolResult> {
  const line = progressLine();
  try {
    return await callStep({
      name: tool,
      run: READ_ONLY_STEPS[tool],
      // The in-process client declares no roots: --repo (or the environment), else the working directory.
      root: () =>
        repo.explicit ? checkRepoDir(repo.explicit, '--repo or COPILOT_ONBOARD_REPO') : checkRepoDir(repo.cwd, 'the working directory'),
      session: CLI_SESSION,
      ...(early ? { early } : {}),
      // Commands in the sentences name the repository this call was given (see call/words.ts).
      options: { ...options, cliCommand: options.cliCommand ?? cliCommand(), repoArg: options.repoArg ?? repo.explicit ?? '' },
      report: {
        progress: (_done, _total, message) => line.update(showLine(message)),
        log: () => {},
        flush: async () => {},
      },
    });
  } finally {
    await line.stop();
  }
}
