import { unclosedFence } from '../model/markdown-units.js';
import type { Unit } from '../model/model.js';
import { restructure, sameSection, sectionFor, type Merged } from './structure.js';
import { demoted, isLeadIn } from '../model/unit-shape.js';
import { isBlank } from '../common/text.js';
import { isLabelUnit } from '../analysis/trivial.js';

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

/** One unit written into a target, and the files whose equal unit was merged into it. */
interface Copy {
  unit: Unit;
  takenBy: Set<string>;
}

/**
 * The units written into one target so far, each copy once. A unit is merged away only into an
 * equal copy another file wrote, and each merge takes one copy for the merging file: a file that
 * says X three times finds three copies or writes the rest, while a copy is shared by every other
 * file that merges into it. A repeat inside one file is never removed.
 */
export class WrittenUnits {
  private readonly copies = new Map<string, Copy[]>();

  /** Record `u` as written; `keys` are the texts it is found again under (by default its own, `foundAs`). */
  add(u: Unit, keys: string[] = foundAs(u)): void {
    const copy: Copy = { unit: u, takenBy: new Set() };
    for (const k of new Set(keys)) {
      const list = this.copies.get(k);
      if (list) list.push(copy);
      else this.copies.set(k, [copy]);
    }
  }

  /**
   * Merge `u` into a copy from another file, under one of `keys`, that `u`'s file has not merged
   * into yet; its file cannot take that copy again. Undefined when there is none: `u` is written.
   */
  take(u: Unit, keys: string[] = [unitKey(u)]): Unit | undefined {
    const copy = this.free(u.path, keys);
    copy?.takenBy.add(u.path);
    return copy?.unit;
  }

  /** Whether every unit of `units` (all of one file) would find its own copy, without taking any. */
  covers(units: Unit[], keysOf: (u: Unit) => string[]): boolean {
    const reserved = new Set<Copy>();
    return units.every((u) => {
      const copy = this.free(u.path, keysOf(u), reserved);
      if (copy) reserved.add(copy);
      return copy !== undefined;
    });
  }

  /** Per key and file: where the search for a free copy starts (the copies before it are the file's own or taken by it, for good). */
  private readonly from = new Map<string, number>();

  private free(path: string, keys: string[], reserved?: Set<Copy>): Copy | undefined {
    for (const k of keys) {
      const list = this.copies.get(k);
      if (!list) continue;
      // Linear over a file of many identical units: what is passed once is never looked at again.
      const at = `${k}\0${path}`;
      let i = this.from.get(at) ?? 0;
      while (i < list.length && (list[i]!.unit.path === path || list[i]!.takenBy.has(path))) i++;
      this.from.set(at, i);
      for (let j = i; j < list.length; j++) {
        const c = list[j]!;
        if (c.unit.path !== path && !c.takenBy.has(path) && !reserved?.has(c)) return c;
      }
    }
    return undefined;
  }
}

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

/** The existing Copilot file as the plan keeps it: structured files as they are, flat files in sections. */
export function renderBase(path: string, fileLines: string[], units: Unit[], structured: boolean): Rendered {
  if (structured) return { lines: [...fileLines], refs: fileLines.map((l, i) => (isBlank(l) ? null : { path, line: i + 1 })) };
  const r = restructure(path, units);
  const refs: (LineRef | null)[] = r.lines.map(() => null);
  for (const p of r.provenance) {
    for (let i = 0; i <= p.to.endLine - p.to.startLine; i++) refs[p.to.startLine - 1 + i] = { path: p.from.path, line: p.from.startLine + i };
  }
  return { lines: r.lines, refs };
}

/** Units to add to a target, grouped under the `## ` heading they belong to. */
export interface Addition {
  heading: string;
  /** The source heading unit when the section comes verbatim from a source, null when the tool names it. */
  headingUnit: Unit | null;
  blocks: Unit[][];
  /** A heading its document had already: a section of its own, which never joins one of that name. */
  apart?: boolean;
}

/**
 * Sort a legacy document's units into sections: its own `## ` sections keep their heading; loose
 * rules go to the topic section they match. A unit equal to one another file already wrote into the
 * target is merged into that copy (`WrittenUnits`); a repeat inside the document is written again.
 *
 * Copilot's file has one title, so a legacy `# ` heading over new rules becomes the `## ` heading of
 * their section, one level down (`demoted`). A `# ` heading with nothing new under it goes, inside a
 * comment of the tool's (`titleLines`), to the section that follows it. Code travels with what it follows, a lead-in ending with ':' with its list, and, outside
 * a `## ` section, everything under a sub-heading with that sub-heading. Sections join by name,
 * except that a heading line the document already had opens a section of its own (`apart`).
 */
export function additionsFrom(units: Unit[], written: WrittenUnits, into: Map<string, Addition>, merged: Merged[]): void {
  let section: Addition | null = null;
  let open: Unit[] | null = null;
  let openLeadIn = false;
  let pendingTitle: Unit | null = null;
  /** Heading lines this document already wrote or merged into a copy: the same line again opens a section `apart`. */
  const named = new Set<string>();
  const flush = () => {
    if (!open) return;
    (section ?? ensure(into, topicHeading(open), null)).blocks.push(open);
    open = null;
  };
  /**
   * The section a source heading (`u`, as the `## ` line `heading` writes) opens: a copy of it from
   * another file takes it in; otherwise the section of that name, unless this document already had
   * this very heading line (then a section of its own, of the same name).
   */
  const sectionOf = (u: Unit, heading: Unit, keys: string[]): Addition => {
    const line = heading.lines[0]!.trimEnd();
    const dupOf = written.take(u, keys);
    let found = into.get(line) ?? null;
    if (!dupOf && named.has(unitKey(u))) {
      // The document repeats its own heading: a section of its own, never merged into the first.
      found = ensure(into, repeatKey(into, line), heading, line);
      found.apart = true;
      written.add(u, keys);
    } else if (found && !dupOf && found.headingUnit === null) {
      // The tool named this section; the source's own heading line takes its place.
      found.headingUnit = heading;
      written.add(u, keys);
    } else if (dupOf || found) {
      merged.push(mergedEntry(u, dupOf ?? found!.headingUnit!));
      found ??= ensure(into, line, null);
    } else {
      found = ensure(into, line, heading);
      written.add(u, keys);
    }
    named.add(unitKey(u));
    return found;
  };
  units.forEach((u, index) => {
    if (u.kind === 'heading' && u.level! <= 2) {
      flush();
      if (u.level === 1) {
        if (pendingTitle) ensure(into, generalHeading(), null).blocks.push([pendingTitle]);
        pendingTitle = null;
        if (hasNewContent(units, index, written) && headingText(u) !== '') {
          // A title over rules becomes the `## ` heading of their section, one `#` added.
          const heading = demoted(u);
          section = sectionOf(u, heading, [unitKey(u), unitKey(heading)]);
          return;
        }
        const dupOf = written.take(u, keysOf(u));
        if (dupOf) {
          merged.push(mergedEntry(u, dupOf));
          named.add(unitKey(u));
        } else written.add(u, [unitKey(u), titleKey(u)]);
        section = null;
        // A title with nothing under it is written, in a comment, with the next section.
        if (!dupOf) pendingTitle = u;
        return;
      }
      section = sectionOf(u, u, [unitKey(u)]);
      if (pendingTitle) section.blocks.push([pendingTitle]);
      pendingTitle = null;
      return;
    }
    const dupOf = mayMerge(units, index, written) ? written.take(u, keysOf(u)) : undefined;
    if (dupOf) {
      merged.push(mergedEntry(u, dupOf));
      return;
    }
    written.add(u);
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

/** The key of a section `apart`: a heading line its document repeats. */
function repeatKey(into: Map<string, Addition>, line: string): string {
  let n = 2;
  while (into.has(`${line}\u0000${n}`)) n++;
  return `${line}\u0000${n}`;
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

/**
 * The keys a unit of Copilot's file is found under: its text, and for a `# ` heading the tool kept in
 * a comment, that heading line too, whichever file's name the comment gives.
 */
function foundAs(u: Unit): string[] {
  const [note, line, close] = u.lines;
  const kept = u.kind === 'html' && u.lines.length === 3 && close!.trim() === '-->' && TITLE_NOTE_LINE.test(note!.trimEnd());
  return kept ? [unitKey(u), line!.trimEnd()] : [unitKey(u)];
}

const TITLE_NOTE_LINE = /^<!-- copilot-onboard: top-level heading from .*, kept as a comment \(one title per file\):$/;

/** The key under which a legacy `# ` heading, once written into Copilot's file, is found again. */
const titleKey = (u: Unit): string => titleLines(u).map((l) => l.trimEnd()).join('\n');

/** The key of a unit as `placed` writes it (an open code fence closed). */
const placedKey = (u: Unit): string => placed(u).lines.map((l) => l.trimEnd()).join('\n');

/** The keys a unit's copy may be found under: its text, as `placed` writes it, and for a `# ` heading its `## ` form too. */
const keysOf = (u: Unit): string[] =>
  u.kind === 'heading' && u.level === 1 ? [unitKey(u), titleKey(u), unitKey(demoted(u))] : [unitKey(u), placedKey(u)];

/** Whether anything that would not find its own copy stands under the heading at `index`, before the next `#` or `## ` heading. */
function hasNewContent(units: Unit[], index: number, written: WrittenUnits): boolean {
  let end = index + 1;
  while (end < units.length && !(units[end]!.kind === 'heading' && units[end]!.level! <= 2)) end++;
  return !written.covers(units.slice(index + 1, end), keysOf);
}

/**
 * Whether the unit at `index` may be merged into a copy already written: a sub-heading only with
 * everything under it, a label only with what it introduces, anything else always.
 */
function mayMerge(units: Unit[], index: number, written: WrittenUnits): boolean {
  const u = units[index]!;
  if (u.kind === 'heading') return subheadingRepeated(units, index, written);
  return !isLabelUnit(u) || introducesKnown(units, index, written);
}

/** A label ("**Example:**") is a repeat only when what it introduces, the unit after it, is one too; a label last in its file introduces nothing. */
function introducesKnown(units: Unit[], index: number, written: WrittenUnits): boolean {
  const next = units[index + 1];
  return next === undefined || written.covers([next], keysOf);
}

/** A sub-heading counts as a repeat only when everything under it is a repeat too. */
function subheadingRepeated(units: Unit[], index: number, written: WrittenUnits): boolean {
  let end = index + 1;
  while (end < units.length && units[end]!.kind !== 'heading') end++;
  return written.covers(units.slice(index, end), keysOf);
}

const generalHeading = () => `## ${sectionFor('').title}`;

/** The addition under `key` (its heading line, or a `repeatKey`), made when missing. */
function ensure(into: Map<string, Addition>, key: string, headingUnit: Unit | null, heading = key): Addition {
  let a = into.get(key);
  if (!a) {
    a = { heading, headingUnit, blocks: [] };
    into.set(key, a);
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
    additions.find((a) => !a.apart && a.heading === line) ?? additions.find((a) => a.headingUnit === null && sameSection(line, a.heading));
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
  const used = new Set<Addition>();
  const bounds = [...starts, base.lines.length];
  push({ lines: base.lines.slice(0, bounds[0]), refs: base.refs.slice(0, bounds[0]) });
  for (let s = 0; s < starts.length; s++) {
    const from = bounds[s]!;
    const to = bounds[s + 1]!;
    push({ lines: base.lines.slice(from, to), refs: base.refs.slice(from, to) });
    const a = additionFor(base.lines[from]!.trimEnd());
    if (a && !used.has(a)) {
      used.add(a);
      // A source heading that equals a heading already here is kept once, at that heading.
      if (a.headingUnit) merged.push(mergedEntry(a.headingUnit, { path: target, line: from + 1 } as Unit));
      trim();
      emitBlocks(a);
      if (to < base.lines.length) blank();
    }
  }
  for (const a of additions) {
    if (used.has(a) || (a.blocks.length === 0 && a.headingUnit === null)) continue;
    trim();
    blank();
    push(a.headingUnit ? fromUnit(a.headingUnit) : { lines: [a.heading], refs: [null] });
    emitBlocks(a);
  }
  trim();
  return out;
}

/** A legacy body kept as it is, minus units another file already wrote into the target, for a scoped file. */
export function bodyOf(fileLines: string[], bodyStart: number, units: Unit[], written: WrittenUnits, merged: Merged[], path: string): Rendered {
  const drop = new Set<number>();
  for (const [index, u] of units.entries()) {
    const dupOf = mayMerge(units, index, written) ? written.take(u) : undefined;
    if (dupOf) {
      merged.push(mergedEntry(u, dupOf));
      const start = u.line - 1;
      const end = start + u.lines.length;
      for (let i = start; i < end; i++) drop.add(i);
      // Take the blank line after a removed unit too, so no double gap is left behind.
      if ((start <= bodyStart || isBlank(fileLines[start - 1] ?? '')) && isBlank(fileLines[end] ?? 'x')) drop.add(end);
    } else written.add(u);
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
