import path from 'node:path';
import { COPILOT_INSTRUCTIONS_PATH } from '../analysis/formats/copilot-instructions.js';
import type { ImportRef } from '../analysis/discovery/imports.js';
import type { ScanResult } from '../analysis/discovery/scan.js';
import { joinText, splitText } from '../common/text.js';
import type { InstructionDoc } from '../model/model.js';
import type { Merged, PlanOperation, Provenance } from '../model/plan.js';
import type { DroppedLine } from './choices.js';
import { assertEveryLineOnce, spans } from './lossless.js';
import type { LongFile, Note } from './notes.js';
import { operation, sizeOver, textStyle } from './operations.js';
import { unwritable, type CopilotLink } from './options.js';
import { changedLineNotes } from './changed-lines.js';
import { digestNotes } from './digest-notes.js';
import { dropImports, dropLines } from './render/drop.js';
import { keepUnitsApart } from './render/keep-apart.js';
import { LineMap } from './render/line-map.js';
import { gatherSides } from './render/gather.js';
import { insertMarks, type MarkTopics } from './render/marks.js';
import type { LineRef, Rendered } from './render/rendered.js';
import { renderTarget, type TargetSources } from './render/target.js';
import type { Target } from './targets.js';
import { copilotRewrite, type Rewrite } from './assistant-lines.js';
import { relinked, type LinkFacts, type UnresolvedLink } from './render/links.js';
import type { TwinSection } from './render/twin-sections.js';

/** What writing the targets reads: the scan, the documents that contribute, and the choices' effects. */
export interface WriteContext {
  scan: ScanResult;
  sources: TargetSources;
  byPath: Map<string, InstructionDoc>;
  link: CopilotLink | null;
  /** The person chose to replace the linked Copilot file by a regular one. */
  replaceLink: boolean;
  marks: MarkTopics;
  dropped: LineMap<DroppedLine>;
  /** Lines the person chose to have rewritten for Copilot (planning/assistant-lines.ts). */
  rewrites: LineMap<Rewrite>;
  /** `@path` import lines: not rules, what they import is placed instead (analysis/discovery/imports.ts). */
  imports: LineMap<ImportRef>;
}

/** What writing the targets gives. */
export interface Written {
  operations: PlanOperation[];
  merged: Merged[];
  provenance: Provenance[];
  notes: Note[];
  /** The targets the plan cannot write. */
  blocked: Set<string>;
  /** New targets left with no line to write (every line of their sources left out or dropped): not created. */
  empty: Set<string>;
  long: LongFile[];
}

export function writeTargets(ctx: WriteContext, targets: Target[]): Written {
  const w: Written = { operations: [], merged: [], provenance: [], notes: [], blocked: new Set(), empty: new Set(), long: [] };
  // Once for all targets: it reads every document (made per target, it read 500 documents 500 times in a propose of 500 rule files).
  const links = linkFacts(ctx, targets);
  for (const target of targets) writeTarget(ctx, target, w, links);
  return w;
}

function writeTarget(ctx: WriteContext, target: Target, w: Written, facts: LinkFacts): void {
  const { scan, link } = ctx;
  const replacing = ctx.replaceLink && target.path === COPILOT_INSTRUCTIONS_PATH;
  const why = replacing ? null : unwritable(scan, target.path);
  if (why) {
    w.blocked.add(target.path);
    w.notes.push({ kind: 'target-blocked', target: target.path, why, from: target.docs.map((d) => d.path) });
    return;
  }
  const existingDoc = replacing ? link!.shown : ctx.byPath.get(target.path);
  const mergedBefore = w.merged.length;
  const twins: TwinSection[] = [];
  const { marked, apart, emptied } = renderedTarget(ctx, target, existingDoc, w.merged, twins);
  // A heading taken along with the lines under it, all left out: named, never dropped silently.
  const linesOf = ctx.sources.linesOf;
  for (const at of emptied) w.notes.push({ kind: 'heading-emptied', at, text: linesOf(at.path)[at.line - 1]!, target: target.path });
  // A new file with no rule in it (its sources were empty, or all merged) is not created.
  if (!existingDoc && !marked.refs.some((r) => r !== null)) {
    w.empty.add(target.path);
    return;
  }
  const links = relinked(marked, target.path, facts);
  const content = fileText(scan, target, existingDoc, rewritten(marked, links.rendered, ctx.rewrites, target.path));
  w.provenance.push(...spans(target.path, marked.refs));
  const before = scan.files.get(target.path);
  if (!(before && content === before.text)) {
    w.notes.push(...changedLineNotes(target.path, marked, (p, l) => linesOf(p)[l - 1]));
    for (const at of apart) w.notes.push({ kind: 'list-ended', at, line: linesOf(at.path)[at.line - 1]!, target: target.path });
    w.notes.push(...siblingNotes(w.merged.slice(mergedBefore), target.path, linesOf));
    w.notes.push(...repeatNotes(w.merged.slice(mergedBefore), target.path));
    w.notes.push(...twinNotes(twins, target.path));
    if (existingDoc && target.path === COPILOT_INSTRUCTIONS_PATH) w.notes.push(...digestNotes(existingDoc, w.merged.slice(mergedBefore)));
    w.notes.push(...unresolvedNotes(links.unresolved));
  }
  if (before && content === before.text && !replacing) {
    if (target.docs.length === 0) w.notes.push({ kind: 'already-organised', target: target.path });
    return;
  }
  const op = operation(target.path, before?.text ?? null, before?.sha256 ?? null, content);
  const size = sizeOver(target.path, content, before?.text ?? null);
  if (size) w.long.push(size);
  if (replacing) {
    op.replacesLink = link!.link;
    w.notes.push({ kind: 'link-replaced', target: target.path, link: link!.link, shown: link!.shown.path });
  }
  w.operations.push(op);
}

/** A target rendered, its imports and dropped lines taken out, units kept apart and conflicts marked; checked line by line. */
function renderedTarget(
  ctx: WriteContext,
  target: Target,
  existingDoc: InstructionDoc | undefined,
  merged: Merged[],
  twins: TwinSection[],
) {
  const rendered = renderTarget(ctx.sources, target, existingDoc, merged, twins);
  const emptied = new LineMap<LineRef>();
  const apart = keepUnitsApart(dropLines(dropImports(rendered, ctx.imports), ctx.dropped, emptied));
  // Scoped files keep each source's body as it is; Copilot's own file is assembled, its sides gathered.
  const gathered =
    target.path === COPILOT_INSTRUCTIONS_PATH ? gatherSides(apart.rendered, ctx.marks, existingDoc?.path ?? null) : apart.rendered;
  const marked = insertMarks(gathered, ctx.marks, existingDoc?.path ?? null);
  const gone = { has: (at: LineRef) => ctx.dropped.has(at) || emptied.has(at) };
  assertEveryLineOnce(ctx.sources.linesOf, [...(existingDoc ? [existingDoc] : []), ...target.docs], marked, merged, gone);
  return { marked, apart: apart.before, emptied: emptied.values() };
}

/**
 * The lines the person chose to have rewritten for Copilot, as rewritten (after their links were
 * moved: `relinked`); checked and noted as their sources say them.
 */
function rewritten(marked: Rendered, moved: Rendered, rewrites: LineMap<Rewrite>, target: string): Rendered {
  if (rewrites.size === 0) return moved;
  return {
    lines: moved.lines.map((line, i) => {
      const w = marked.refs[i] ? rewrites.get(marked.refs[i]) : undefined;
      if (!w || w.from !== marked.lines[i]) return line;
      // A cut keeps the words before the sentence left out (their links already moved).
      if (w.cut !== undefined) return line.endsWith(w.cut) ? line.slice(0, line.length - w.cut.length).trimEnd() : line;
      return copilotRewrite(line, target) ?? line;
    }),
    refs: moved.refs,
  };
}

/**
 * What moving links needs: which source lines are code, and which repository paths are there, the
 * files the plan writes and their folders included (a pointer at moved rules leads to one: repoint.ts).
 */
function linkFacts(ctx: WriteContext, targets: readonly Target[]): LinkFacts {
  const code = new Map<string, Set<number>>();
  for (const doc of ctx.scan.docs) {
    const lines = new Set<number>();
    for (const u of doc.units) if (u.kind === 'code' || u.kind === 'frontmatter') u.lines.forEach((_, k) => lines.add(u.line + k));
    code.set(doc.path, lines);
  }
  const there = ctx.scan.linkTargets ?? new Set<string>();
  const written = new Set(targets.flatMap((t) => [t.path, path.posix.dirname(t.path)]));
  return { inCode: (at) => code.get(at.path)?.has(at.line) ?? false, resolves: (p) => there.has(p) || written.has(p) };
}

/** One note per source file whose moved links led nowhere: written as they were, or from the new folder when they start `./` or `../`. */
function unresolvedNotes(unresolved: UnresolvedLink[]): Note[] {
  const byPath = new Map<string, Note & { kind: 'links-unresolved' }>();
  for (const u of unresolved) {
    const note = byPath.get(u.at.path) ?? { kind: 'links-unresolved', path: u.at.path, target: u.target, links: [] };
    byPath.set(u.at.path, note);
    if (!note.links.some((l) => l.line === u.at.line && l.dest === u.dest))
      note.links.push({ line: u.at.line, dest: u.dest, ...(u.written ? { written: u.written } : {}) });
  }
  return [...byPath.values()];
}

/** The file's text: in its existing file's style, a new scoped file without a BOM before its `---`. */
function fileText(scan: ScanResult, target: Target, existingDoc: InstructionDoc | undefined, marked: Rendered): string {
  const style = {
    ...textStyle(scan, existingDoc ?? target.docs[0]),
    ...(existingDoc || target.path === COPILOT_INSTRUCTIONS_PATH ? {} : { bom: false }),
  };
  const finalNewline = existingDoc ? splitText(scan.files.get(existingDoc.path)!.text).finalNewline : true;
  return joinText({ ...style, lines: marked.lines, finalNewline: finalNewline && marked.lines.length > 0 });
}

/** The headings a file repeats among its siblings, merged into the first: one note per heading. */
function siblingNotes(merged: Merged[], target: string, linesOf: (p: string) => string[]): Note[] {
  const byHeading = new Map<string, Note & { kind: 'siblings-merged' }>();
  for (const m of merged) {
    if (m.keptAt.path !== m.path || !/^ {0,3}#{1,6}\s/.test(m.text)) continue;
    const key = `${m.path}:${m.keptAt.line}`;
    const note = byHeading.get(key);
    if (note) note.repeats.push(m.line);
    else
      byHeading.set(key, {
        kind: 'siblings-merged',
        path: m.path,
        heading: linesOf(m.path)[m.keptAt.line - 1]!,
        line: m.keptAt.line,
        repeats: [m.line],
        target,
      });
  }
  return [...byHeading.values()];
}

/** The sections of each file that repeat most of a section written already: one note per file. */
function twinNotes(twins: TwinSection[], target: string): Note[] {
  const byPath = new Map<string, Note & { kind: 'twin-sections' }>();
  for (const t of twins) {
    const note = byPath.get(t.path) ?? {
      kind: 'twin-sections',
      path: t.path,
      target,
      sections: [],
      merged: 0,
      kept: [],
      reworded: [],
      joined: t.joined,
    };
    byPath.set(t.path, note);
    note.sections.push({ ...t.heading, repeats: { path: t.repeats.path, text: t.repeats.text } });
    note.merged += t.merged;
    note.kept.push(...t.kept);
    note.reworded.push(...t.reworded);
  }
  return [...byPath.values()];
}

/** The units each file says again in one section, written once: one note per file. */
function repeatNotes(merged: Merged[], target: string): Note[] {
  const byPath = new Map<string, Note & { kind: 'repeats-once' }>();
  for (const m of merged.filter((x) => x.repeat)) {
    const note = byPath.get(m.path) ?? { kind: 'repeats-once', path: m.path, repeats: [], target };
    byPath.set(m.path, note);
    note.repeats.push({ line: m.line, keptAt: m.keptAt });
  }
  return [...byPath.values()];
}
