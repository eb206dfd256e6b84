import { splitUnits, unclosedFence } from '../model/markdown-units.js';
import type { Unit } from '../model/model.js';
import { blockTopic, restructure, sameSection, type Merged } from './structure.js';
import { SECTION_TOPICS } from './section-topics.js';
import { demoted, isToolMark } from '../model/unit-shape.js';
import { isBlank } from '../common/text.js';
import {
  asHeading,
  blocksOf,
  headingKey,
  headingText,
  isFileNameTitle,
  isSortable,
  isSplitLine,
  isStructural,
  outlineUnits,
  splitRuleLines,
  type Block,
} from './outline.js';
import { byCodeUnit } from '../common/collections.js';

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

/** A key for a unit under the heading `ctx` (its heading's words; '' under none). */
export const ctxKey = (ctx: string, text: string): string => `${ctx}\u0001${text}`;
/**
 * The keys a unit is found under wherever it stands, heading aside: used only to see that a whole
 * document is written already (a second plan after a migration), never to merge a part of one.
 */
export const plainKeys = (u: Unit): string[] =>
  u.kind === 'heading' ? [`P\u0001H${headingKey(u.lines[0]!)}`] : [`P\u0001${unitKey(u)}`, `P\u0001${placedKey(u)}`];

/** A key for a heading under the heading `parent`. */
export const headKey = (parent: string, line: string): string => `H${parent}\u0001${headingKey(line)}`;

/**
 * The units written into one target so far, each copy once. A unit is merged away only into an
 * equal copy another file wrote under the same heading, and each merge takes one copy for the
 * merging file: a file that says X three times finds three copies or writes the rest, while a copy
 * is shared by every other file that merges into it. A repeat inside one file is never removed.
 */
export class WrittenUnits {
  private readonly copies = new Map<string, Copy[]>();
  /** Per file added without keys: the headings above the last unit, to know what heading a unit stands under. */
  private readonly stacks = new Map<string, { level: number; key: string }[]>();

  /**
   * Record `u` as written; `keys` are the texts it is found again under. Without keys (a unit of a
   * file already in the target, added in file order) it is found under its heading's words, and by
   * a rule that stood under no heading wherever it is.
   */
  add(u: Unit, keys?: string[]): void {
    if (keys) {
      this.register({ unit: u, takenBy: new Set() }, [...keys, ...plainKeys(u)]);
      return;
    }
    const stack = this.stacks.get(u.path) ?? [];
    this.stacks.set(u.path, stack);
    if (u.kind === 'heading') {
      // A `# ` heading below the first section of a Copilot file is no chapter: what follows stays in that section.
      const stray = u.level === 1 && stack.length > 0;
      while (!stray && stack.length > 0 && stack[stack.length - 1]!.level >= u.level!) stack.pop();
      const parent = stack[stack.length - 1]?.key ?? '';
      // A heading may have been a pseudo-heading line in a source ("**Release:**"): found as that line too.
      const line = u.lines[0]!.replace(/^ {0,3}#{1,6} /, '').trimEnd();
      this.register({ unit: u, takenBy: new Set() }, [
        headKey('', u.lines[0]!),
        headKey(parent, u.lines[0]!),
        ...plainKeys(u),
        ctxKey('', line),
        `P\u0001${line}`,
      ]);
      if (!stray) stack.push({ level: u.level!, key: headingKey(u.lines[0]!) });
      return;
    }
    const ctx = stack[stack.length - 1]?.key ?? '';
    const texts = foundAs(u);
    const keyList = [...texts.flatMap((t) => [ctxKey('', t), ctxKey(ctx, t)]), ...plainKeys(u)];
    // A one-line unit may be what a source's pseudo-heading says, once made a heading.
    if (u.lines.length === 1 && (u.kind === 'paragraph' || u.kind === 'list-item'))
      keyList.push(headKey('', u.lines[0]!), headKey(ctx, u.lines[0]!), `P\u0001H${headingKey(u.lines[0]!)}`);
    const title = keptTitle(u);
    if (title) keyList.push(headKey('', title), `P\u0001H${headingKey(title)}`);
    this.register({ unit: u, takenBy: new Set() }, keyList);
    // A unit here may come in parts from a file that had them apart: cut where a person starts a new unit.
    const pieces = splitRuleLines([u]);
    if (pieces.length > 1)
      for (const part of pieces)
        this.register({ unit: part, takenBy: new Set() }, [ctxKey('', unitKey(part)), ctxKey(ctx, unitKey(part)), ...plainKeys(part)]);
    // Lines of one paragraph here may come, one rule per line, from a file that had them apart.
    else if (u.kind === 'paragraph' && u.lines.length > 1) {
      u.lines.forEach((line, k) => {
        const part: Unit = { ...u, line: u.line + k, lines: [line] };
        this.register({ unit: part, takenBy: new Set() }, [ctxKey('', line.trimEnd()), ctxKey(ctx, line.trimEnd()), ...plainKeys(part)]);
      });
    }
  }

  private register(copy: Copy, keys: string[]): void {
    for (const k of new Set(keys)) {
      const list = this.copies.get(k);
      if (list) list.push(copy);
      else this.copies.set(k, [copy]);
    }
  }

  /**
   * Merge `u` into a copy from another file, under one of `keys`, that `u`'s file has not merged
   * into yet (and that `accept` takes); its file cannot take that copy again. Undefined when there
   * is none: `u` is written.
   */
  take(u: Unit, keys: string[], accept?: (copy: Unit) => boolean): Unit | undefined {
    const copy = this.free(u.path, keys, undefined, accept);
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

  private free(path: string, keys: string[], reserved?: Set<Copy>, accept?: (copy: Unit) => boolean): Copy | undefined {
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
        if (c.unit.path !== path && !c.takenBy.has(path) && !reserved?.has(c) && (!accept || accept(c.unit))) return c;
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
    for (let i = 0; i <= p.to.endLine - p.to.startLine; i++)
      refs[p.to.startLine - 1 + i] = { path: p.from.path, line: p.from.startLine + i };
  }
  return { lines: r.lines, refs };
}

/**
 * A section to add to a target: its heading, the blocks right under it, and its sub-sections. The
 * top-level additions are `## ` sections; one addition (`top`) holds what goes right under the
 * target's head, before its first section.
 */
export interface Addition {
  heading: string;
  /** The source heading unit (as written: moved down with its tree) when the section comes from a source, null when the tool names it. */
  headingUnit: Unit | null;
  blocks: Unit[][];
  children: Addition[];
  /** What goes under the target's head, before its first section: rules that matched no topic, a file's intro. */
  top?: boolean;
  /** The `## ` heading line of the target's own section this addition's content goes to the end of. */
  intoTarget?: string;
}

const TOP = '\u0000top';
/** Per map of additions: the addition each written heading unit opened, so an equal heading from another file joins it. */
const registries = new WeakMap<Map<string, Addition>, Map<Unit, Addition>>();

/** A unit of a legacy document as it is placed: its heading (moved down with its tree) and the heading it stands under. */
interface Placed {
  unit: Unit;
  /** Heading words of the heading above ('' under none); for a heading, of its parent. */
  ctx: string;
}

/**
 * Read a legacy document's units into the additions of Copilot's file, as a careful maintainer
 * would. The document keeps its own shape: rule lines of a flat paragraph stand apart,
 * pseudo-headings become headings, and its headings move as a tree, all levels together, below one
 * `## ` heading that names what the file is about (its title: `# Guide` becomes `## Guide`). A title
 * that only names a file (`# CLAUDE.md`) names no subject: it is kept in a comment of the tool's, and
 * the file's own chapters become `## ` sections. Sections with the same name from different files or
 * chapters are not merged: only a heading with the same words under the same parent heading is one
 * section. Loose standalone rules (under no heading) go to the section of their topic on a confident
 * match, else under the target's head. Units move whole: a lead-in with its list, a line with the
 * lines that answer it, code with what it follows. A unit, or a heading with everything under it,
 * equal to one another file already wrote under the same heading is merged into that copy
 * (`WrittenUnits`); separators, tags, table rows and code are never merged alone; a repeat inside
 * the document is written again.
 */
export function additionsFrom(sourceUnits: Unit[], written: WrittenUnits, into: Map<string, Addition>, merged: Merged[]): void {
  const placedUnits = placeDocument(sourceUnits);
  if (placedUnits.length === 0) return;
  let registry = registries.get(into);
  if (!registry) registries.set(into, (registry = new Map()));
  const reg = registry;
  const ctxOf = new Map(placedUnits.map((p) => [p.unit, p.ctx]));
  const lookup = (u: Unit): string[] => {
    const ctx = ctxOf.get(u) ?? '';
    if (u.kind === 'heading' && u.level === 1) return [headKey('', u.lines[0]!)];
    if (u.kind === 'heading') return [headKey(ctx, u.lines[0]!)];
    // A one-line rule is the same rule wherever it stands; a longer unit only under the same heading.
    return oneLineRule(u) ? [ctxKey(ctx, unitKey(u)), ctxKey('', unitKey(u))] : [ctxKey(ctx, unitKey(u)), ctxKey(ctx, placedKey(u))];
  };
  const addKeys = (u: Unit): string[] => {
    const ctx = ctxOf.get(u) ?? '';
    if (u.kind === 'heading' && u.level === 1) return [headKey('', u.lines[0]!), titleKey(u)];
    if (u.kind === 'heading') return [headKey(ctx, u.lines[0]!)];
    return oneLineRule(u) ? [ctxKey(ctx, unitKey(u)), ctxKey('', unitKey(u))] : [ctxKey(ctx, unitKey(u))];
  };
  const top = (): Addition => {
    let a = into.get(TOP);
    if (!a) into.set(TOP, (a = { heading: '', headingUnit: null, blocks: [], children: [], top: true }));
    return a;
  };
  const takeAll = (units: Unit[]) => {
    for (const u of units) merged.push(mergedEntry(u, written.take(u, lookup(u))!));
  };

  const stack: { level: number; node: Addition }[] = [];
  const units = placedUnits.map((p) => p.unit);
  const flat = !units.some((u) => u.kind === 'heading' && u.level! >= 2);
  // A document whose every unit is written already (a second plan after a migration) adds nothing.
  if (written.covers(units, plainKeys)) {
    // Each into its copy under the same heading when there is one, else into any copy.
    for (const u of units) {
      const copy = written.take(u, [...lookup(u), ...plainKeys(u)]) ?? written.take(u, plainKeys(u));
      if (copy) merged.push(mergedEntry(u, copy));
      else {
        written.add(u, addKeys(u));
        top().blocks.push([u]);
      }
    }
    return;
  }
  let i = 0;
  while (i < units.length) {
    const u = units[i]!;
    if (u.kind === 'heading' && u.level! >= 2) {
      let end = i + 1;
      while (end < units.length && !(units[end]!.kind === 'heading' && units[end]!.level! <= u.level!)) end++;
      const subtree = units.slice(i, end);
      // A heading with everything under it already written, under the same parent: one copy.
      if (written.covers(subtree, lookup)) {
        takeAll(subtree);
        i = end;
        continue;
      }
      while (stack.length > 0 && stack[stack.length - 1]!.level >= u.level!) stack.pop();
      const parent = stack[stack.length - 1]?.node ?? null;
      // The same heading under the same parent: a section another source opened, or a `## ` section of the target itself.
      const joinsTarget = (c: Unit) => !parent && u.level === 2 && c.kind === 'heading' && c.level === 2;
      const copy = written.take(u, lookup(u), (c) => reg.has(c) || joinsTarget(c));
      let node: Addition;
      if (copy && !reg.has(copy)) {
        merged.push(mergedEntry(u, copy));
        node = { heading: copy.lines[0]!, headingUnit: null, blocks: [], children: [], intoTarget: copy.lines[0]!.trimEnd() };
        reg.set(copy, node);
        into.set(`${copy.lines[0]!.trimEnd()}\u0000${into.size}`, node);
      } else if (copy) {
        merged.push(mergedEntry(u, copy));
        node = reg.get(copy)!;
      } else {
        node = { heading: u.lines[0]!, headingUnit: u, blocks: [], children: [] };
        written.add(u, addKeys(u));
        reg.set(u, node);
        if (parent) parent.children.push(node);
        // A `### ` section under no `## ` one stands under the target's title, above its first section.
        else if (u.level! > 2) top().children.push(node);
        else into.set(`${u.lines[0]!.trimEnd()}\u0000${into.size}`, node);
      }
      stack.push({ level: u.level!, node });
      i++;
      continue;
    }
    if (u.kind === 'heading') {
      // A title that names a file, in a comment of the tool's under the target's head.
      const copy = written.take(u, lookup(u));
      if (copy) merged.push(mergedEntry(u, copy));
      else {
        written.add(u, addKeys(u));
        top().blocks.push([u]);
      }
      stack.length = 0;
      i++;
      continue;
    }
    let end = i;
    while (end < units.length && units[end]!.kind !== 'heading') end++;
    const node = stack[stack.length - 1]?.node ?? null;
    for (const block of blocksOf(units.slice(i, end), isToolMark)) {
      const kept = keptUnits(block.units, written, lookup, addKeys, merged);
      if (kept.length === 0) continue;
      if (node) {
        node.blocks.push(kept);
        continue;
      }
      // Sorted by topic only where nothing else gives structure: a document without headings.
      const topic = flat && isSortable(block) && kept.length === block.units.length ? blockTopic(block) : null;
      if (topic) ensure(into, `## ${topic.title}`, null).blocks.push(kept);
      else top().blocks.push(kept);
    }
    i = end;
  }
}

/**
 * The units of a block that are written: a block whose every unit has a copy from another file is
 * merged whole; otherwise a lone unit is merged when it has one and is not a separator, tag, table
 * row or code; the units of a lead-in with its list, or of a line and its answer, stay together.
 */
function keptUnits(
  units: Unit[],
  written: WrittenUnits,
  lookup: (u: Unit) => string[],
  addKeys: (u: Unit) => string[],
  merged: Merged[],
): Unit[] {
  const structural = units.length === 1 && isStructural(units[0]!);
  if (!structural && written.covers(units, lookup)) {
    for (const u of units) merged.push(mergedEntry(u, written.take(u, lookup(u))!));
    return [];
  }
  for (const u of units) written.add(u, addKeys(u));
  return units;
}

/**
 * A legacy document's units as they are placed in Copilot's file: rule lines apart, pseudo-headings
 * as headings, and every heading moved down with its tree below the title that names the file's
 * subject (or, under a title that names only a file, so that its chapters are `## ` sections).
 */
function placeDocument(sourceUnits: Unit[]): Placed[] {
  const units = outlineUnits(sourceUnits).units;
  if (units.length === 0) return [];
  const first = units[0]!;
  const h1s = units.filter((u) => u.kind === 'heading' && u.level === 1);
  const isNameTitle = (u: Unit) =>
    u.kind === 'heading' &&
    u.level === 1 &&
    (isFileNameTitle(u.lines[0]!) || headingText(u.lines[0]!) === '' || (u === first && units.length === 1));
  // A title with nothing under it names no section: it is kept in a comment, as a title naming a file is.
  const subject =
    first.kind === 'heading' && first.level === 1 && h1s.length === 1 && units.length > 1 && !isNameTitle(first) ? first : null;
  const levels = units.filter((u) => u.kind === 'heading' && u !== subject && !isNameTitle(u)).map((u) => u.level!);
  const min = levels.length > 0 ? Math.min(...levels) : Infinity;
  const by = min === Infinity ? 0 : Math.max(0, (subject ? 3 : 2) - min);
  const out: Placed[] = [];
  const stack: { level: number; key: string }[] = [];
  for (const u of units) {
    if (u.kind === 'heading' && (u === subject || !isNameTitle(u))) {
      const h = u === subject ? demoted(u) : by > 0 ? asHeading(u, u.level! + by) : u;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level!) stack.pop();
      out.push({ unit: h, ctx: stack[stack.length - 1]?.key ?? '' });
      stack.push({ level: h.level!, key: headingKey(h.lines[0]!) });
      continue;
    }
    if (u.kind === 'heading') {
      // A title naming a file: kept in a comment; what stands under it stands under no subject.
      stack.length = 0;
      out.push({ unit: u, ctx: '' });
      continue;
    }
    out.push({ unit: u, ctx: stack[stack.length - 1]?.key ?? '' });
  }
  return out;
}

/** The text of a heading line, without its `#` marks. */
const TITLE_NOTE = (path: string) => `<!-- copilot-onboard: top-level heading from ${path}, kept as a comment (one title per file):`;

/**
 * A legacy `# ` heading as it is written in Copilot's file: its line, byte for byte, inside a comment
 * of the tool's. A heading that would close the comment early is written as it is.
 */
export function titleLines(u: Unit): string[] {
  return u.lines[0]!.includes('-->') ? [...u.lines] : [TITLE_NOTE(u.path), u.lines[0]!, '-->'];
}

/** The texts a unit of Copilot's file is found under. */
function foundAs(u: Unit): string[] {
  return [unitKey(u)];
}

/** The `# ` heading line the tool kept in a comment, whichever file's name the comment gives, or null. */
function keptTitle(u: Unit): string | null {
  const [note, line, close] = u.lines;
  const kept = u.kind === 'html' && u.lines.length === 3 && close!.trim() === '-->' && TITLE_NOTE_LINE.test(note!.trimEnd());
  return kept ? line!.trimEnd() : null;
}

const TITLE_NOTE_LINE = /^<!-- copilot-onboard: top-level heading from .*, kept as a comment \(one title per file\):$/;

/** The key under which a legacy `# ` heading, once written into Copilot's file, is found again. */
const titleKey = (u: Unit): string =>
  ctxKey(
    '',
    titleLines(u)
      .map((l) => l.trimEnd())
      .join('\n'),
  );

/** A rule of one line (a bullet or a sentence), not a separator, tag, table row or code. */
const oneLineRule = (u: Unit): boolean => (u.kind === 'list-item' || u.kind === 'paragraph') && u.lines.length === 1 && !isStructural(u);

/** The key of a unit as `placed` writes it (an open code fence closed). */
const placedKey = (u: Unit): string =>
  placed(u)
    .lines.map((l) => l.trimEnd())
    .join('\n');

/** The addition under `key` (its heading line), made when missing. */
function ensure(into: Map<string, Addition>, key: string, headingUnit: Unit | null, heading = key): Addition {
  let a = into.get(key);
  if (!a) {
    a = { heading, headingUnit, blocks: [], children: [] };
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

/** Whether nothing of an addition would be written. */
const isEmpty = (a: Addition): boolean => a.blocks.length === 0 && a.children.every(isEmpty) && a.headingUnit === null;

/**
 * Put the additions into the base: what goes on top right under its head, a section the tool named
 * (a topic) at the end of the base's section of that name, every other section after the base's, in
 * the order the sources give, each with its sub-sections under it.
 */
export function appendAdditions(base: Rendered, additions: Addition[], target: string, merged: Merged[]): Rendered {
  void target;
  void merged;
  // An empty Copilot file gets the title a new one has, so nothing it receives opens it like front matter (`---`).
  if (base.lines.every(isBlank) && additions.some((a) => !isEmpty(a))) base = { lines: ['# Copilot instructions'], refs: [null] };
  let starts = sectionStarts(base.lines);
  // A target with no section gets none from its sources either: its rules are sorted by topic as a flat file's are.
  if (starts.length === 0 && additions.every((a) => a.top || isEmpty(a))) additions = sortedTop(additions);
  // Rules for the top of a file that starts with a section go under a title the tool adds, never first in the file.
  if (
    additions.some((a) => a.top && (a.blocks.length > 0 || !a.children.every(isEmpty))) &&
    base.lines.slice(0, starts[0] ?? base.lines.length).every(isBlank)
  ) {
    base = { lines: ['# Copilot instructions', '', ...base.lines], refs: [null, null, ...base.refs] };
    starts = sectionStarts(base.lines);
  }
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
  const emitBlocks = (blocks: Unit[][]) => {
    let prev: Unit[] | null = null;
    for (const block of blocks) {
      const last = prev?.[prev.length - 1];
      const first = block[0]!;
      const sameFile = prev !== null && prev[0]!.path === first.path && !first.blankBefore;
      const tight = sameFile && ((last!.kind === 'list-item' && first.kind === 'list-item') || (isSplitLine(last!) && isSplitLine(first)));
      if (!tight) blank();
      block.forEach((u, i) => {
        if (i > 0 && u.blankBefore) blank();
        push(placed(u));
      });
      prev = block;
    }
  };
  const emitSection = (a: Addition) => {
    if (isEmpty(a)) return;
    trim();
    blank();
    push(a.headingUnit ? fromUnit(a.headingUnit) : { lines: [a.heading], refs: [null] });
    emitBlocks(a.blocks);
    for (const c of a.children) emitSection(c);
  };
  const topics = additions.filter((a) => a.headingUnit === null && !a.top && !a.intoTarget);
  const used = new Set<Addition>();
  const bounds = [...starts, base.lines.length];
  push({ lines: base.lines.slice(0, bounds[0]), refs: base.refs.slice(0, bounds[0]) });
  for (const a of additions.filter((x) => x.top)) {
    if (a.blocks.length === 0 && a.children.every(isEmpty)) continue;
    trim();
    emitBlocks(a.blocks);
    for (const c of a.children) emitSection(c);
    if (starts.length > 0) blank();
  }
  for (let s = 0; s < starts.length; s++) {
    const from = bounds[s]!;
    const to = bounds[s + 1]!;
    push({ lines: base.lines.slice(from, to), refs: base.refs.slice(from, to) });
    // A section the tool named joins an existing section whose heading has the same words.
    const line = base.lines[from]!.trimEnd();
    const joined = [
      ...additions.filter((x) => !used.has(x) && x.intoTarget === line),
      ...topics.filter((t) => !used.has(t) && !t.intoTarget && sameSection(line, t.heading)).slice(0, 1),
    ];
    if (joined.some((x) => !isEmpty({ ...x, headingUnit: null }))) {
      trim();
      for (const a of joined) {
        emitBlocks(a.blocks);
        for (const c of a.children) emitSection(c);
      }
      if (to < base.lines.length) blank();
    }
    for (const a of joined) used.add(a);
  }
  for (const a of additions) {
    if (used.has(a) || a.top) continue;
    // Content for a target section that is not there (the target was restructured): under that heading, written by the tool.
    emitSection(a.intoTarget && !isEmpty({ ...a, headingUnit: null }) ? { ...a, intoTarget: undefined } : a);
  }
  trim();
  return flatAgain(target, out);
}

/**
 * A target that still has no section is read as a flat file is: what its sources put side by side
 * (a label from one, a rule from another) is put in shape now, so a second plan finds nothing to do.
 */
function flatAgain(target: string, r: Rendered): Rendered {
  if (sectionStarts(r.lines).length > 0 || r.lines.length === 0) return r;
  const units = splitUnits(target, r.lines);
  const again = restructure(target, units);
  const refs: (LineRef | null)[] = again.lines.map(() => null);
  for (const p of again.provenance) {
    for (let i = 0; i <= p.to.endLine - p.to.startLine; i++) refs[p.to.startLine - 1 + i] = r.refs[p.from.startLine - 1 + i] ?? null;
  }
  return { lines: again.lines, refs };
}

/** The top blocks of a target without sections, sorted as `restructure` sorts a flat file: a confident topic, or in place. */
function sortedTop(additions: Addition[]): Addition[] {
  const top: Addition = {
    heading: '',
    headingUnit: null,
    blocks: [],
    children: additions.filter((a) => a.top).flatMap((a) => a.children),
    top: true,
  };
  const byTopic = new Map<string, Addition>();
  for (const block of additions.filter((a) => a.top).flatMap((a) => a.blocks)) {
    const b = { units: block, blankBefore: block[0]!.blankBefore };
    const topic = isSortable(b) ? blockTopic(b) : null;
    if (!topic) top.blocks.push(block);
    else {
      if (!byTopic.has(topic.id)) byTopic.set(topic.id, { heading: `## ${topic.title}`, headingUnit: null, blocks: [], children: [] });
      byTopic.get(topic.id)!.blocks.push(block);
    }
  }
  return [top, ...SECTION_TOPICS.filter((t) => byTopic.has(t.id)).map((t) => byTopic.get(t.id)!)];
}

/** A legacy body kept as it is, minus units another file already wrote into the target under the same heading, for a scoped file. */
export function bodyOf(
  fileLines: string[],
  bodyStart: number,
  units: Unit[],
  written: WrittenUnits,
  merged: Merged[],
  path: string,
): Rendered {
  const drop = new Set<number>();
  const ctx: string[] = [];
  const stack: { level: number; key: string }[] = [];
  for (const u of units) {
    if (u.kind === 'heading') {
      // As `WrittenUnits` reads a file of the target: a `# ` heading below a section opens no chapter.
      const stray = u.level === 1 && stack.length > 0;
      while (!stray && stack.length > 0 && stack[stack.length - 1]!.level >= u.level!) stack.pop();
      ctx.push(stack[stack.length - 1]?.key ?? '');
      if (!stray) stack.push({ level: u.level!, key: headingKey(u.lines[0]!) });
    } else ctx.push(stack[stack.length - 1]?.key ?? '');
  }
  const keysOf = (index: number) => {
    const u = units[index]!;
    if (u.kind === 'heading') return [headKey(ctx[index]!, u.lines[0]!)];
    return oneLineRule(u) ? [ctxKey(ctx[index]!, unitKey(u)), ctxKey('', unitKey(u))] : [ctxKey(ctx[index]!, unitKey(u))];
  };
  const all = written.covers(units, plainKeys);
  for (const [index, u] of units.entries()) {
    // A heading is merged only with everything under it; separators, tags, table rows and code never alone.
    const mayMerge = all || (u.kind === 'heading' ? subtreeCovered(units, index, written, keysOf) : !isStructural(u));
    const dupOf = mayMerge
      ? all
        ? (written.take(u, [...keysOf(index), ...plainKeys(u)]) ?? written.take(u, plainKeys(u)))
        : written.take(u, keysOf(index))
      : undefined;
    if (dupOf) {
      merged.push(mergedEntry(u, dupOf));
      const start = u.line - 1;
      const end = start + u.lines.length;
      for (let i = start; i < end; i++) drop.add(i);
      // Take the blank line after a removed unit too, so no double gap is left behind.
      if ((start <= bodyStart || isBlank(fileLines[start - 1] ?? '')) && isBlank(fileLines[end] ?? 'x')) drop.add(end);
    } else written.add(u, keysOf(index));
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

/** Whether a heading and everything under it, up to the next heading, would each find a copy. */
function subtreeCovered(units: Unit[], index: number, written: WrittenUnits, keysOf: (i: number) => string[]): boolean {
  let end = index + 1;
  while (end < units.length && units[end]!.kind !== 'heading') end++;
  const idx = new Map(units.map((u, i) => [u, i]));
  return written.covers(units.slice(index, end), (u) => keysOf(idx.get(u)!));
}

/**
 * The notes for lines the plan writes changed: a pseudo-heading made a heading, and per file, its
 * headings moved down with their tree (a `# ` title one level down, as a `## ` section).
 */
export function changedLineNotes(target: string, r: Rendered, sourceLine: (path: string, line: number) => string | undefined): string[] {
  const notes: string[] = [];
  const moved = new Map<string, number>();
  r.refs.forEach((ref, i) => {
    if (!ref) return;
    const source = sourceLine(ref.path, ref.line);
    const out = r.lines[i]!;
    if (source === undefined || source === out) return;
    if (/^#{1,6}(\s|$)/.test(source)) moved.set(ref.path, (moved.get(ref.path) ?? 0) + 1);
    else
      notes.push(
        `${ref.path}:${ref.line} "${source.trim()}" reads as a heading, so ${target} has it as the heading "${out.trim()}", with its lines under it.`,
      );
  });
  for (const [path, n] of moved) {
    notes.push(
      `${path}: ${n === 1 ? 'one heading moves' : `${n} headings move`} down a level in ${target}, with what is under ${n === 1 ? 'it' : 'them'}, below the heading that names what the file is about (a "#" added to each).`,
    );
  }
  return notes;
}

/** Conflict topics by the source line (`path:line`) of a side left standing. */
export type MarkTopics = Map<string, string[]>;

const markText = (topics: Iterable<string>) =>
  `<!-- copilot-onboard: conflicting rules about ${[...topics].sort(byCodeUnit).join(' and ')}; decide which one stands -->`;

/**
 * Insert a conflict mark above each block of the written file that holds a side of a conflict, read
 * as the next plan reads the file: a rule with its code, a lead-in with its list, a line with its
 * answer, each pseudo-heading or heading alone. A mark inside a block would cut it in two when the
 * file is read again. No mark is added where one right above (from an earlier migration) already
 * names the same topics, in whatever order.
 */
export function insertMarks(r: Rendered, marks: MarkTopics): Rendered {
  if (marks.size === 0) return r;
  const at = new Map<number, Set<string>>();
  for (const block of writtenBlocks(r.lines)) {
    const topics = block.units.flatMap((u) =>
      u.lines.flatMap((_, k) => {
        const ref = r.refs[u.line - 1 + k];
        return (ref && marks.get(`${ref.path}:${ref.line}`)) ?? [];
      }),
    );
    const first = block.units.find((u) => !isToolMark(u));
    if (topics.length === 0 || !first) continue;
    const set = at.get(first.line - 1) ?? new Set<string>();
    for (const t of topics) set.add(t);
    at.set(first.line - 1, set);
  }
  const out: Rendered = { lines: [], refs: [] };
  r.lines.forEach((line, i) => {
    const topics = at.get(i);
    const mark = topics && markText(topics);
    if (mark && !markCovers(out.lines[out.lines.length - 1], mark)) {
      out.lines.push(mark);
      out.refs.push(null);
    }
    out.lines.push(line);
    out.refs.push(r.refs[i] ?? null);
  });
  return out;
}

/** The blocks of written lines: headings and front matter each alone, and between them the blocks that move whole. */
function writtenBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let run: Unit[] = [];
  const flush = () => {
    blocks.push(...blocksOf(run, isToolMark));
    run = [];
  };
  for (const u of splitUnits('', lines)) {
    if (u.kind === 'heading' || u.kind === 'frontmatter') {
      flush();
      blocks.push({ units: [u], blankBefore: u.blankBefore });
    } else run.push(u);
  }
  flush();
  return blocks;
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
