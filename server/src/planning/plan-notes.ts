import { COPILOT_INSTRUCTIONS_PATH } from '../analysis/formats/copilot-instructions.js';
import { importCapNote, importNote } from '../analysis/discovery/imports.js';
import type { ScanResult } from '../analysis/discovery/scan.js';
import { readersOf } from '../analysis/scope/surfaces.js';
import type { InstructionDoc } from '../model/model.js';
import type { LegacyOption, PlanChoices } from '../model/plan.js';
import type { CopyChoices, DroppedLine } from './choices.js';
import type { LongFile, Note } from './notes.js';
import { unwritable, type CopilotLink } from './options.js';
import { descriptionNamesSection } from './render/flat-document.js';
import { targetDescription, type Target } from './targets.js';

/** Why Copilot's own file is left as it is, and where the repo-wide rules go instead. */
export function blockedCopilotNote(scan: ScanResult, link: CopilotLink | null, targets: Target[]): Note {
  const fallback = targets.find((t) => t.docs.some((d) => d.scope.kind === 'repo'));
  const moved = fallback ? fallback.docs.filter((d) => d.scope.kind === 'repo').map((d) => d.path) : [];
  return {
    kind: 'copilot-blocked',
    link: link?.link ?? null,
    through: link && link.shown.path !== COPILOT_INSTRUCTIONS_PATH ? link.shown.path : null,
    why: link ? null : unwritable(scan, COPILOT_INSTRUCTIONS_PATH),
    moved,
    fallback: moved.length > 0 ? fallback!.path : null,
  };
}

/** Front matter that reads into scope is used; what Copilot's file cannot hold is said, not silently lost. */
const SCOPE_KEYS = new Set(['globs', 'alwaysApply', 'applyTo', 'trigger', 'paths', 'excludeAgent']);

function frontMatterNotes(targets: Target[]): Note[] {
  const notes: Note[] = [];
  for (const target of targets) {
    const carried = target.path === COPILOT_INSTRUCTIONS_PATH ? null : targetDescription(target);
    for (const doc of target.docs) {
      // An empty description says nothing, so nothing of it is lost.
      const lost = (doc.frontMatterKeys ?? []).filter(
        (k) =>
          !SCOPE_KEYS.has(k) &&
          !(
            k === 'description' &&
            (doc.description === null || carried === doc.description || (carried === null && descriptionNamesSection(doc)))
          ),
      );
      if (lost.length > 0) notes.push({ kind: 'front-matter-lost', path: doc.path, keys: lost, target: target.path });
    }
  }
  return notes;
}

/** What the notes after the targets and options are written from. */
export interface PlanFacts {
  scan: ScanResult;
  choices: PlanChoices;
  /** The documents that contribute rules. */
  docs: InstructionDoc[];
  targets: Target[];
  blocked: Set<string>;
  /** New targets not created: nothing was left to write in them. */
  empty: Set<string>;
  long: LongFile[];
  legacy: LegacyOption[];
  dropped: DroppedLine[];
  copies: CopyChoices;
  notRuleOf: (d: InstructionDoc) => string | null;
  /** The files migrated only because the person asked, and the files that may be. */
  asked: Set<InstructionDoc>;
  optional: InstructionDoc[];
  conflicts: number;
}

/** The notes after the targets and options: sizes, front matter, dropped sides, left-out files, copies, links, imports, skips. */
export function closingNotes(f: PlanFacts): Note[] {
  const notes: Note[] = [];
  if (f.long.length > 0) notes.push({ kind: 'too-long', files: f.long });
  // A target not written (blocked, or with nothing left to write) is named in no note.
  const written = f.targets.filter((t) => !f.blocked.has(t.path) && !f.empty.has(t.path));
  notes.push(...frontMatterNotes(written));
  for (const target of written)
    for (const doc of target.docs.filter((d) => d.globRewrites?.length))
      notes.push({ kind: 'globs-rewritten', path: doc.path, rewrites: doc.globRewrites!, target: target.path });
  for (const d of f.dropped) {
    const option = f.legacy.find((l) => l.path === d.path);
    if (option && (f.choices.legacy[d.path] ?? 'keep') === 'keep')
      notes.push({ kind: 'dropped-still-said', at: d, text: d.text, readers: readersOf(option.kind, option.path) });
  }
  for (const d of f.scan.docs.filter((x) => f.notRuleOf(x) !== null))
    notes.push({ kind: 'not-rules', path: d.path, why: f.notRuleOf(d)!, asked: f.asked.has(d), optional: f.optional.includes(d) });
  for (const w of f.copies.swaps) notes.push({ kind: 'copy-swapped', chosen: w.chosen, was: w.was, fate: f.choices.legacy[w.was] });
  notes.push(...f.copies.ignored, ...copyNotes(f));
  for (const d of f.scan.docs.filter((x) => x.aliasOf !== null)) notes.push({ kind: 'alias', path: d.path, aliasOf: d.aliasOf! });
  for (const r of f.scan.imports) {
    const text = importNote(r);
    if (text) notes.push({ kind: 'said', text });
  }
  for (const cap of f.scan.importCaps) notes.push({ kind: 'said', text: importCapNote(cap) });
  for (const s of f.scan.skipped) notes.push({ kind: 'said', text: s.detail });
  for (const t of written.filter((x) => x.scope.kind === 'request')) notes.push({ kind: 'on-request', path: t.path });
  if (f.docs.length === 0 && f.scan.skipped.length === 0) notes.push({ kind: 'nothing-found' });
  if (f.conflicts > 0) notes.push({ kind: 'conflicts-kept' });
  return notes;
}

/** The copies left out, and the sources a Copilot file says it distils. */
function copyNotes(f: PlanFacts): Note[] {
  const copies = f.copies.copies;
  return [
    ...copies.filter((x) => x.relation === 'copy').map((c): Note => ({ kind: 'copy', path: c.path, keptPath: c.keptPath, diff: c.diff })),
    ...copies
      .filter((x) => x.relation === 'synced-source')
      .map((c): Note => ({
        kind: 'synced-source',
        path: c.path,
        keptPath: c.keptPath,
        readers: readersOf(f.scan.docs.find((d) => d.path === c.path)!.kind, c.path),
      })),
  ];
}
