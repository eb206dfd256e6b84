import type { Argv } from 'yargs';
import { reportFailure } from './failure.js';
import {
  COMMON_OPTIONS,
  PROPOSE_OPTIONS,
  SERVE_OPTIONS,
  TRACES_ACTIONS,
  TRACES_OPTIONS,
  type Command,
  type GatedArgs,
} from './commands.js';
import { showLine, showText } from '../show/untrusted.js';
import { cliCommand } from '../call/for-person.js';
import { VERSION } from '../version.js';
import type { CheckedRepo } from '../steps/repo-choice.js';
import { FAIL_ON } from '../model/findings.js';

/**
 * The rest of the command line: yargs reads what the quick reading in cli/commands.ts does not
 * (help, mistakes, odd forms, and the commands it leaves to yargs), and the commands that are not
 * read-only run here, each loading what it needs. cli.ts dispatches every command.
 */

const withRepo = <T>(y: Argv<T>) => y.options({ repo: COMMON_OPTIONS.repo });
const withJson = <T>(y: Argv<T>) => y.options({ json: COMMON_OPTIONS.json });
const withGit = <T>(y: Argv<T>) => y.options({ branch: SERVE_OPTIONS.branch, commit: SERVE_OPTIONS.commit });

async function repoFrom(flag: string | undefined): Promise<CheckedRepo> {
  return (await import('./command-io.js')).repoFrom(flag);
}

/** The command `args` name, read by yargs; a number when yargs answered itself (help, version). */
export async function parseCommand(args: string[]): Promise<Command | number> {
  const { default: yargs } = await import('yargs');
  let command: Command | null = null;
  const take: Take = (c) => {
    command = c;
  };
  const y = yargs(args)
    .scriptName('copilot-onboard')
    .usage(
      "$0 <command> [options]\n\nMove AI-assistant instruction files into GitHub Copilot's layout; every change needs a person's yes.",
    );
  await otherCommands(ciCommands(stepCommands(y, take), take), take)
    .demandCommand(1, 'Name a command.')
    .recommendCommands()
    .strict()
    .version(VERSION)
    .help()
    .fail((msg, err) => {
      if (err) throw err;
      const said = msg.startsWith('Did you mean') ? `Unknown command: ${showLine(args[0] ?? '')}. ${msg}` : msg;
      process.stderr.write(`${said}\nRun ${cliCommand()} --help for the commands.\n`);
      process.exit(2);
    })
    .parseAsync();
  return command ?? 0;
}

type OtherCommand = Exclude<Command, { name: 'analyze' | 'propose' | 'status' | 'traces' | 'version' }>;

/**
 * Runs a command that is not read-only; -1 when it keeps running (serve). A failure is reported
 * here, where its error class is known (this chunk has its own copy of the error classes).
 */
export async function runCommand(command: OtherCommand): Promise<number> {
  try {
    return await run(command);
  } catch (err) {
    return reportFailure(err);
  }
}

async function run(command: OtherCommand): Promise<number> {
  switch (command.name) {
    case 'serve':
      await (await import('./serve-command.js')).runServe(command.argv);
      return -1;
    case 'approve':
    case 'migrate':
    case 'rollback':
      return gated(`onboarding_${command.name}` as const, command.argv);
    case 'check':
      return check(command.argv);
    case 'fleet':
      return (await import('./fleet.js')).fleetCommand(command.argv.files, command.argv.format);
    case 'setup':
      return setup(command.argv.target, command.argv.repo);
    case 'demo':
      return (await import('./demo.js')).runDemo({ keep: command.argv.keep });
  }
}

async function gated(tool: GatedTool, argv: GatedArgs): Promise<number> {
  const { callFromCli } = await import('./direct.js');
  const { TOOL_STEPS } = await import('../steps/tool-steps.js');
  const { print, repoArgFrom } = await import('./command-io.js');
  const options = { ...repoArgFrom(argv.repo), ...(argv.branch ? { branch: argv.branch } : {}), ...(argv.commit ? { commit: true } : {}) };
  const repo = await repoFrom(argv.repo);
  const person = (await import('./terminal-person.js')).terminalPersonIfAny();
  return print(await callFromCli({ repo, name: tool, run: TOOL_STEPS[tool], person, options }), argv.json);
}

type GatedTool = 'onboarding_approve' | 'onboarding_migrate' | 'onboarding_rollback';

/** Keeps the command yargs read. */
type Take = (command: Command) => void;

/** serve and the steps of the flow. */
function stepCommands<T>(y: Argv<T>, take: Take): Argv<T> {
  return y
    .command(
      'serve',
      'MCP server on stdio, or on Streamable HTTP with --http',
      (c) => c.options(SERVE_OPTIONS),
      (argv) => take({ name: 'serve', argv }),
    )
    .command(
      'analyze',
      'find and classify the instruction files (read-only)',
      (c) => withJson(withRepo(c)),
      (argv) => take({ name: 'analyze', argv }),
    )
    .command(
      'propose',
      'build the migration plan with diffs (writes only .copilot-state/)',
      (c) => withJson(withRepo(c)).options({ diff: PROPOSE_OPTIONS.diff }),
      (argv) => take({ name: 'propose', argv }),
    )
    .command(
      'status',
      'where the onboarding stands',
      (c) => withJson(withRepo(c)),
      (argv) => take({ name: 'status', argv }),
    )
    .command(
      'approve',
      'approve the current plan (asks in the terminal)',
      (c) => withJson(withRepo(c)),
      (argv) => take({ name: 'approve', argv }),
    )
    .command(
      'migrate',
      'apply the approved plan (asks in the terminal)',
      (c) => withGit(withJson(withRepo(c))),
      (argv) => take({ name: 'migrate', argv }),
    )
    .command(
      'rollback',
      'restore the files from the backup (asks in the terminal)',
      (c) => withJson(withRepo(c)),
      (argv) => take({ name: 'rollback', argv }),
    );
}

/** check and fleet, for CI. */
function ciCommands<T>(y: Argv<T>, take: Take): Argv<T> {
  return y
    .command(
      'check',
      'for CI: report contradictions, duplicates, drift and files propose would change; exit 1 when something reaches --fail-on (read-only)',
      (c) =>
        withRepo(c).options({
          format: {
            choices: ['text', 'json', 'sarif', 'markdown'] as const,
            default: 'text' as const,
            describe: "output format (sarif: for GitHub code scanning; markdown: for GitHub's job summary)",
          },
          'fail-on': {
            choices: FAIL_ON,
            default: FAIL_ON[0],
            describe: `fail on this and the levels before it: ${FAIL_ON.filter((l) => l !== 'none').join(' < ')}`,
          },
          baseline: { type: 'string', describe: 'a baseline file: findings already in it do not fail the check' },
          'write-baseline': {
            type: 'string',
            describe: 'write the current findings as a baseline to this file (under the working directory or the repository)',
          },
        }),
      (argv) =>
        take({
          name: 'check',
          argv: {
            ...(argv.repo !== undefined ? { repo: argv.repo } : {}),
            format: argv.format,
            failOn: argv['fail-on'],
            ...(argv.baseline !== undefined ? { baseline: argv.baseline } : {}),
            ...(argv['write-baseline'] !== undefined ? { writeBaseline: argv['write-baseline'] } : {}),
          },
        }),
    )
    .command(
      'fleet <files..>',
      'merge many check --format json results (one per repository) into one table with totals; a missing or malformed result is listed, never dropped (exit 1 then)',
      (c) =>
        c.positional('files', { type: 'string', array: true, demandOption: true }).options({
          format: { choices: ['markdown', 'json'] as const, default: 'markdown' as const, describe: 'output format' },
        }),
      (argv) => take({ name: 'fleet', argv: { files: (argv.files ?? []).map(String), format: argv.format } }),
    );
}

/** traces, setup and demo. */
function otherCommands<T>(y: Argv<T>, take: Take): Argv<T> {
  return y
    .command(
      'traces [action] [id]',
      'review the trace files: list, show ID, verify, acknowledge --reason TEXT (a break in the chain you know about), prune (the retention policy now: old read-only traces and old backups go, recorded in a trace), report [--format markdown|html|json] [--out FILE] (one page for the reviewer of a migration pull request)',
      (c) =>
        withJson(withRepo(c))
          .positional('action', { choices: TRACES_ACTIONS, default: 'list' as const })
          .positional('id', { type: 'string' })
          .option('reason', TRACES_OPTIONS.reason)
          .option('format', { ...TRACES_OPTIONS.format, choices: ['markdown', 'html', 'json'] as const })
          .option('out', TRACES_OPTIONS.out),
      (argv) => take({ name: 'traces', argv }),
    )
    .command(
      'setup <target>',
      "register the server with a client: vscode writes .vscode/mcp.json (asks first); print shows every client's snippet",
      (c) => withRepo(c).positional('target', { choices: ['vscode', 'print'] as const, demandOption: true }),
      (argv) => take({ name: 'setup', argv: { target: argv.target, ...(argv.repo !== undefined ? { repo: argv.repo } : {}) } }),
    )
    .command(
      'demo',
      'walk the whole flow on a throw-away example repository, removed at the end (--keep keeps it); without a terminal it stops before the first question and exits 3, as approve, migrate and rollback do',
      (c) =>
        c.options({ keep: { type: 'boolean', default: false, describe: 'keep the sandbox repository (and its traces) after the demo' } }),
      (argv) => take({ name: 'demo', argv: { keep: argv.keep } }),
    );
}

async function check(args: import('./check.js').CheckArgs & { repo?: string }): Promise<number> {
  const { checkCommand } = await import('./check.js');
  const { root } = await repoFrom(args.repo);
  await (await import('./command-io.js')).reportIgnoredState(root);
  return checkCommand(root, args);
}

/** `setup vscode` shows the change, asks, and writes it; `setup print` shows every client's snippet. */
async function setup(target: 'vscode' | 'print', repoFlag: string | undefined): Promise<number> {
  const setupModule = await import('./setup.js');
  if (target === 'print') {
    process.stdout.write(`${setupModule.snippets()}\n`);
    return 0;
  }
  const { root } = await repoFrom(repoFlag);
  const change = await setupModule.planVscodeSetup(root);
  if (!change) {
    process.stdout.write('.vscode/mcp.json already registers copilot-onboard; nothing to do.\n');
    return 0;
  }
  const machine = setupModule.machineSpecificNote();
  process.stdout.write(`${showText(change.diff)}\n${machine ? `${showText(machine)}\n\n` : ''}${setupModule.vscodeHttpSnippet()}\n\n`);
  if (!process.stdin.isTTY) {
    process.stderr.write('No terminal to ask in: nothing was written. Run this in a terminal, or copy the snippet above.\n');
    return 3;
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
    return 3;
  }
  await setupModule.applyVscodeSetup(change);
  process.stdout.write(`Wrote ${change.file}. Reload the VS Code window, then start the copilot-onboard server from the MCP view.\n`);
  return 0;
}
