import type { ToolResult as CallToolResult } from '../steps/tool-call.js';
import { exitCodeForResult } from '../common/outcomes.js';
import { checkedRepo, repoChoice, type CheckedRepo } from '../steps/repo-choice.js';
import { showJson, showLine, showText } from '../show/untrusted.js';

/** What every command that works on a repository shares: which repository, and how a tool result is printed. */

/** The repository the command works on, checked here, once: the step's call takes it as it is. */
export async function repoFrom(flag: string | undefined): Promise<CheckedRepo> {
  return checkedRepo(repoChoice(flag));
}

/**
 * The result as the server showed it (see show/untrusted.ts; shown again here, which changes
 * nothing in text already shown), its diffs coloured by position for a terminal. JSON is the same
 * value, with hidden characters written as escapes.
 */
export async function print(result: CallToolResult, json: boolean): Promise<number> {
  if (json) process.stdout.write(`${showJson(result.structuredContent ?? {})}\n`);
  else {
    const { colourDiffsIn, colourFor } = await import('../show/diff-text.js');
    const stream = result.isError ? process.stderr : process.stdout;
    // The server already wrote its sentences for a person at the CLI (see call/words.ts).
    const text = showText(result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'));
    stream.write(`${colourDiffsIn(text, colourFor(stream))}\n`);
  }
  return exitCodeForResult(result);
}

/** The commands in the texts pass `--repo` as the person typed it: it works pasted in the same shell. */
export function repoArgFrom(flag: string | undefined): { repoArg?: string } {
  return flag === undefined ? {} : { repoArg: flag };
}

/** Decision state this clone did not write, said once on stderr by the commands that print no step result (check, traces). */
export async function reportIgnoredState(root: string): Promise<void> {
  const { cliCommand } = await import('../call/for-person.js');
  const notice = await (await import('../steps/preflight.js')).ignoredStateNotice(root, { cliCommand: cliCommand() });
  if (notice) process.stderr.write(`${showLine(notice)}\n`);
}

/**
 * The read-only commands await all their work before they return: once their output is written,
 * the process ends at once instead of waiting for V8 to take its heap apart (20–30 ms after an
 * analysis, more after a large one). Other commands end as Node ends them.
 */
export async function exitOnceWritten(code: number): Promise<never> {
  const written = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit(code);
}

/**
 * A reader that stops early (`copilot-onboard analyze --json | head`) closes the pipe: the rest of
 * the output is no longer wanted, which is no failure of the command. It ends quietly, as git does.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}
