import { showLine, showText } from '../show/untrusted.js';
import { callDirect, type ReadOnlyTool } from './direct.js';
import type { EarlyListing } from '../steps/tool-call.js';
import { print, repoArgFrom, repoFrom } from './command-io.js';
import { ignoredStateText } from '../call/words.js';
import { reportFailure } from './failure.js';
import type { TracesArgs } from './commands.js';

/**
 * The read-only commands (`analyze`, `propose`, `status`, `traces`), whole: the build bundles this
 * module and all it imports into one file (scripts/bundle.mjs), which cli.js loads for them alone.
 * A process then reads and links one file instead of some thirty chunks, and what only some
 * commands need (zod's stored-file schemas, yaml, diff, the engine) is imported lazily inside it.
 */

export type { ReadOnlyTool };

// The read-only commands call their steps directly, without the MCP SDK (cli/direct.ts).
// Each returns its exit code: a failure is reported here, where its error class is known (cli/failure.ts).
export async function runReadOnly(
  tool: ReadOnlyTool,
  argv: { repo?: string; json: boolean; diff?: boolean },
  early?: EarlyListing,
): Promise<number> {
  try {
    const choice = await repoFrom(argv.repo);
    const result = await callDirect(choice, tool, repoArgFrom(argv.repo), early);
    if (argv.diff && !result.isError) return await printPlanDiff(choice.root);
    return await print(result, argv.json);
  } catch (err) {
    return reportFailure(err);
  }
}

/** `propose --diff`: the plan just built, its whole diff as written to .copilot-state/plan.diff, every line. */
async function printPlanDiff(root: string): Promise<number> {
  const file = await (await import('../state/plan-diff.js')).readPlanDiff(root);
  if (file === null) {
    process.stderr.write('No plan diff was written: the plan has nothing to do.\n');
    return 0;
  }
  const { colourDiffsIn, colourFor } = await import('../show/diff-text.js');
  process.stdout.write(colourDiffsIn(showText(file.text), colourFor(process.stdout)));
  return 0;
}

export async function runTraces(argv: TracesArgs): Promise<number> {
  try {
    return await traces(argv);
  } catch (err) {
    return reportFailure(err);
  }
}

async function traces(argv: TracesArgs): Promise<number> {
  const { tracesCommand } = await import('./traces.js');
  const { root } = await repoFrom(argv.repo);
  const { cliCommand, shellQuote } = await import('../call/for-person.js');
  // Like every command: a link in .copilot-state refused, an interrupted migrate or rollback brought to one side.
  const { recovered, ignored } = await (await import('../steps/preflight.js')).preflight(root, null, { refuseBare: false });
  if (recovered) process.stderr.write(`Recovered first: ${showLine(recovered.detail)}\n`);
  if (ignored) process.stderr.write(`${showLine(ignoredStateText(ignored, { cliCommand: cliCommand() }))}\n`);
  const list = `${cliCommand()} traces list${argv.repo !== undefined ? ` --repo ${shellQuote(argv.repo)}` : ''}`;
  return tracesCommand(root, argv.action, argv.id, argv.json, argv.reason, { format: argv.format, out: argv.out }, list);
}
