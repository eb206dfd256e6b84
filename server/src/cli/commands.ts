import type { ReadOnlyTool } from './direct.js';
import type { TracesAction } from './traces.js';
import type { ServeArgs } from './serve-command.js';
import type { CheckArgs } from './check.js';

/** Taken, not imported: in cli.js, an ES module, the import would read every export of util, and MIMEType's loads a MIME parser. */
const { parseArgs } = process.getBuiltinModule('node:util');

/**
 * The command line's commands and options, defined once: for yargs (help, errors, odd forms;
 * cli/main.ts) and for the quick reading of plain arguments below, which starts the read-only
 * commands and `serve` without loading yargs (about a tenth of a second; a client waits for every
 * millisecond of `serve`). Either reading gives a `Command`, which cli.ts runs (`dispatch`).
 */

export const COMMON_OPTIONS = {
  repo: { type: 'string', describe: 'repository folder (default: COPILOT_ONBOARD_REPO, else the working directory)' },
  json: { type: 'boolean', default: false, describe: 'print JSON instead of text' },
} as const satisfies Record<string, OptionSpec>;

/** propose alone prints the plan's whole diff (.copilot-state/plan.diff) with --diff. */
export const PROPOSE_OPTIONS = {
  ...COMMON_OPTIONS,
  diff: { type: 'boolean', default: false, describe: 'print the whole diff of the plan (.copilot-state/plan.diff) instead of the report' },
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

export const READ_ONLY_TOOLS = {
  analyze: 'onboarding_analyze',
  propose: 'onboarding_propose',
  status: 'onboarding_status',
} as const satisfies Record<string, ReadOnlyTool>;

export const TRACES_ACTIONS = ['list', 'show', 'verify', 'acknowledge', 'prune', 'report'] as const satisfies readonly TracesAction[];
export const TRACES_OPTIONS = {
  ...COMMON_OPTIONS,
  reason: { type: 'string', describe: 'acknowledge: why the trace chain broke (goes into the acknowledge trace)' },
  format: { type: 'string', describe: 'report: markdown (default; fits a pull-request comment), html (one self-contained file) or json' },
  out: { type: 'string', describe: 'report: write it to this file (under the working directory or the repository) instead of printing it' },
} as const satisfies Record<string, OptionSpec>;

/** The arguments with `--repo -x` read as `--repo=-x` (joinDashValues, below). */
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
  /** propose only: print the whole diff. */
  diff?: boolean;
}

export interface TracesArgs extends ReadOnlyArgs {
  action: TracesAction;
  id?: string;
  reason?: string;
  format?: string;
  out?: string;
}

export interface GatedArgs extends ReadOnlyArgs {
  branch?: string;
  commit?: boolean;
}

/** A command as the person asked for it, however it was read: cli.ts runs it (`dispatch`). */
export type Command =
  | { name: keyof typeof READ_ONLY_TOOLS; argv: ReadOnlyArgs }
  | { name: 'traces'; argv: TracesArgs }
  | { name: 'serve'; argv: ServeArgs }
  | { name: 'approve' | 'migrate' | 'rollback'; argv: GatedArgs }
  | { name: 'check'; argv: CheckArgs & { repo?: string } }
  | { name: 'fleet'; argv: { files: string[]; format: 'markdown' | 'json' } }
  | { name: 'setup'; argv: { target: 'vscode' | 'print'; repo?: string } }
  | { name: 'demo'; argv: { keep: boolean } }
  | { name: 'version' };

/** The command these arguments plainly ask for (a read-only command, traces, serve, --version); null for anything else, which yargs reads (cli/main.ts). */
export function plainCommand(args: string[]): Command | null {
  const name = args[0];
  if (name === undefined) return null;
  if (args.length === 1 && name === '--version') return { name: 'version' };
  if (Object.hasOwn(READ_ONLY_TOOLS, name)) {
    const argv = quickArgs<ReadOnlyArgs>(args.slice(1), name === 'propose' ? PROPOSE_OPTIONS : COMMON_OPTIONS);
    return argv ? { name: name as keyof typeof READ_ONLY_TOOLS, argv } : null;
  }
  if (name === 'serve') {
    const argv = quickArgs<ServeArgs>(args.slice(1), SERVE_OPTIONS);
    return argv ? { name, argv } : null;
  }
  if (name !== 'traces') return null;
  const argv = quickArgs<Omit<TracesArgs, 'action'> & { action?: string }>(args.slice(1), TRACES_OPTIONS, ['action', 'id']);
  if (!argv || (argv.action !== undefined && !(TRACES_ACTIONS as readonly string[]).includes(argv.action))) return null;
  return { name, argv: { ...argv, action: (argv.action ?? 'list') as TracesAction } };
}

/** An option as yargs takes it; the same table feeds the quick parser below. */
export interface OptionSpec {
  type: 'string' | 'boolean' | 'number';
  describe: string;
  default?: string | boolean | number;
  array?: boolean;
}

/**
 * Arguments read without loading yargs (it costs a CLI process about a tenth of a second), when
 * they are plainly valid for `spec`: known options only, numbers that are numbers, and at most the
 * named `positionals` (each set under its name, when given), whose values the caller checks.
 * Anything else (--help, --version, a typo) returns null, and yargs answers it as usual.
 */
export function quickArgs<T>(args: string[], spec: Record<string, OptionSpec>, positionals: readonly string[] = []): T | null {
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, o]) => [
      name,
      { type: o.type === 'boolean' ? ('boolean' as const) : ('string' as const), multiple: o.array === true },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch {
    return null;
  }
  if (parsed.positionals.length > positionals.length) return null;
  const out: Record<string, unknown> = {};
  parsed.positionals.forEach((value, i) => (out[positionals[i]!] = value));
  for (const [name, o] of Object.entries(spec)) {
    const raw = parsed.values[name];
    if (raw === undefined) {
      if (o.default !== undefined) out[name] = o.default;
      continue;
    }
    if (o.type === 'number') {
      const n = Number(raw);
      if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(n)) return null;
      out[name] = n;
    } else out[name] = raw;
  }
  return out as T;
}

/**
 * `--repo -x` as `--repo=-x`: a folder whose name starts with `-` is the value of the option before
 * it, as it is when written with `=`, unless it is one of the command line's own options (`--repo
 * --json` still reads as a missing folder). Without this the parser reads `-x` as flags, and `--repo
 * -lea` failed with "Unknown arguments: l, e, a".
 */
export function joinDashValues(args: string[], valued: readonly string[], known: readonly string[]): string[] {
  const out: string[] = [];
  const isKnown = (a: string) => {
    if (a === '--' || a === '-h') return true;
    const name = /^--(?:no-)?([^=]+)/.exec(a)?.[1];
    return name !== undefined && (known.includes(name) || name === 'help' || name === 'version');
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (a.startsWith('--') && valued.includes(a.slice(2)) && next !== undefined && next.startsWith('-') && !isKnown(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}
