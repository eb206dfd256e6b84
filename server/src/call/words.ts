import { cliCommand, shellQuote } from './for-person.js';
import { showLine, showPath } from '../show/untrusted.js';
import type { FlowOptions } from './context.js';

/**
 * How the tool's own sentences name its steps, for whoever reads them: a model over MCP reads tool
 * names (`onboarding_migrate`), a person at the CLI reads the command that does the same
 * (`node /abs/cli.js migrate --repo my-repo`), with the repository it was given, so that the
 * command works when pasted in the same shell. Only these sentences change: text from files, paths
 * and diffs is never rewritten for a reader.
 */

export type StepName = 'analyze' | 'propose' | 'approve' | 'migrate' | 'rollback' | 'status';

/** ` --repo DIR`, shell-quoted, or nothing when the command runs in the repository itself. */
function repoArg(options: FlowOptions | undefined): string {
  const repo = options?.repoArg;
  // A folder named like an option (`-x`) would be read as one.
  return repo ? ` --repo ${shellQuote(repo.startsWith('-') ? `./${repo}` : repo)}` : '';
}

/** A step as the reader calls it: the MCP tool, or the command at the CLI. */
export function stepName(options: FlowOptions | undefined, step: StepName): string {
  return options?.cliCommand ? `${options.cliCommand} ${step}${repoArg(options)}` : `onboarding_${step}`;
}

/** A step as a command to type in a terminal: for a model too, the command this very server was started with (see cliCommand). */
export function commandName(options: FlowOptions | undefined, step: StepName): string {
  return `${options?.cliCommand ?? cliCommand()} ${step}${repoArg(options)}`;
}

/** A sentence meant only for a model (such as not asking again): left out for a person at the CLI. */
export function forModel(options: FlowOptions | undefined, sentence: string): string {
  return options?.cliCommand ? '' : sentence;
}

/** The reader is a person at the CLI (the tool's sentences speak to "you"), not a model over MCP. */
export function forPerson(options: FlowOptions | undefined): boolean {
  return options?.cliCommand !== undefined && options.cliCommand !== '';
}

/**
 * One sentence in two wordings: for a model over MCP (who reads "the person" and the contract's
 * names), or for the person at the CLI. Outcome codes stay in structuredContent and the traces.
 */
export function said(options: FlowOptions | undefined, words: { model: string; person: string }): string {
  return forPerson(options) ? words.person : words.model;
}

/** The one report of decision state this clone did not write (state/foreign.ts), with the command that clears it. */
export function ignoredStateText(ignored: { files: string[]; folders: string[]; latestOwnBackup: string | null }): string {
  const all = [...ignored.files, ...ignored.folders.map((f) => `${f}/`)];
  const rm = `rm -r -- ${[...ignored.files, ...ignored.folders].map(shellQuote).join(' ')}`;
  const own = ignored.latestOwnBackup
    ? ` If it was this clone's own state, damaged, the original bytes of your files are in .copilot-state/backups/ (latest: ${ignored.latestOwnBackup}).`
    : '';
  return (
    `State in .copilot-state was not written here: ignored (${all.join(', ')}). It came with the repository (committed or copied) or was ` +
    `changed since it was written, so copilot-onboard does not act on it: no recovery, plan or approval is taken from it.${own} ` +
    `To clear it, run in the repository's folder: ${rm}`
  );
}

/** A contradiction only worth a second look is named so wherever it is listed: its default lets both stand, unmarked. */
export const secondLookWords = (c: { secondLook?: true }): string =>
  c.secondLook ? ' (worth a second look: by default both stand, unmarked)' : '';

/**
 * A contradiction in a person's words, each location once and no id:
 * `the package manager: "pnpm" (AGENTS.md:3) or "npm" (.cursorrules:2)`. What each side says, with
 * its locations, is the contradiction's `said` (every finder names each location there).
 */
export function conflictWords(c: { topic: string; said: string; mentions?: { path: string; line: number }[] }): string {
  const topic = /^[a-z]/.test(c.topic) && !c.topic.startsWith('the ') ? `the ${c.topic}` : c.topic;
  const mentioned = (c.mentions ?? []).map((l) => `${showPath(l.path)}:${l.line}`);
  return (
    showLine(`${topic}: ${c.said.replace(/\) vs "/g, ') or "')}`) +
    (mentioned.length > 0 ? `; also used, not a rule of its own (kept whatever you choose): ${mentioned.join(', ')}` : '')
  );
}
