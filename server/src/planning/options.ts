import path from 'node:path';
import { COPILOT_INSTRUCTIONS_PATH } from '../analysis/formats/copilot-instructions.js';
import type { ScanResult } from '../analysis/discovery/scan.js';
import { newReaders, readersOf } from '../analysis/scope/surfaces.js';
import type { Copy } from '../analysis/repeats/copies.js';
import { FORMAT_IDS, FORMATS_FACTS } from '../model/formats.js';
import type { InstructionDoc, Scope } from '../model/model.js';
import type { LegacyFate, LegacyOption } from '../model/plan.js';
import { noteText } from './note-words.js';
import { holdsManagedBlock } from './managed-stays.js';
import { splitText } from '../common/text.js';
import { planTargets, type Target } from './targets.js';

/** The kinds that can point at another file with an `@path` import: approve offers them the fate `pointer`. */
export const POINTER_KINDS: ReadonlySet<string> = new Set(FORMAT_IDS.filter((id) => FORMATS_FACTS[id].pointer));

/** Whether some Copilot surface reads this file as it is (analysis/scope/surfaces.ts). */
export const readByCopilot = (kind: string, p: string): boolean => readersOf(kind, p).length > 0;

/** A `.github/copilot-instructions.md` that is a symlink inside the repository, and the document whose text it shows. */
export interface CopilotLink {
  /** The link's target as written (`../AGENTS.md`). */
  link: string;
  /** The document Copilot reads through the link: the instruction file at its end, or the linked file itself. */
  shown: InstructionDoc;
}

export function copilotLink(scan: ScanResult, byPath: Map<string, InstructionDoc>): CopilotLink | null {
  const file = scan.files.get(COPILOT_INSTRUCTIONS_PATH);
  if (!file?.link) return null;
  const doc = scan.docs.find((d) => d.path === COPILOT_INSTRUCTIONS_PATH);
  const shown = doc?.aliasOf ? byPath.get(doc.aliasOf) : byPath.get(COPILOT_INSTRUCTIONS_PATH);
  return shown ? { link: file.link, shown } : null;
}

/**
 * Why the plan must not write to a path, or null. A symlink (or a file in a symlinked folder) would
 * be written through, changing the file it points at; a file the scan skipped was never read.
 */
export function unwritable(scan: ScanResult, p: string): string | null {
  const link = scan.files.get(p)?.linkTarget;
  if (link) return `is a symlink to ${link}`;
  const skipped = scan.skipped.find((s) => s.path === p);
  return skipped ? `could not be read (${skipped.reason.replace(/_/g, ' ')})` : null;
}

/** The choice to replace a linked Copilot file by a regular one, and the file the link shows (kept: others may link to it). */
export function linkOptions(link: CopilotLink | null, replaced: boolean): LegacyOption[] {
  if (!link) return [];
  const options: LegacyOption[] = [
    {
      path: COPILOT_INSTRUCTIONS_PATH,
      kind: 'copilot-instructions',
      target: COPILOT_INSTRUCTIONS_PATH,
      fates: ['keep', 'replace'],
      note: noteText({ kind: 'link-kept', link: link.link }),
      linkTarget: link.link,
    },
  ];
  if (link.shown.role === 'legacy') {
    options.push({
      path: link.shown.path,
      kind: link.shown.kind,
      target: COPILOT_INSTRUCTIONS_PATH,
      fates: ['keep'],
      note: noteText({ kind: 'link-shown-kept', path: link.shown.path, replaced }),
    });
  }
  return options;
}

export function legacyOptions(
  legacy: InstructionDoc[],
  targets: Target[],
  scan: ScanResult,
  blocked: Set<string>,
  empty: Set<string> = new Set(),
): LegacyOption[] {
  const aliased = new Set(scan.docs.map((d) => d.aliasOf).filter((a): a is string => a !== null));
  return legacy.map((doc) => {
    const target = targets.find((t) => t.docs.includes(doc))!.path;
    // Its target is not written (every line left out): it can only be kept, and nothing is said of the target.
    if (empty.has(target))
      return { path: doc.path, kind: doc.kind, target, fates: ['keep'], note: noteText({ kind: 'nothing-moved', path: doc.path }) };
    const fates: LegacyFate[] = ['keep'];
    // Only a file whose rules really moved may go, and never through a link: that would change its target.
    // A file holding a managed block keeps it (managed-stays.ts): it may not go either.
    const file = scan.files.get(doc.path);
    const movable =
      !aliased.has(doc.path) && !blocked.has(target) && !file?.linkTarget && !holdsManagedBlock(splitText(file?.text ?? '').lines);
    if (movable) fates.push('remove');
    if (POINTER_KINDS.has(doc.kind) && movable) fates.push('pointer');
    return { path: doc.path, kind: doc.kind, target, fates, note: legacyNote(doc, target) };
  });
}

/** What the plan leaves out by default, and where its rules would go. */
export interface LeftOut {
  optional: InstructionDoc[];
  legacyDocs: InstructionDoc[];
  targets: Target[];
  existing: Map<string, Scope>;
  copilotBlocked: boolean;
  notRuleOf: (d: InstructionDoc) => string | null;
  copies: Copy[];
  /** Files that are symlinks: never replaced by a pointer (that would write through the link). */
  linked: Set<string>;
}

/**
 * The choice to migrate a file the plan leaves out by default; keeping it (the default) leaves it out.
 * A copy may also be migrated instead of the file it is a copy of (`use-this`), when it applies wherever that file does.
 */
export function optionalOptions(o: LeftOut): LegacyOption[] {
  return o.optional.map((doc) => {
    // Where its rules would go: where they go now, or where they would go with it among the others.
    const target = (o.targets.find((t) => t.docs.includes(doc)) ??
      planTargets([...o.legacyDocs, doc], o.existing, o.copilotBlocked ? 'scoped' : 'copilot').find((t) => t.docs.includes(doc)))!.path;
    const copy = o.copies.find((c) => (c.relation === 'copy' || c.relation === 'twin') && c.path === doc.path);
    const twin = copy?.relation === 'twin';
    // A twin of a Copilot file may become a pointer to it: Copilot reads its rules there already.
    const fates: LegacyFate[] = copy?.swappable ? ['keep', 'migrate', 'use-this'] : ['keep', 'migrate'];
    if (twin && POINTER_KINDS.has(doc.kind) && !o.linked.has(doc.path)) fates.push('pointer');
    return {
      path: doc.path,
      kind: doc.kind,
      target: twin ? copy.keptPath : target,
      fates,
      note: noteText({ kind: 'left-out', path: doc.path, why: o.notRuleOf(doc) }),
      ...(copy ? { copyOf: { path: copy.keptPath, diff: copy.diff, ...(twin ? { twin: true as const } : {}) } } : {}),
    };
  });
}

/** What keeping a legacy file means, surface by surface (analysis/scope/surfaces.ts): who reads it today, who sees its rules only after the migration. */
export function legacyNote(doc: Pick<InstructionDoc, 'path' | 'kind'>, target: string): string {
  return noteText({
    kind: 'legacy-kept',
    path: doc.path,
    readers: readersOf(doc.kind, doc.path),
    later: newReaders(doc.kind, doc.path, target),
    target,
  });
}

/** The content a `pointer` fate leaves in a file: an `@path` import of its target. */
export function pointerTo(from: string, target: string): string {
  return `@${path.posix.relative(path.posix.dirname(from), target)}\n`;
}
