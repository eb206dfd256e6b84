#!/usr/bin/env node
import { normalizedArgs, plainCommand, READ_ONLY_TOOLS, type Command } from './cli/commands.js';
import { endQuietlyOnClosedPipe, exitOnceWritten } from './cli/command-io.js';
import { repoChoice } from './steps/repo-choice.js';
import { listGitFiles, type EarlyListing } from './analysis/discovery/git-listing.js';
import { VERSION } from './version.js';

/**
 * The command-line face: reads the command, runs it with the same core as the MCP server, prints.
 *
 * Plain arguments of the read-only commands, `traces`, `serve` and `--version` are read here
 * (cli/commands.ts); everything else by yargs (cli/main.ts). Either way `dispatch` runs the command.
 * The build makes this module a file of its own (scripts/bundle.mjs), the read-only commands another
 * (cli/read-only.ts), and the rest of the CLI its own chunks, each loaded for its commands alone.
 */

// Node 22 and later keep the compiled code of the build between runs; Node 20 has no such cache.
(process.getBuiltinModule('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
endQuietlyOnClosedPipe();
const args = normalizedArgs(process.argv.slice(2));
void commandFrom(args)
  .then((command) => (typeof command === 'number' ? command : dispatch(command)))
  .then(
    (code) => {
      if (code >= 0) process.exitCode = code;
    },
    async (err: unknown) => {
      process.exitCode = (await import('./cli/failure.js')).reportFailure(err);
    },
  );

async function commandFrom(args: string[]): Promise<Command | number> {
  return plainCommand(args) ?? (await import('./cli/main.js')).parseCommand(args);
}

/** Runs a command however it was read; -1 when it keeps running (serve). The read-only ones end once their output is out. */
async function dispatch(command: Command): Promise<number> {
  switch (command.name) {
    case 'version':
      process.stdout.write(`${VERSION}\n`);
      return 0;
    case 'analyze':
    case 'propose':
    case 'status':
    case 'traces':
      return exitOnceWritten(await runReadOnly(command));
    default:
      return (await import('./cli/main.js')).runCommand(command);
  }
}

async function runReadOnly(command: Extract<Command, { name: 'analyze' | 'propose' | 'status' | 'traces' }>): Promise<number> {
  // Analyze begins with git's list of the repository's files: git makes it while the read-only file loads.
  const early = command.name === 'analyze' ? earlyListing(command.argv.repo) : undefined;
  try {
    const readOnly = await import('./cli/read-only.js');
    return command.name === 'traces'
      ? await readOnly.runTraces(command.argv)
      : await readOnly.runReadOnly(READ_ONLY_TOOLS[command.name], command.argv, early);
  } catch (err) {
    return (await import('./cli/failure.js')).reportFailure(err); // the build's own files could not be loaded
  }
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
