import { unclosedFence } from './markdown-units.js';
import type { Unit } from './model.js';
import { demoted, isLeadIn, removeDuplicates, restructure, sameSection, sectionFor, type Merged } from './structure.js';
import { isBlank } from './text.js';
import { isLabelUnit } from './trivial.js';

/**
 * Output text with, for every line, the source line it came from (null for lines the tool added:
 * section headings, front matter, conflict marks, blank separators). Planning builds every target
 * file as one of these, so provenance and the lossless check come from the same record.
 */
export interface LineRef {
  path: string;
  line: number;
}

export interface Rendered {
  lines: string[];
  refs: (LineRef | null)[];
}

export const unitKey = (u: Unit): string => u.lines.map((l) => l.trimEnd()).join('\n');

function fromUnit(u: Unit): Rendered {
  return { lines: [...u.lines], refs: u.lines.map((_, i) => ({ path: u.path, line: u.line + i })) };
}

/** A unit as written among others: code left open to the end of its file gets a closing fence. */
function placed(u: Unit): Rendered {
  if (u.kind === 'heading' && u.level === 1) return titleOf(u);
  const fence = unclosedFence(u);
  const r = fromUnit(u);
  return fence ? { lines: [...r.lines, fence], refs: [...r.refs, null] } : r;
}

/** A legacy `# ` heading in its comment: only the heading line comes from the source. */
function titleOf(u: Unit): Rendered {
  const lines = titleLines(u);
  if (lines.length === 1) return fromUnit(u);
  return { lines, refs: [null, { path: u.path, line: u.line }, null] };
}

/** The existing Copilot file as the plan keeps it: structured files minus exact duplicates, flat files in sections. */
export function renderBase(path: string, fileLines: string[], units: Unit[], structured: boolean): Rendered & { merged: Merged[] } {
  if (structured) {
    const { lines, merged, kept } = removeDuplicates(fileLines, units);
    const refs = kept.map((i) => (isBlank(fileLines[i]!) ? null : { path, line: i + 1 }));
    return { lines, refs, merged };
  }
  const r = restructure(path, units);
  const refs: (LineRef | null)[] = r.lines.map(() => null);
  for (const p of r.provenance) {
    for (let i = 0; i <= p.to.endLine - p.to.startLine; i++) refs[p.to.startLine - 1 + i] = { path: p.from.path, line: p.from.startLine + i };
  }
  return { lines: r.lines, refs, merged: r.merged };
}

/** Units to add to a target, grouped under the `## ` heading they belong to. */
export interface Addition {
  heading: string;
  /** The source heading unit when the section comes verbatim from a source, null when the tool names it. */
  headingUnit: Unit | null;
  blocks: Unit[][];
}

/**
 * Sort a legacy document's units into sections: its own `## ` sections keep their heading; loose
 * rules go to the topic section they match. Units whose exact text is already present are merged.
 *
 * Copilot's file has one title, so a legacy `# ` heading over new rules becomes the `## ` heading of
 * their section, one level down (`demoted`). A `# ` heading with nothing new under it goes, inside a
 * comment of the tool's (`titleLines`), to the section that follows it. Code travels with what it follows, a lead-in ending with ':' with its list, and, outside
 * a `## ` section, everything under a sub-heading with that sub-heading.
 */
export function additionsFrom(units: Unit[], known: Map<string, Unit>, into: Map<string, Addition>, merged: Merged[]): void {
  let section: Addition | null = null;
  let open: Unit[] | null = null;
  let openLeadIn = false;
  let pendingTitle: Unit | null = null;
  const flush = () => {
    if (!open) return;
    (section ?? ensure(into, topicHeading(open), null)).blocks.push(open);
    open = null;
  };
  units.forEach((u, index) => {
    if (u.kind === 'heading' && u.level! <= 2) {
      flush();
      if (u.level === 1) {
        if (pendingTitle) ensure(into, generalHeading(), null).blocks.push([pendingTitle]);
        pendingTitle = null;
        const name = headingText(u);
        if (hasNewContent(units, index, known) && name !== '') {
          // A title over rules becomes the `## ` heading of their section, one `#` added.
          const heading = demoted(u);
          const dupOf = known.get(unitKey(u)) ?? known.get(unitKey(heading));
          section = into.get(heading.lines[0]!.trimEnd()) ?? null;
          if (section && !dupOf && section.headingUnit === null) section.headingUnit = heading;
          else if (dupOf || section) merged.push(mergedEntry(u, dupOf ?? section!.headingUnit!));
          section ??= ensure(into, heading.lines[0]!.trimEnd(), dupOf ? null : heading);
          known.set(unitKey(u), dupOf ?? u);
          if (!dupOf) known.set(unitKey(heading), heading);
          return;
        }
        const dupOf = known.get(unitKey(u)) ?? known.get(titleKey(u)) ?? known.get(unitKey(demoted(u)));
        if (dupOf) merged.push(mergedEntry(u, dupOf));
        known.set(unitKey(u), dupOf ?? u);
        section = null;
        // A title with nothing under it is written, in a comment, with the next section.
        if (!dupOf) pendingTitle = u;
        return;
      }
      const dupOf = known.get(unitKey(u));
      section = into.get(u.lines[0]!.trimEnd()) ?? null;
      if (section && !dupOf && section.headingUnit === null) {
        // The tool named this section; the source's own heading line takes its place.
        section.headingUnit = u;
        known.set(unitKey(u), u);
      } else if (dupOf || section) {
        merged.push(mergedEntry(u, dupOf ?? section!.headingUnit!));
        section ??= ensure(into, u.lines[0]!.trimEnd(), null);
      } else {
        section = ensure(into, u.lines[0]!.trimEnd(), u);
        known.set(unitKey(u), u);
      }
      if (pendingTitle) section.blocks.push([pendingTitle]);
      pendingTitle = null;
      return;
    }
    const dupOf = mayMerge(units, index, known) ? known.get(unitKey(u)) ?? known.get(placedKey(u)) : undefined;
    if (dupOf) {
      merged.push(mergedEntry(u, dupOf));
      return;
    }
    known.set(unitKey(u), u);
    if (open !== null && joins(open, openLeadIn, u, section === null)) {
      open.push(u);
      return;
    }
    flush();
    if (pendingTitle && section) {
      section.blocks.push([pendingTitle]);
      pendingTitle = null;
    }
    open = [u];
    openLeadIn = isLeadIn(units, index);
  });
  flush();
  if (pendingTitle) ensure(into, generalHeading(), null).blocks.push([pendingTitle]);
}

/** Whether `u` travels with the block before it (`leadIn`: the block starts with a lead-in to a list). */
function joins(block: Unit[], leadIn: boolean, u: Unit, loose: boolean): boolean {
  if (u.kind === 'code') return true;
  if (loose && block[0]!.kind === 'heading' && u.kind !== 'heading') return true;
  return u.kind === 'list-item' && leadIn && block.slice(1).every((x) => x.kind === 'list-item');
}

const topicHeading = (block: Unit[]): string => `## ${sectionFor(block.map((u) => u.lines.join('\n')).join('\n')).title}`;

/** The text of a heading line, without its `#` marks. */
const headingText = (u: Unit): string => u.lines[0]!.trim().replace(/^#+\s*/, '').replace(/\s+#+$/, '').trim();

const TITLE_NOTE = (path: string) => `<!-- copilot-onboard: top-level heading from ${path}, kept as a comment (one title per file):`;

/**
 * A legacy `# ` heading as it is written in Copilot's file: its line, byte for byte, inside a comment
 * of the tool's. A heading that would close the comment early is written as it is.
 */
export function titleLines(u: Unit): string[] {
  return u.lines[0]!.includes('-->') ? [...u.lines] : [TITLE_NOTE(u.path), u.lines[0]!, '-->'];
}

/** The key under which a legacy `# ` heading, once written into Copilot's file, is found again. */
const titleKey = (u: Unit): string => titleLines(u).map((l) => l.trimEnd()).join('\n');

/** The key of a unit as `placed` writes it (an open code fence closed). */
const placedKey = (u: Unit): string => placed(u).lines.map((l) => l.trimEnd()).join('\n');

/** Whether anything not already written stands under the heading at `index`, before the next `#` or `## ` heading. */
function hasNewContent(units: Unit[], index: number, known: Map<string, Unit>): boolean {
  for (let i = index + 1; i < units.length; i++) {
    const u = units[i]!;
    if (u.kind === 'heading' && u.level! <= 2) return false;
    if (!known.has(unitKey(u)) && !known.has(placedKey(u))) return true;
  }
  return false;
}

/**
 * Whether the unit at `index` may be merged into a copy already written: a sub-heading only with
 * everything under it, a label only with what it introduces, anything else always.
 */
function mayMerge(units: Unit[], index: number, known: Map<string, Unit>): boolean {
  const u = units[index]!;
  if (u.kind === 'heading') return subheadingRepeated(units, index, known);
  return !isLabelUnit(u) || introducesKnown(units, index, known);
}

/** A label ("**Example:**") is a repeat only when what it introduces, the unit after it, is one too. */
function introducesKnown(units: Unit[], index: number, known: Map<string, Unit>): boolean {
  const next = units[index + 1];
  return next !== undefined && (known.has(unitKey(next)) || known.has(placedKey(next)));
}

/** A sub-heading counts as a repeat only when everything under it is a repeat too. */
function subheadingRepeated(units: Unit[], index: number, known: Map<string, Unit>): boolean {
  if (!known.has(unitKey(units[index]!))) return false;
  for (let i = index + 1; i < units.length && units[i]!.kind !== 'heading'; i++) {
    if (!known.has(unitKey(units[i]!))) return false;
  }
  return true;
}

const generalHeading = () => `## ${sectionFor('').title}`;

function ensure(into: Map<string, Addition>, heading: string, headingUnit: Unit | null): Addition {
  let a = into.get(heading);
  if (!a) {
    a = { heading, headingUnit, blocks: [] };
    into.set(heading, a);
  }
  return a;
}

function mergedEntry(u: Unit, kept: Unit): Merged {
  return { path: u.path, line: u.line, lines: u.lines.length, keptAt: { path: kept.path, line: kept.line }, text: u.lines.join('\n') };
}

const SECTION_HEADING = /^##(?!#)\s/;
const FENCE = /^\s*(`{3,}|~{3,})/;

/** Index of each `## ` heading line outside fenced code. */
function sectionStarts(lines: string[]): number[] {
  const starts: number[] = [];
  let fence: string | null = null;
  lines.forEach((l, i) => {
    const f = FENCE.exec(l);
    if (f) fence = fence === null ? f[1]![0]! : l.trim().startsWith(fence) ? null : fence;
    else if (fence === null && SECTION_HEADING.test(l)) starts.push(i);
  });
  return starts;
}

/** Put each addition at the end of the base's section of the same heading, or in a new section at the end. */
export function appendAdditions(base: Rendered, additions: Addition[], target: string, merged: Merged[]): Rendered {
  const starts = sectionStarts(base.lines);
  // A section the tool named also joins an existing section whose heading differs only in case or spacing.
  const additionFor = (line: string) =>
    additions.find((a) => a.heading === line) ?? additions.find((a) => a.headingUnit === null && sameSection(line, a.heading));
  const out: Rendered = { lines: [], refs: [] };
  const push = (r: Rendered) => {
    out.lines.push(...r.lines);
    out.refs.push(...r.refs);
  };
  const blank = () => {
    if (out.lines.length > 0 && !isBlank(out.lines[out.lines.length - 1]!)) push({ lines: [''], refs: [null] });
  };
  const trim = () => {
    while (out.lines.length > 0 && isBlank(out.lines[out.lines.length - 1]!)) {
      out.lines.pop();
      out.refs.pop();
    }
  };
  const emitBlocks = (a: Addition) => {
    let prev: Unit[] | null = null;
    for (const block of a.blocks) {
      const tight = prev && prev[prev.length - 1]!.kind === 'list-item' && block[0]!.kind === 'list-item' && !block[0]!.blankBefore && prev[0]!.path === block[0]!.path;
      if (!tight) blank();
      block.forEach((u, i) => {
        if (i > 0 && u.blankBefore) blank();
        push(placed(u));
      });
      prev = block;
    }
  };
  const used = new Set<string>();
  const bounds = [...starts, base.lines.length];
  push({ lines: base.lines.slice(0, bounds[0]), refs: base.refs.slice(0, bounds[0]) });
  for (let s = 0; s < starts.length; s++) {
    const from = bounds[s]!;
    const to = bounds[s + 1]!;
    push({ lines: base.lines.slice(from, to), refs: base.refs.slice(from, to) });
    const a = additionFor(base.lines[from]!.trimEnd());
    if (a && !used.has(a.heading)) {
      used.add(a.heading);
      // A source heading that equals a heading already here is kept once, at that heading.
      if (a.headingUnit) merged.push(mergedEntry(a.headingUnit, { path: target, line: from + 1 } as Unit));
      trim();
      emitBlocks(a);
      if (to < base.lines.length) blank();
    }
  }
  for (const a of additions) {
    if (used.has(a.heading) || (a.blocks.length === 0 && a.headingUnit === null)) continue;
    trim();
    blank();
    push(a.headingUnit ? fromUnit(a.headingUnit) : { lines: [a.heading], refs: [null] });
    emitBlocks(a);
  }
  trim();
  return out;
}

/** A legacy body kept as it is, minus units already present, for a scoped file. */
export function bodyOf(fileLines: string[], bodyStart: number, units: Unit[], known: Map<string, Unit>, merged: Merged[], path: string): Rendered {
  const drop = new Set<number>();
  for (const [index, u] of units.entries()) {
    const dupOf = known.get(unitKey(u));
    if (dupOf && mayMerge(units, index, known)) {
      merged.push(mergedEntry(u, dupOf));
      const start = u.line - 1;
      const end = start + u.lines.length;
      for (let i = start; i < end; i++) drop.add(i);
      // Take the blank line after a removed unit too, so no double gap is left behind.
      if ((start <= bodyStart || isBlank(fileLines[start - 1] ?? '')) && isBlank(fileLines[end] ?? 'x')) drop.add(end);
    } else known.set(unitKey(u), u);
  }
  const out: Rendered = { lines: [], refs: [] };
  for (let i = bodyStart; i < fileLines.length; i++) {
    if (drop.has(i)) continue;
    const line = fileLines[i]!;
    if (isBlank(line) && out.lines.length === 0) continue;
    out.lines.push(line);
    out.refs.push(isBlank(line) ? null : { path, line: i + 1 });
  }
  while (out.lines.length > 0 && isBlank(out.lines[out.lines.length - 1]!)) {
    out.lines.pop();
    out.refs.pop();
  }
  return out;
}

/**
 * Insert a comment line before the first output line of each marked source unit, unless a mark
 * right above it (from an earlier migration) already names the same topics, in whatever order.
 */
export function insertMarks(r: Rendered, marks: Map<string, string>): Rendered {
  if (marks.size === 0) return r;
  const out: Rendered = { lines: [], refs: [] };
  r.lines.forEach((line, i) => {
    const ref = r.refs[i];
    const mark = ref ? marks.get(`${ref.path}:${ref.line}`) : undefined;
    if (mark && !markCovers(out.lines[out.lines.length - 1], mark)) {
      out.lines.push(mark);
      out.refs.push(null);
    }
    out.lines.push(line);
    out.refs.push(ref ?? null);
  });
  return out;
}

const MARK_TOPICS = /^<!-- copilot-onboard: conflicting rules about (.*); decide which one stands -->$/;

/** Whether the line above is a conflict mark naming every topic `mark` names. */
function markCovers(above: string | undefined, mark: string): boolean {
  if (above === undefined) return false;
  if (above === mark) return true;
  const have = MARK_TOPICS.exec(above.trim())?.[1]?.split(' and ');
  const want = MARK_TOPICS.exec(mark)?.[1]?.split(' and ');
  return have !== undefined && want !== undefined && want.every((t) => have.includes(t));
}
