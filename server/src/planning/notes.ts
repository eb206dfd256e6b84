import type { OtherAssistantLine } from '../analysis/discovery/other-assistants.js';
import type { Surface } from '../analysis/scope/surfaces.js';
import type { AssistantFate, LegacyFate, LegacyOption, ScopeFate, ScopeOption } from '../model/plan.js';
import type { GlobRewrite } from '../model/model.js';
import type { Location as LineRef } from '../model/problem.js';

/**
 * What the plan tells the person, as data: each note has a `kind` and the facts it needs. The words
 * are written in one place, `note-words.ts`, when the plan is built.
 */
export type Note =
  /** Copilot's own file is a link, or unreadable: left as it is; where its repo-wide rules go instead. */
  | { kind: 'copilot-blocked'; link: string | null; through: string | null; why: string | null; moved: string[]; fallback: string | null }
  /** A target the plan cannot write (a link, a file it could not read); the files whose rules are not migrated. */
  | { kind: 'target-blocked'; target: string; why: string; from: string[] }
  /** A pseudo-heading line written as a heading. */
  | { kind: 'pseudo-heading'; at: LineRef; source: string; target: string; heading: string }
  /** A file's headings moved down a level below the heading that names the file. */
  | { kind: 'headings-moved'; path: string; count: number; target: string }
  /** A heading repeated among its siblings in one file: the later ones merged into the first, their lines under it. */
  | { kind: 'siblings-merged'; path: string; heading: string; line: number; repeats: number[]; target: string }
  /** A Copilot file that digests a legacy file: the sections they share, one each, and the Copilot file's lines there the source does not have, kept. */
  | { kind: 'digest-kept'; path: string; source: string; sections: string[]; lines: { line: number; text: string }[] }
  /** A file's sections that repeat most of a section written already (a twin, a digest's source): their lines there written once, the ones that differ kept. */
  | {
      kind: 'twin-sections';
      path: string;
      target: string;
      sections: { line: number; text: string; repeats: { path: string; text: string } }[];
      merged: number;
      kept: { line: number; text: string }[];
      /** Its lead-ins of a block written once that say in other words the lead-in written with it: merged into that one. */
      reworded: { line: number; text: string; keptAt: LineRef & { text: string } }[];
      /** Whether the lines that differ went into the sections they repeat (another source's), else after the person's text. */
      joined: boolean;
    }
  /** A guide's lines that say what its target holds already in other words, not written again (issue 40): each with the line it restates; how many of its lines are written. */
  | { kind: 'restated-lines'; path: string; target: string; merged: { line: number; text: string; keptAt: LineRef }[]; kept: number }
  /** Units a file says again in one section, written once (issue 40): each repeat's line, and where what it repeats is written. */
  | { kind: 'repeats-once'; path: string; repeats: { line: number; keptAt: LineRef }[]; target: string }
  /** Lines of a migrated file written for another assistant (analysis/discovery/other-assistants.ts): listed, and what the person chose for them. */
  | {
      kind: 'other-assistant';
      path: string;
      lines: OtherAssistantLine[];
      fate: AssistantFate;
      rewritable: number;
      /** False when every line is inside a block a tool manages: nothing to choose, they stay. */
      offered: boolean;
    }
  /** A nested AGENTS.md planned repo-wide, or scoped otherwise than the tool decided: where it applies, and the tool's reason. */
  | { kind: 'nested-scope'; option: ScopeOption; chosen: ScopeFate }
  /** The nested AGENTS.md files kept to their folders as the tool decided, with its reason for each. */
  | { kind: 'nested-scopes-kept'; options: ScopeOption[] }
  /** A comment line that ends a list, written before a unit that starts indented. */
  | { kind: 'list-ended'; at: LineRef; line: string; target: string }
  | { kind: 'already-organised'; target: string }
  /** A heading of a migrated file not written: every line under it was left out or dropped. */
  | { kind: 'heading-emptied'; at: LineRef; text: string; target: string }
  /** A line of a migrated file that only points at the file its rules move into: not copied there. */
  | { kind: 'pointer-line'; at: LineRef; text: string; target: string }
  /** A managed block of a migrated file (lines `start`..`end`): it stays in that file, where its tool keeps it current; not copied. */
  | { kind: 'managed-stays'; path: string; start: number; end: number; marker: string }
  /** A line a choice would drop or edit, kept as it is: it is inside a block a tool manages. */
  | { kind: 'managed-kept'; at: LineRef; text: string; why: string }
  /** Relative links of moved text that led to nothing in the repository where they were written: kept as written. */
  | { kind: 'links-unresolved'; path: string; target: string; links: { line: number; dest: string; written?: string }[] }
  /** A linked Copilot file replaced by a regular one, as the person chose. */
  | { kind: 'link-replaced'; target: string; link: string; shown: string }
  /** A kept legacy option's own note: who reads the file twice. */
  | { kind: 'option'; option: LegacyOption }
  /** Written files past the size worth a warning. */
  | { kind: 'too-long'; files: LongFile[] }
  | { kind: 'front-matter-lost'; path: string; keys: string[]; target: string }
  /** Globs without a slash, written in `applyTo` to match at any depth as the file's own tool does. */
  | { kind: 'globs-rewritten'; path: string; rewrites: GlobRewrite[]; target: string }
  /** A side of a contradiction dropped from Copilot's files while the file that says it is kept. */
  | { kind: 'dropped-still-said'; at: LineRef; text: string; readers: Surface[] }
  /** A file that holds no rules of its own (`notRule`): reported, or migrated as the person chose. */
  | { kind: 'not-rules'; path: string; why: string; asked: boolean; optional: boolean }
  | { kind: 'copy-swapped'; chosen: string; was: string; fate: LegacyFate | undefined }
  | { kind: 'copy-swap-ignored'; path: string; keptPath: string; chosen: string }
  | { kind: 'copy'; path: string; keptPath: string; diff: string }
  | { kind: 'synced-source'; path: string; keptPath: string; readers: Surface[] }
  | { kind: 'alias'; path: string; aliasOf: string }
  /** Words analysis wrote already (an import, a skipped file). */
  | { kind: 'said'; text: string }
  | { kind: 'on-request'; path: string }
  | { kind: 'nothing-found' }
  | { kind: 'conflicts-kept' }
  /** Option notes: what keeping a file means. */
  | { kind: 'legacy-kept'; path: string; readers: Surface[]; later: Surface[]; target: string }
  /** A legacy file none of whose lines the plan writes (all left out or dropped by the person's choices): no file is written for it. */
  | { kind: 'nothing-moved'; path: string }
  | { kind: 'link-kept'; link: string }
  | { kind: 'link-shown-kept'; path: string; replaced: boolean }
  | { kind: 'left-out'; path: string; why: string | null };

/** A written file past the size worth a warning: its size now, and before when it was there. */
export interface LongFile {
  path: string;
  bytes: number;
  lines: number;
  bytesBefore: number | null;
}
