import { splitUnits } from '../../model/markdown-units.js';
import { managedBlocks } from '../../model/managed-blocks.js';
import type { Unit } from '../../model/model.js';
import { isBlank } from '../../common/text.js';
import { isSortable, isSplitLine } from '../outline.js';
import { SECTION_TOPICS } from '../section-topics.js';
import { blockTopic, restructure, sameSection } from '../structure.js';
import type { Addition } from './addition.js';
import { fromUnit, placed, push, trimEnd, type LineRef, type Rendered } from './rendered.js';

const NEW_TITLE = '# Copilot instructions';
const SECTION_HEADING = /^##(?!#)\s/;
const FENCE = /^\s*(`{3,}|~{3,})/;

/** Index of each `## ` heading line outside fenced code. */
export function sectionStarts(lines: string[]): number[] {
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
 * A section the tool named that holds only titles kept in comments (a source whose every rule was
 * merged, its `# ` title aside): a comment shows nothing, so its heading would stand empty. The
 * comments are written without it.
 */
const onlyTitles = (a: Addition): boolean =>
  a.headingUnit === null &&
  !a.top &&
  a.blocks.length > 0 &&
  a.children.every(isEmpty) &&
  a.blocks.every((b) => b.every((u) => u.kind === 'heading' && u.level === 1));
/** Whether an addition has content, its own heading aside. */
const hasContent = (a: Addition): boolean => !isEmpty({ ...a, headingUnit: null });

/** The written file, built line by line: blank lines between blocks and before sections, never two. */
class Writer {
  readonly out: Rendered = { lines: [], refs: [] };

  push(r: Rendered): void {
    push(this.out, r);
  }

  blank(): void {
    if (this.out.lines.length > 0 && !isBlank(this.out.lines[this.out.lines.length - 1]!)) this.push({ lines: [''], refs: [null] });
  }

  trim(): void {
    trimEnd(this.out);
  }

  blocks(blocks: Unit[][]): void {
    let prev: Unit[] | null = null;
    for (const block of blocks) {
      const last = prev?.[prev.length - 1];
      const first = block[0]!;
      const sameFile = prev !== null && prev[0]!.path === first.path && !first.blankBefore;
      const tight = sameFile && ((last!.kind === 'list-item' && first.kind === 'list-item') || (isSplitLine(last!) && isSplitLine(first)));
      if (!tight) this.blank();
      block.forEach((u, i) => {
        if (i > 0 && u.blankBefore) this.blank();
        this.push(placed(u));
      });
      prev = block;
    }
  }

  /** An addition's blocks and sub-sections, under no heading of its own. */
  content(a: Addition): void {
    this.blocks(a.blocks);
    for (const c of a.children) this.section(c);
  }

  section(a: Addition): void {
    if (isEmpty(a)) return;
    this.trim();
    this.blank();
    if (a.before) {
      this.blocks(a.before);
      this.blank();
    }
    this.push(a.headingUnit ? fromUnit(a.headingUnit) : { lines: [a.heading], refs: [null] });
    this.content(a);
  }
}

/** The base as the additions find it: an empty one titled, and a title added above a first section when rules go on top. */
function titledBase(base: Rendered, additions: Addition[]): Rendered {
  // An empty Copilot file gets the title a new one has, so nothing it receives opens it like front matter (`---`).
  if (base.lines.every(isBlank) && additions.some((a) => !isEmpty(a))) base = { lines: [NEW_TITLE], refs: [null] };
  const starts = sectionStarts(base.lines);
  // Rules for the top of a file that starts with a section go under a title the tool adds, never first in the file.
  const onTop = additions.some((a) => a.top && (a.blocks.length > 0 || !a.children.every(isEmpty)));
  if (onTop && base.lines.slice(0, starts[0] ?? base.lines.length).every(isBlank))
    return { lines: [NEW_TITLE, '', ...base.lines], refs: [null, null, ...base.refs] };
  return base;
}

/**
 * Put the additions into the base: what goes on top right under its head, a section the tool named
 * (a topic) at the end of the base's section of that name, every other section after the base's, in
 * the order the sources give, each with its sub-sections under it.
 */
export function appendAdditions(base: Rendered, additions: Addition[], target: string, personsFile = false): Rendered {
  // A target with no section gets none from its sources either: its rules are sorted by topic as a flat file's are.
  if (sectionStarts(base.lines).length === 0 && additions.every((a) => a.top || isEmpty(a))) additions = sortedTop(additions);
  base = titledBase(base, additions);
  const starts = sectionStarts(base.lines);
  const w = new Writer();
  const bounds = [...starts, base.lines.length];
  w.push({ lines: base.lines.slice(0, bounds[0]), refs: base.refs.slice(0, bounds[0]) });
  for (const a of additions.filter((x) => x.top)) {
    if (a.blocks.length === 0 && a.children.every(isEmpty)) continue;
    w.trim();
    w.content(a);
    if (starts.length > 0) w.blank();
  }
  const used = personsFile ? new Set<Addition>() : joinSections(w, base, bounds, additions);
  // The person's own sections are written as they are: nothing joins them (issue 40, fixed ground).
  if (personsFile) w.push({ lines: base.lines.slice(bounds[0]), refs: base.refs.slice(bounds[0]) });
  for (const a of additions) {
    if (used.has(a) || a.top) continue;
    if (onlyTitles(a)) {
      w.trim();
      w.content(a);
      continue;
    }
    // Content for a target section that is not there (the target was restructured): under that heading, written by the tool.
    w.section(a.intoTarget && hasContent(a) ? { ...a, intoTarget: undefined } : a);
  }
  w.trim();
  // The person's own file is never sorted again: their lines stay where they wrote them (issue 40).
  return personsFile ? w.out : flatAgain(target, w.out);
}

/** Write the base's sections, each followed by what joins it; returns the additions that joined one. */
function joinSections(w: Writer, base: Rendered, bounds: number[], additions: Addition[]): Set<Addition> {
  const topics = additions.filter((a) => a.headingUnit === null && !a.top && !a.intoTarget);
  const used = new Set<Addition>();
  const blocks = managedBlocks(base.lines);
  for (let s = 0; s < bounds.length - 1; s++) {
    const from = bounds[s]!;
    const to = bounds[s + 1]!;
    w.push({ lines: base.lines.slice(from, to), refs: base.refs.slice(from, to) });
    // A section that ends inside a managed block takes nothing: it would land inside the block (its tool rewrites it).
    if (blocks.some((b) => b.start < to && to <= b.end)) continue;
    // A section the tool named joins an existing section whose heading has the same words.
    const line = base.lines[from]!.trimEnd();
    const joined = [
      ...additions.filter((x) => !used.has(x) && x.intoTarget === line),
      ...topics.filter((t) => !used.has(t) && !t.intoTarget && sameSection(line, t.heading)).slice(0, 1),
    ];
    if (joined.some(hasContent)) {
      w.trim();
      for (const a of joined) w.content(a);
      if (to < base.lines.length) w.blank();
    }
    for (const a of joined) used.add(a);
  }
  return used;
}

/**
 * A target that still has no section is read as a flat file is: what its sources put side by side
 * (a label from one, a rule from another) is put in shape now, so a second plan finds nothing to do.
 */
function flatAgain(target: string, r: Rendered): Rendered {
  if (sectionStarts(r.lines).length > 0 || r.lines.length === 0) return r;
  const again = restructure(target, splitUnits(target, r.lines));
  const refs: (LineRef | null)[] = again.lines.map(() => null);
  for (const p of again.provenance) {
    for (let i = 0; i <= p.to.endLine - p.to.startLine; i++) refs[p.to.startLine - 1 + i] = r.refs[p.from.startLine - 1 + i] ?? null;
  }
  return { lines: again.lines, refs };
}

/** The top blocks of a target without sections, sorted as `restructure` sorts a flat file: a confident topic, or in place. */
function sortedTop(additions: Addition[]): Addition[] {
  const tops = additions.filter((a) => a.top);
  const top: Addition = { heading: '', headingUnit: null, blocks: [], children: tops.flatMap((a) => a.children), top: true };
  const byTopic = new Map<string, Addition>();
  for (const block of tops.flatMap((a) => a.blocks)) {
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
