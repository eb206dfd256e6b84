#!/usr/bin/env node
import type { Argv } from 'yargs';
import { reportFailure } from './cli/failure.js';
import { quickServeArgs, runServe, SERVE_OPTIONS } from './cli/serve-command.js';
import { builtHelp, joinDashValues, quickArgs, type OptionSpec } from './cli/quick-args.js';
import { showText } from './show/untrusted.js';
import { VERSION } from './version.js';
import type { ReadOnlyTool, runTraces } from './cli/read-only.js';
import { repoChoice, type RepoChoice } from './mcp/repo.js';
import { listGitFiles, type EarlyListing } from './analysis/git-listing.js';
import { keepYoungGenerationSmall } from './cli/young-generation.js';

/** The command-line face: parses, calls the same core as the MCP server, prints. */

const COMMON_OPTIONS = {
  repo: { type: 'string', describe: 'repository folder (default: COPILOT_ONBOARD_REPO, else the working directory)' },
  json: { type: 'boolean', default: false, describe: 'print JSON instead of text' },
} as const satisfies Record<string, OptionSpec>;
const READ_ONLY_TOOLS: Record<string, ReadOnlyTool> = {
  analyze: 'onboarding_analyze',
  propose: 'onboarding_propose',
  status: 'onboarding_status',
};

const TRACES_ACTIONS = ['list', 'show', 'verify', 'acknowledge', 'prune'] as const;
const TRACES_OPTIONS = {
  ...COMMON_OPTIONS,
  reason: { type: 'string', describe: 'acknowledge: why the trace chain broke (goes into the acknowledge trace)' },
} as const satisfies Record<string, OptionSpec>;

const withRepo = <T>(y: Argv<T>) => y.options({ repo: COMMON_OPTIONS.repo });
const withJson = <T>(y: Argv<T>) => y.options({ json: COMMON_OPTIONS.json });
const withGit = <T>(y: Argv<T>) => y.options({ branch: SERVE_OPTIONS.branch, commit: SERVE_OPTIONS.commit });

// Modules are loaded by the command that needs them: `--help` and `serve` start faster. The read-only
// commands (and `traces`) are one file of the build (cli/read-only.ts), loaded for them alone.
async function repoFrom(flag: string | undefined): Promise<RepoChoice> {
  return (await import('./cli/command-io.js')).repoFrom(flag);
}

async function readOnly(tool: ReadOnlyTool, argv: { repo?: string; json: boolean }): Promise<number> {
  startOneShot();
  // Analyze begins with git's list of the repository's files: git makes it while the read-only file loads.
  const early = tool === 'onboarding_analyze' ? earlyListing(argv.repo) : undefined;
  return (await import('./cli/read-only.js')).runReadOnly(tool, argv, early);
}

/** The listing of the folder the command will work on, started now; none when the choice of folder is refused (the command says why). */
function earlyListing(flag: string | undefined): EarlyListing | undefined {
  try {
    const { explicit, cwd } = repoChoice(flag);
    const root = explicit ?? cwd;
    return { root, files: listGitFiles(root) };
  } catch {
    return undefined;
  }
}

async function runTracesCommand(argv: Parameters<typeof runTraces>[0]): Promise<number> {
  startOneShot();
  return (await import('./cli/read-only.js')).runTraces(argv);
}

/**
 * The read-only commands await all their work before they return: once their output is written,
 * the process ends at once instead of waiting for V8 to take its heap apart (20–30 ms after an
 * analysis, more after a large one). Other commands end as Node ends them.
 */
let endAtOnce = false;

/** A read-only command: it ends once its output is written, and keeps its young generation small. */
function startOneShot(): void {
  endAtOnce = true;
  keepYoungGenerationSmall();
}

async function exitOnceWritten(code: number): Promise<void> {
  const written = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit(code);
}

async function gated(tool: string, argv: { repo?: string; json: boolean; branch?: string; commit?: boolean }): Promise<number> {
  const { callInProcess } = await import('./cli/in-process.js');
  const { print, repoArgFrom } = await import('./cli/command-io.js');
  const person = process.stdin.isTTY ? (await import('./cli/terminal-form.js')).askInTerminal : null;
  const options = { ...repoArgFrom(argv.repo), ...(argv.branch ? { branch: argv.branch } : {}), ...(argv.commit ? { commit: true } : {}) };
  const repo = await repoFrom(argv.repo);
  return print(await callInProcess(repo, tool, person, options), argv.json);
}

async function main(): Promise<number> {
  // The commands a client or a script runs most start without yargs when their arguments are plain.
  // `--repo -x` reads as `--repo=-x`: a folder named like an option is still the folder.
  const args = joinDashValues(
    process.argv.slice(2),
    ['repo', 'branch', 'reason'],
    [...Object.keys(SERVE_OPTIONS), ...Object.keys(COMMON_OPTIONS), 'reason'],
  );
  const quick = args[0] === 'serve' ? quickServeArgs(args.slice(1)) : null;
  if (quick) {
    await runServe(quick);
    return -1;
  }
  const tool = args[0] !== undefined && Object.hasOwn(READ_ONLY_TOOLS, args[0]) ? READ_ONLY_TOOLS[args[0]]! : null;
  const plain = tool ? quickArgs<{ repo?: string; json: boolean }>(args.slice(1), COMMON_OPTIONS) : null;
  if (tool && plain) return readOnly(tool, plain);
  const traces =
    args[0] === 'traces'
      ? quickArgs<{ repo?: string; json: boolean; reason?: string; action?: string; id?: string }>(args.slice(1), TRACES_OPTIONS, [
          'action',
          'id',
        ])
      : null;
  if (traces && (traces.action === undefined || (TRACES_ACTIONS as readonly string[]).includes(traces.action))) {
    return runTracesCommand({
      ...traces,
      action: (traces.action ?? 'list') as (typeof TRACES_ACTIONS)[number],
    });
  }
  // As yargs prints them, without loading yargs.
  if (args.length === 1 && args[0] === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const help = args.length === 1 && args[0] === '--help' ? await builtHelp() : null;
  if (help !== null) {
    process.stdout.write(help);
    return 0;
  }
  const { default: yargs } = await import('yargs');
  let code = 0;
  const run = (fn: () => Promise<number>) => async () => {
    code = await fn();
  };
  await yargs(args)
    .scriptName('copilot-onboard')
    .usage("$0 <command> [options]\n\nMove AI-assistant instruction files into GitHub Copilot's layout; every change needs a person's yes.")
    .command(
      'serve',
      'MCP server on stdio, or on Streamable HTTP with --http',
      (y) => y.options(SERVE_OPTIONS),
      async (argv) => {
        await runServe(argv);
        code = -1;
      },
    )
    .command(
      'analyze',
      'find and classify the instruction files (read-only)',
      (y) => withJson(withRepo(y)),
      (argv) => run(() => readOnly('onboarding_analyze', argv))(),
    )
    .command(
      'propose',
      'build the migration plan with diffs (writes only .copilot-state/)',
      (y) => withJson(withRepo(y)),
      (argv) => run(() => readOnly('onboarding_propose', argv))(),
    )
    .command(
      'status',
      'where the onboarding stands',
      (y) => withJson(withRepo(y)),
      (argv) => run(() => readOnly('onboarding_status', argv))(),
    )
    .command(
      'approve',
      'approve the current plan (asks in the terminal)',
      (y) => withJson(withRepo(y)),
      (argv) => run(() => gated('onboarding_approve', argv))(),
    )
    .command(
      'migrate',
      'apply the approved plan (asks in the terminal)',
      (y) => withGit(withJson(withRepo(y))),
      (argv) => run(() => gated('onboarding_migrate', argv))(),
    )
    .command(
      'rollback',
      'restore the files from the backup (asks in the terminal)',
      (y) => withJson(withRepo(y)),
      (argv) => run(() => gated('onboarding_rollback', argv))(),
    )
    .command(
      'check',
      'for CI: report contradictions, duplicates, drift and files propose would change; exit 1 when something reaches --fail-on (read-only)',
      (y) =>
        withRepo(y).options({
          format: {
            choices: ['text', 'json', 'sarif'] as const,
            default: 'text' as const,
            describe: 'output format (sarif: for GitHub code scanning)',
          },
          'fail-on': {
            choices: ['contradiction', 'duplicate', 'drift', 'any', 'none'] as const,
            default: 'contradiction' as const,
            describe: 'fail on this and the levels before it: contradiction < duplicate < drift < any',
          },
          baseline: { type: 'string', describe: 'a baseline file: findings already in it do not fail the check' },
          'write-baseline': {
            type: 'string',
            describe: 'write the current findings as a baseline to this file (under the working directory or the repository)',
          },
        }),
      async (argv) => {
        keepYoungGenerationSmall();
        const { checkCommand } = await import('./cli/check.js');
        const choice = await repoFrom(argv.repo);
        code = await checkCommand(choice.explicit ?? choice.cwd, {
          format: argv.format,
          failOn: argv['fail-on'],
          baseline: argv.baseline,
          writeBaseline: argv['write-baseline'],
        });
      },
    )
    .command(
      'traces [action] [id]',
      'review the trace files: list, show ID, verify, acknowledge --reason TEXT (a break in the chain you know about), prune (the retention policy now: old read-only traces and old backups go, recorded in a trace)',
      (y) =>
        withJson(withRepo(y))
          .positional('action', { choices: TRACES_ACTIONS, default: 'list' as const })
          .positional('id', { type: 'string' })
          .option('reason', TRACES_OPTIONS.reason),
      async (argv) => {
        code = await runTracesCommand(argv);
      },
    )
    .command(
      'setup <target>',
      "register the server with a client: vscode writes .vscode/mcp.json (asks first); print shows every client's snippet",
      (y) => withRepo(y).positional('target', { choices: ['vscode', 'print'] as const, demandOption: true }),
      async (argv) => {
        const setup = await import('./cli/setup.js');
        if (argv.target === 'print') {
          process.stdout.write(`${setup.snippets()}\n`);
          return;
        }
        const choice = await repoFrom(argv.repo);
        const change = await setup.planVscodeSetup(choice.explicit ?? choice.cwd);
        if (!change) {
          process.stdout.write('.vscode/mcp.json already registers copilot-onboard; nothing to do.\n');
          return;
        }
        process.stdout.write(`${showText(change.diff)}\n${setup.vscodeHttpSnippet()}\n\n`);
        if (!process.stdin.isTTY) {
          process.stderr.write('No terminal to ask in: nothing was written. Run this in a terminal, or copy the snippet above.\n');
          code = 3;
          return;
        }
        const { confirm } = await import('@inquirer/prompts');
        let yes = false;
        try {
          yes = await confirm({ message: `Write ${change.file}?`, default: false }, { output: process.stderr });
        } catch {
          yes = false;
        }
        if (!yes) {
          process.stderr.write('Nothing was written.\n');
          code = 3;
          return;
        }
        await setup.applyVscodeSetup(change);
        process.stdout.write(`Wrote ${change.file}. Reload the VS Code window, then start the copilot-onboard server from the MCP view.\n`);
      },
    )
    .command(
      'demo',
      'walk the whole flow on a throw-away example repository, removed at the end (--keep keeps it); without a terminal it stops before the first question and exits 3, as approve, migrate and rollback do',
      (y) =>
        y.options({ keep: { type: 'boolean', default: false, describe: 'keep the sandbox repository (and its traces) after the demo' } }),
      async (argv) => {
        const { runDemo } = await import('./cli/demo.js');
        code = await runDemo({ keep: argv.keep });
      },
    )
    .demandCommand(1, 'Name a command.')
    .strict()
    .version(VERSION)
    .help()
    .fail((msg, err) => {
      if (err) throw err;
      process.stderr.write(`${msg}\nRun copilot-onboard --help for the commands.\n`);
      process.exit(2);
    })
    .parseAsync();
  return code;
}

// A reader that stops early (`copilot-onboard analyze --json | head`) closes the pipe: the rest of
// the output is no longer wanted, which is no failure of the command. It ends quietly, as git does.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

main().then(
  (code) => {
    if (code < 0) return;
    process.exitCode = code;
    if (endAtOnce) void exitOnceWritten(code);
  },
  (err) => {
    process.exitCode = reportFailure(err);
  },
);
