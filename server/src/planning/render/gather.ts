import type { Unit } from '../../model/model.js';
import { isToolMark } from '../../model/unit-shape.js';
import { isBlank } from '../../common/text.js';
import { byCodeUnit } from '../../common/collections.js';
import { isStructural, type Block } from '../outline.js';
import { isConflictMark, writtenBlocks, type MarkTopics } from './marks.js';
import type { Rendered } from './rendered.js';

/** A written block with its place among the rendered lines (0-based, end exclusive) and the conflict topics its lines hold. */
interface Placed {
  block: Block;
  start: number;
  end: number;
  topics: Set<string>;
}

/**
 * The sides of each reported conflict written into one file stand next to each other, so the person
 * who resolves the mark by hand sees the choice in one place: every block of rule text holding a side
 * of the topic (and of no other topic) moves right after the block of the side they gather at. They gather at the
 * first side whose gathering leaves no heading with nothing under it; where there is none, the sides
 * stay where they are. The target's own lines never move. Lines only move: every source line still lands once.
 * A line keeps its place among the lines it came with (issue 40): a block moves only when it came alone (no
 * other line of its source in its section) and from another source than the side it joins; a source's
 * own sides are never pulled together.
 */
export function gatherSides(r: Rendered, marks: MarkTopics, existing: string | null): Rendered {
  if (marks.size === 0) return r;
  const topics = [...new Set(marks.values().flat())].sort();
  return topics.reduce((out, topic) => gatherTopic(out, marks, topic, existing), r);
}

function gatherTopic(r: Rendered, marks: MarkTopics, topic: string, existing: string | null): Rendered {
  const sides = placedBlocks(r, marks).filter((p) => p.topics.has(topic));
  if (sides.length < 2 || together(r, sides)) return r;
  const hollowBefore = hollowHeadings(r.lines);
  // A move must leave every block as it was: a block that joins a list or a lead-in when moved reads differently.
  for (const side of sides) {
    // The person's own text is fixed ground: nothing is moved in among it, not even the other side of its rule (issue 40).
    if (holds(r, side, existing)) continue;
    const anchor = side;
    // The existing file's own lines stay where its author put them: only what the plan brings in moves.
    const movers = sides.filter(
      (p) =>
        p !== side &&
        !(p.start >= anchor.start && p.end <= anchor.end) &&
        p.topics.size === 1 &&
        isRuleText(p.block) &&
        !holds(r, p, existing) &&
        cameAlone(r, p) &&
        !sourcesOf(r, p).some((s) => sourcesOf(r, anchor).includes(s)),
    );
    if (movers.length === 0) continue;
    // A topic heading the tool added that the move leaves with nothing under it goes too: it held only the moved side.
    const { out: moved, dropped } = withoutHollowToolHeadings(moveAfter(r, anchor, movers));
    if (hollowHeadings(moved.lines) <= hollowBefore && blockTexts(moved.lines) === blockTexts(r.lines, dropped)) return moved;
  }
  return r;
}

/** Whether the sides stand one after the other already, nothing but blank lines between them. */
function together(r: Rendered, sides: Placed[]): boolean {
  return sides.every((p, k) => k === 0 || r.lines.slice(sides[k - 1]!.end, p.start).every(isBlank));
}

/** The source files a block's lines came from. */
function sourcesOf(r: Rendered, p: Placed): string[] {
  return [...new Set(range(p.start, p.end).flatMap((i) => r.refs[i]?.path ?? []))];
}

/** Whether no other line of the block's sources stands in its section (between the headings around it): moving it leaves none behind. */
function cameAlone(r: Rendered, p: Placed): boolean {
  const own = new Set(sourcesOf(r, p));
  const alone = (from: number, step: number) => {
    for (let i = from; i >= 0 && i < r.lines.length; i += step) {
      if (HEADING.test(r.lines[i]!)) return true;
      const path = r.refs[i]?.path;
      if (path !== undefined && own.has(path)) return false;
    }
    return true;
  };
  return alone(p.start - 1, -1) && alone(p.end, 1);
}

const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

/** Whether a block holds a line of the file `existing` (the target as it stands). */
function holds(r: Rendered, p: Placed, existing: string | null): boolean {
  return existing !== null && range(p.start, p.end).some((i) => r.refs[i]?.path === existing);
}

/** The written blocks of `r` with their lines and the topics marked on them. */
function placedBlocks(r: Rendered, marks: MarkTopics): Placed[] {
  return writtenBlocks(r.lines)
    .filter((b) => b.units.some((u) => !isToolMark(u) && u.kind !== 'heading' && u.kind !== 'frontmatter'))
    .map((block) => {
      const start = block.units[0]!.line - 1;
      const last = block.units[block.units.length - 1]!;
      const end = last.line - 1 + last.lines.length;
      const topics = new Set<string>();
      for (let i = start; i < end; i++) {
        const ref = r.refs[i];
        for (const t of (ref && marks.get(ref)) ?? []) topics.add(t);
      }
      return { block, start, end, topics };
    });
}

/** `r` with the lines of `movers` taken out and written, in their order, right after `anchor`. */
function moveAfter(r: Rendered, anchor: Placed, movers: Placed[]): Rendered {
  const out: Rendered = { lines: [], refs: [] };
  const taken = new Set(movers.flatMap((m) => range(m.start, m.end)));
  const push = (i: number) => {
    out.lines.push(r.lines[i]!);
    out.refs.push(r.refs[i] ?? null);
  };
  for (let i = 0; i < r.lines.length; i++) {
    if (taken.has(i)) continue;
    // A blank line beside a block taken out goes with it, unless it is the only blank left between what remains.
    const blank = isBlank(r.lines[i]!);
    const startsOrDoubles = out.lines.length === 0 || isBlank(out.lines[out.lines.length - 1]!);
    if (blank && taken.has(i + 1) && (startsOrDoubles || blankOrEnd(r, taken, i + 1))) continue;
    if (blank && taken.has(i - 1) && startsOrDoubles) continue;
    push(i);
    if (i !== anchor.end - 1) continue;
    let prev: Unit = lastUnit(anchor.block);
    for (const m of movers) {
      if (!(tight(prev, m.block.units[0]!) && inTightList(r.lines, anchor))) {
        out.lines.push('');
        out.refs.push(null);
      }
      for (const k of range(m.start, m.end)) push(k);
      prev = lastUnit(m.block);
    }
    const next = r.lines[i + 1];
    const joined = tight(prev, lastUnit(anchor.block)) && inTightList(r.lines, anchor);
    if (next !== undefined && !isBlank(next) && !joined) {
      out.lines.push('');
      out.refs.push(null);
    }
  }
  while (
    out.lines.length > 0 &&
    isBlank(out.lines[out.lines.length - 1]!) &&
    out.refs[out.refs.length - 1] === null &&
    !isBlank(r.lines[r.lines.length - 1] ?? 'x')
  ) {
    out.lines.pop();
    out.refs.pop();
  }
  return out;
}

/**
 * A block of rule text (items and paragraphs): code, a tag, a table or a separator holding a side is an
 * example of the section it stands in, and stays there.
 */
const isRuleText = (b: Block): boolean =>
  b.units.every((u) => isToolMark(u) || ((u.kind === 'list-item' || u.kind === 'paragraph') && !isStructural(u)));

const range = (start: number, end: number): number[] => Array.from({ length: end - start }, (_, k) => start + k);

const lastUnit = (b: Block): Unit => b.units[b.units.length - 1]!;

/** Two list items written one under the other with no blank between. */
const tight = (a: Unit, b: Unit): boolean => a.kind === 'list-item' && b.kind === 'list-item';

const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

/** Whether the anchor stands in no list whose items are written with blank lines between them. */
function inTightList(lines: string[], anchor: Placed): boolean {
  const nearest = (from: number, step: number) => {
    let k = from;
    while (k >= 0 && k < lines.length && isBlank(lines[k]!)) k += step;
    return { gap: k !== from, line: lines[k] };
  };
  const after = nearest(anchor.end, 1);
  const before = nearest(anchor.start - 1, -1);
  const loose = (n: { gap: boolean; line: string | undefined }) => n.gap && n.line !== undefined && LIST_ITEM.test(n.line);
  return !loose(after) && !loose(before);
}

/** Whether, after `i`, only taken lines stand before a blank line or the end. */
function blankOrEnd(r: Rendered, taken: Set<number>, i: number): boolean {
  let k = i;
  while (taken.has(k)) k++;
  return k >= r.lines.length || isBlank(r.lines[k]!);
}

/**
 * The written blocks' texts, in no order: equal when lines only moved, block by block. Read without
 * the conflict marks of an earlier migration, as the first plan read the blocks, so a second plan
 * moves no more than the first.
 */
function blockTexts(lines: string[], without: string[] = []): string {
  const texts = writtenBlocks(lines.filter((l) => !isConflictMark(l))).map((b) =>
    b.units.map((u) => `${u.kind}\u0000${u.lines.join('\n')}`).join('\u0001'),
  );
  for (const heading of without) texts.splice(texts.indexOf(`heading\u0000${heading}`), 1);
  return JSON.stringify(texts.sort(byCodeUnit));
}

/** `r` without the headings the tool wrote (no source line) that have nothing under them, each with the blank line after it; and those headings. */
function withoutHollowToolHeadings(r: Rendered): { out: Rendered; dropped: string[] } {
  const hollow = new Set<number>();
  r.lines.forEach((line, i) => {
    if (r.refs[i] !== null && r.refs[i] !== undefined) return;
    const h = /^ {0,3}(#{1,6})\s/.exec(line);
    if (!h) return;
    for (const next of r.lines.slice(i + 1)) {
      const n = /^ {0,3}(#{1,6})\s/.exec(next);
      if (n && n[1]!.length <= h[1]!.length) break;
      if (!n && !isBlank(next)) return;
      if (n) return;
    }
    hollow.add(i);
  });
  if (hollow.size === 0) return { out: r, dropped: [] };
  const out: Rendered = { lines: [], refs: [] };
  for (let i = 0; i < r.lines.length; i++) {
    if (hollow.has(i) || (hollow.has(i - 1) && isBlank(r.lines[i]!))) continue;
    out.lines.push(r.lines[i]!);
    out.refs.push(r.refs[i] ?? null);
  }
  while (out.lines.length > 0 && isBlank(out.lines[out.lines.length - 1]!)) {
    out.lines.pop();
    out.refs.pop();
  }
  return { out, dropped: [...hollow].map((i) => r.lines[i]!) };
}

/** How many headings have nothing but blank lines under them before the next heading of their level or above. */
function hollowHeadings(lines: string[]): number {
  let count = 0;
  lines.forEach((line, i) => {
    const h = /^ {0,3}(#{1,6})\s/.exec(line);
    if (!h) return;
    for (const next of lines.slice(i + 1)) {
      const n = /^ {0,3}(#{1,6})\s/.exec(next);
      if (n && n[1]!.length <= h[1]!.length) break;
      if (!n && !isBlank(next)) return;
    }
    count++;
  });
  return count;
}
