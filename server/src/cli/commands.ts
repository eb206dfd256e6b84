import { joinDashValues, quickArgs, type OptionSpec } from './quick-args.js';
import type { ReadOnlyTool } from './direct.js';
import type { TracesAction } from './traces.js';

/**
 * The command line's options, defined once: for yargs (help, errors, odd forms; cli/main.ts) and
 * for the quick reading of plain arguments, which starts the read-only commands from cli.ts without
 * loading the rest of the CLI, and `serve` without loading yargs (a client waits for every
 * millisecond of it).
 */

export const COMMON_OPTIONS = {
  repo: { type: 'string', describe: 'repository folder (default: COPILOT_ONBOARD_REPO, else the working directory)' },
  json: { type: 'boolean', default: false, describe: 'print JSON instead of text' },
} as const satisfies Record<string, OptionSpec>;

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

export const READ_ONLY_TOOLS: Record<string, ReadOnlyTool> = {
  analyze: 'onboarding_analyze',
  propose: 'onboarding_propose',
  status: 'onboarding_status',
};

export const TRACES_ACTIONS = ['list', 'show', 'verify', 'acknowledge', 'prune', 'report'] as const satisfies readonly TracesAction[];
export const TRACES_OPTIONS = {
  ...COMMON_OPTIONS,
  reason: { type: 'string', describe: 'acknowledge: why the trace chain broke (goes into the acknowledge trace)' },
  format: { type: 'string', describe: 'report: markdown (default; fits a pull-request comment), html (one self-contained file) or json' },
  out: { type: 'string', describe: 'report: write it to this file (under the working directory or the repository) instead of printing it' },
} as const satisfies Record<string, OptionSpec>;

/** The arguments with `--repo -x` read as `--repo=-x` (cli/quick-args.ts, joinDashValues). */
export function normalizedArgs(args: string[]): string[] {
  return joinDashValues(
    args,
    ['repo', 'branch', 'reason', 'format', 'out'],
    [...Object.keys(SERVE_OPTIONS), ...Object.keys(COMMON_OPTIONS), 'reason', 'format', 'out'],
  );
}

export interface ReadOnlyArgs {
  repo?: string;
  json: boolean;
}

export interface TracesArgs extends ReadOnlyArgs {
  action: TracesAction;
  id?: string;
  reason?: string;
  format?: string;
  out?: string;
}

/** A read-only command with plain arguments: a step (analyze, propose, status) or traces. */
export type QuickReadOnly = { tool: ReadOnlyTool; argv: ReadOnlyArgs } | { tool: 'traces'; argv: TracesArgs };

/** The read-only command these arguments plainly ask for; null for anything else, which yargs reads (cli/main.ts). */
export function quickReadOnly(args: string[]): QuickReadOnly | null {
  const tool = args[0] !== undefined && Object.hasOwn(READ_ONLY_TOOLS, args[0]) ? READ_ONLY_TOOLS[args[0]]! : null;
  if (tool) {
    const argv = quickArgs<ReadOnlyArgs>(args.slice(1), COMMON_OPTIONS);
    return argv ? { tool, argv } : null;
  }
  if (args[0] !== 'traces') return null;
  const argv = quickArgs<Omit<TracesArgs, 'action'> & { action?: string }>(args.slice(1), TRACES_OPTIONS, ['action', 'id']);
  if (!argv || (argv.action !== undefined && !(TRACES_ACTIONS as readonly string[]).includes(argv.action))) return null;
  return { tool: 'traces', argv: { ...argv, action: (argv.action ?? 'list') as TracesAction } };
}
