#!/usr/bin/env node
import { normalizedArgs, quickReadOnly, type QuickReadOnly } from './cli/commands.js';
import { endQuietlyOnClosedPipe, exitOnceWritten } from './cli/one-shot.js';
import { keepYoungGenerationSmall } from './cli/young-generation.js';
import { repoChoice } from './mcp/repo.js';
import { listGitFiles, type EarlyListing } from './analysis/git-listing.js';

/**
 * The command-line face: parses, calls the same core as the MCP server, prints.
 *
 * The read-only commands with plain arguments start here, and load one more file: the build makes
 * this module a file of its own with what it imports (scripts/bundle.mjs), and the read-only
 * commands one CommonJS file with its code cache (cli/read-only.ts). Everything else is the rest of
 * the CLI (cli/main.ts), loaded for it alone.
 */

endQuietlyOnClosedPipe();
const args = normalizedArgs(process.argv.slice(2));
const quick = quickReadOnly(args);
if (quick) {
  keepYoungGenerationSmall();
  void runReadOnly(quick).then(exitOnceWritten);
} else {
  void import('./cli/main.js')
    .then(({ main }) => main(args))
    .then(
      (code) => {
        if (code >= 0) process.exitCode = code;
      },
      async (err: unknown) => {
        process.exitCode = (await import('./cli/failure.js')).reportFailure(err); // the build's own files could not be loaded
      },
    );
}

async function runReadOnly(call: QuickReadOnly): Promise<number> {
  // Analyze begins with git's list of the repository's files: git makes it while the read-only file loads.
  const early = call.tool === 'onboarding_analyze' ? earlyListing(call.argv.repo) : undefined;
  try {
    const readOnly = await import('./cli/read-only.js');
    return call.tool === 'traces' ? await readOnly.runTraces(call.argv) : await readOnly.runReadOnly(call.tool, call.argv, early);
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
