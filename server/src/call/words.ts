import { cliCommand, shellQuote } from './for-person.js';
import { showExcerpt, showLine, showPath } from '../show/untrusted.js';
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

/**
 * The one report of decision state this clone did not write (state/foreign.ts). State an earlier
 * version wrote here is named as such, with the way to roll its migration back; nothing is ever
 * advised away with an `rm`: a backup folder may hold the only copy of a person's original files.
 */
export function ignoredStateText(
  ignored: {
    files: string[];
    folders: string[];
    latestOwnBackup: string | null;
    earlier?: { version: string; files: string[]; migration: { id: string; backupDir: string } | null };
  },
  options?: FlowOptions,
): string {
  const parts: string[] = [];
  if (ignored.earlier) parts.push(earlierStateText(ignored.earlier, options));
  const all = [...ignored.files, ...ignored.folders.map((f) => `${f}/`)];
  if (all.length > 0) {
    const own = ignored.latestOwnBackup
      ? ` If it was this clone's own state, damaged, the original bytes of your files are in .copilot-state/backups/ (latest: ${ignored.latestOwnBackup}).`
      : '';
    const keep =
      ignored.folders.length > 0
        ? ' Keep the backup folders: they may hold the only copy of original files.'
        : ' It is left as it is; moving a file aside (to NAME.damaged, which git ignores) stops this notice.';
    parts.push(
      `State in .copilot-state was not written here: ignored (${all.join(', ')}). It came with the repository (committed or copied), ` +
        `was written by another clone, or was changed since it was written, so copilot-onboard does not act on it: no recovery, plan or approval is taken from it.${own}${keep}`,
    );
  }
  return parts.join(' ');
}

/** State an earlier version of the tool wrote on this machine: what it is, and what can still be done with it. */
function earlierStateText(
  earlier: { version: string; files: string[]; migration: { id: string; backupDir: string } | null },
  options?: FlowOptions,
): string {
  const head = `State in .copilot-state was written by copilot-onboard ${earlier.version}, an earlier version (${earlier.files.join(', ')}).`;
  const migration = earlier.migration
    ? ` Its migration ${earlier.migration.id} can still be rolled back: ${stepName(options, 'rollback')} shows what it restores from ${earlier.migration.backupDir}, checks that backup byte for byte, and asks you first; with your yes this version takes the migration up as its own.`
    : '';
  return `${head}${migration} Its plan and approval are not used by this version: ${stepName(options, 'propose')} builds a new plan. Keep its backups: they hold the original bytes of your files.`;
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
    // Between sides, not in a reason ("always update vs never edit"): a side starts with its quote, or "not" and its quote.
    showLine(`${topic}: ${c.said.replace(/\) vs (not )?"/g, ') or $1"')}`) +
    (mentioned.length > 0 ? `; also used, not a rule of its own (kept whatever you choose): ${mentioned.join(', ')}` : '')
  );
}

/** What the client's model thinks of a second-look pair, in words: labelled as its opinion, never as a finding. */
const VERDICT_WORDS = {
  conflict: 'thinks they conflict',
  compatible: 'thinks both can stand',
  unsure: 'is unsure',
} as const;

/**
 * The model's verdict on a pair, labelled as its opinion, with its reason quoted on one line and the
 * rank it gave the pair: `the client's model (gpt-x) thinks they conflict: "…" (its opinion; ranked 2, was 9)`.
 */
export function opinionWords(
  v: { verdict: keyof typeof VERDICT_WORDS; reason: string; rank: number; rankBefore: number },
  model: string,
): string {
  const name = model.trim() === '' ? 'unnamed' : showExcerpt(model.trim(), 80);
  const moved = v.rank === v.rankBefore ? `rank ${v.rank}` : `ranked ${v.rank}, was ${v.rankBefore}`;
  return `the client's model (${name}) ${VERDICT_WORDS[v.verdict]}: "${showExcerpt(v.reason, 300)}" (its opinion; ${moved})`;
}
