import { splitUnits } from '../../model/markdown-units.js';
import type { Unit } from '../../model/model.js';
import { isToolMark } from '../../model/unit-shape.js';
import { managedBlocks } from '../../model/managed-blocks.js';
import { byCodeUnit } from '../../common/collections.js';
import { blocksOf, type Block } from '../outline.js';
import type { LineMap } from './line-map.js';
import type { Rendered } from './rendered.js';

/** Conflict topics by the source line of a side left standing. */
export type MarkTopics = LineMap<string[]>;

const JOIN = ' and ';

/** The mark the tool writes above a block that holds a side of a conflict. */
const markText = (topics: Iterable<string>): string =>
  `<!-- copilot-onboard: conflicting rules about ${[...topics].sort(byCodeUnit).join(JOIN)}; decide which one stands -->`;

/** A mark as it reads in a written file: its topics can be told apart only where it joined them. */
const MARK_LINE = /^<!-- copilot-onboard: conflicting rules about (.*); decide which one stands -->$/;

/** Whether a written line is a conflict mark (of this plan's or an earlier migration's). */
export const isConflictMark = (line: string): boolean => MARK_LINE.test(line.trim());

/** Whether the line above (read from the file, maybe from an earlier migration) is a conflict mark naming every one of `topics`. */
function markCovers(above: string | undefined, topics: Set<string>): boolean {
  if (above === undefined) return false;
  if (above === markText(topics)) return true;
  const have = MARK_LINE.exec(above.trim())?.[1]?.split(JOIN);
  // Compared as the file's mark can be read: in the pieces between the words that join them.
  const want = [...topics].sort(byCodeUnit).join(JOIN).split(JOIN);
  return have !== undefined && want.every((t) => have.includes(t));
}

/**
 * Insert a conflict mark above each block of the written file that holds a side of a conflict, read
 * as the next plan reads the file: a rule with its code, a lead-in with its list, a line with its
 * answer, each pseudo-heading or heading alone. A mark inside a block would cut it in two when the
 * file is read again. No mark is added where one right above (from an earlier migration) already
 * names the same topics, in whatever order. A side inside a managed block is marked above the block:
 * its tool rewrites what is inside (model/managed-blocks.ts). A block of the person's own file (`own`)
 * right under their heading is marked above that heading: nothing is put between the person's
 * heading and its first line (issue 40).
 */
export function insertMarks(r: Rendered, marks: MarkTopics, own: string | null = null): Rendered {
  if (marks.size === 0) return r;
  const at = new Map<number, Set<string>>();
  const managed = managedBlocks(r.lines);
  const outside = (i: number): number => managed.find((b) => b.start < i && i <= b.end)?.start ?? i;
  // The topics of the block before, when it holds sides: a block of the same topics right after it stands under its mark.
  let previous = '';
  for (const block of writtenBlocks(r.lines)) {
    const topics = block.units.flatMap((u) =>
      u.lines.flatMap((_, k) => {
        const ref = r.refs[u.line - 1 + k];
        return (ref && marks.get(ref)) ?? [];
      }),
    );
    const first = block.units.find((u) => !isToolMark(u));
    const key = [...new Set(topics)].sort(byCodeUnit).join(JOIN);
    const same = key !== '' && key === previous && first !== undefined && !block.units.some(isToolMark);
    previous = first?.kind === 'heading' ? '' : key;
    if (topics.length === 0 || !first || same) continue;
    const line = aboveOwnHeadings(r, outside(first.line - 1), own);
    const set = at.get(line) ?? new Set<string>();
    for (const t of topics) set.add(t);
    at.set(line, set);
  }
  const out: Rendered = { lines: [], refs: [] };
  r.lines.forEach((line, i) => {
    const topics = at.get(i);
    if (topics && !markCovers(out.lines[out.lines.length - 1], topics)) {
      out.lines.push(markText(topics));
      out.refs.push(null);
    }
    out.lines.push(line);
    out.refs.push(r.refs[i] ?? null);
  });
  return out;
}

/**
 * `i`, or the first of the person's headings right above it (blank lines between), when line `i` is
 * theirs too: the mark stands where a section starts, never between a heading and its text. A `# `
 * title stays the file's first line.
 */
function aboveOwnHeadings(r: Rendered, i: number, own: string | null): number {
  if (own === null || r.refs[i]?.path !== own) return i;
  let top = i;
  for (let k = i - 1; k >= 0; k--) {
    if (r.lines[k]!.trim() === '') continue;
    if (!HEADING.test(r.lines[k]!) || /^ {0,3}#\s/.test(r.lines[k]!) || r.refs[k]?.path !== own) break;
    top = k;
  }
  return top;
}

const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

/** The blocks of written lines: headings and front matter each alone, and between them the blocks that move whole. */
export function writtenBlocks(lines: string[]): Block[] {
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
