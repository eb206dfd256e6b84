import type { FlowContext, FlowOptions } from '../call/context.js';
import { NO_SESSION, type Person, type Session } from '../call/ports.js';
import { cliCommand } from '../call/for-person.js';
import type { CheckedRepo } from '../steps/repo-choice.js';
import { callStep, type EarlyListing, type ToolResult } from '../steps/tool-call.js';
import type { StepResult } from '../steps/result.js';
import { READ_ONLY_STEPS, type ReadOnlyTool } from '../steps/read-only-steps.js';
import type { ToolName } from '../steps/tool-steps.js';
import { VERSION } from '../version.js';
import { progressLine, type ProgressLine } from '../show/progress-line.js';

export type { ReadOnlyTool } from '../steps/read-only-steps.js';

/**
 * The session of a CLI command: the person at this terminal when there is one (cli/terminal-person.ts),
 * else no one; never a model (the narration is the built-in report, as for a client without
 * sampling); the client named `copilot-onboard-cli` in the traces. No protocol: nothing goes over MCP.
 */
export function cliSession(person: Person | null): Session {
  return { ...NO_SESSION, ...(person ? { person } : {}), client: { info: () => ({ name: 'copilot-onboard-cli', version: VERSION }) } };
}

/** A step the CLI runs: the same call as the server's (steps/tool-call.ts), with the same checks, words and bounds. */
export interface CliCall {
  repo: CheckedRepo;
  name: ToolName;
  run: (ctx: FlowContext) => Promise<StepResult>;
  /** The person who answers forms in this terminal; null: none (the gated steps are refused, exit 3). */
  person: Person | null;
  options?: FlowOptions;
  early?: EarlyListing;
}

/**
 * Every CLI command that runs a step calls it here, without MCP: the text and `--json` are those of
 * `serve`'s tool result, and the process never loads the MCP SDK. The progress line shows the
 * step's progress, and pauses while a form is open (the person port pauses it).
 */
export async function callFromCli(call: CliCall): Promise<ToolResult> {
  const line = progressLine();
  const { repo, options = {} } = call;
  try {
    return await callStep({
      name: call.name,
      run: call.run,
      // Checked once, by the command (cli/command-io.ts): no roots, --repo (or the environment), else the working directory.
      root: async () => repo.root,
      session: cliSession(call.person ? pausingLine(call.person, line) : null),
      ...(call.early ? { early: call.early } : {}),
      // Commands in the sentences name the repository this call was given (see call/words.ts).
      options: { ...options, cliCommand: options.cliCommand ?? cliCommand(), repoArg: options.repoArg ?? repo.explicit ?? '' },
      report: {
        progress: (_done, _total, message) => line.update(message),
        log: () => {},
        flush: async () => {},
      },
    });
  } finally {
    await line.stop();
  }
}

/** The person, with the progress line paused while a form is open. */
function pausingLine(person: Person, line: ProgressLine): Person {
  return {
    canAnswerForms: () => person.canAnswerForms(),
    async askForm(message, schema, options) {
      line.pause();
      try {
        return await person.askForm(message, schema, options);
      } finally {
        line.resume();
      }
    },
  };
}

/** A read-only command: no one is asked anything. */
export async function callDirect(
  repo: CheckedRepo,
  tool: ReadOnlyTool,
  options: FlowOptions = {},
  early?: EarlyListing,
): Promise<ToolResult> {
  return callFromCli({ repo, name: tool, run: READ_ONLY_STEPS[tool], person: null, options, ...(early ? { early } : {}) });
}
