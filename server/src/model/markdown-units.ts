import { frontMatterEnd } from './frontmatter.js';
import type { Unit, UnitKind } from './model.js';
import { isBlank } from '../common/text.js';

const HEADING = /^ {0,3}(#{1,6})(\s|$)/;
/** A fence line's opening: its marker is group 1. */
export const FENCE = /^\s*(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])\s+\S/;
const HTML_BLOCK = /^ {0,3}<(!--|[a-zA-Z][\w-]*)/;
const COMMENT_START = /^ {0,3}<!--/;
const ONE_LINE_COMMENT = /^\s*<!--.*-->\s*$/;
const INDENTED = /^\s+\S/;
const INDENTED_TWO = /^ {2,}\S/;

/**
 * Split Markdown lines into units: front matter, headings, list items (with their continuation and
 * nested lines), paragraphs, fenced code and HTML blocks. Every line of the input belongs to exactly
 * one unit, except blank lines between units.
 */
export function splitUnits(path: string, lines: string[]): Unit[] {
  // The same block the front matter reader takes (so a format that reads it also leaves it out of the body);
  // its fields are not read here, only where it ends.
  const close = frontMatterEnd(lines);
  if (close < 0) return splitBody(path, lines, 0);
  const units = [unitOf('frontmatter', path, lines, 0, close + 1, false)];
  return splitBody(path, lines, close + 1, units);
}

/**
 * The units of the lines after the first `from`, which the caller has read itself (a format that
 * takes the front matter into its fields skips its block: no unit is made for it), appended to `units`.
 */
export function splitBody(path: string, lines: string[], from: number, units: Unit[] = []): Unit[] {
  let i = from;
  let blankBefore = false;
  const push = (kind: UnitKind, start: number, end: number) => {
    units.push(unitOf(kind, path, lines, start, end, blankBefore));
    blankBefore = false;
  };

  while (i < lines.length) {
    const line = lines[i]!;
    const first = startOf(line);
    if (first === OTHER_START && isBlank(line)) {
      blankBefore = true;
      i++;
      continue;
    }
    const start = i;
    const heading = first === OTHER_START ? HEADING.exec(line) : null;
    if (heading) {
      units.push({ kind: 'heading', path, line: start + 1, lines: [line], blankBefore, level: heading[1]!.length });
      blankBefore = false;
      i++;
      continue;
    }
    const fence = first === OTHER_START ? FENCE.exec(line) : null;
    if (fence) {
      i = endOfFence(lines, start, fence[1]!);
      push('code', start, i);
      continue;
    }
    if (first !== LETTER_START && LIST_ITEM.test(line)) {
      i++;
      while (i < lines.length && continuesListItem(lines, i)) {
        const inner = FENCE.exec(lines[i]!);
        i = inner ? endOfFence(lines, i, inner[1]!) : i + 1;
      }
      push('list-item', start, i);
      continue;
    }
    const commentEnd = first === OTHER_START && COMMENT_START.test(line) ? endOfComment(lines, start) : -1;
    if (commentEnd > start) {
      // A comment over several lines is one block up to its `-->`, headings and blank lines included.
      i = commentEnd + 1;
      push('html', start, i);
      continue;
    }
    const kind = first === OTHER_START && HTML_BLOCK.test(line) ? 'html' : 'paragraph';
    i++;
    if (kind === 'html' && ONE_LINE_COMMENT.test(line)) {
      // A one-line comment is a block of its own (CommonMark ends a comment block at `-->`).
      push(kind, start, i);
      continue;
    }
    while (i < lines.length && continuesParagraph(lines[i]!)) i++;
    push(kind, start, i);
  }
  return units;
}

/**
 * What a line's first character leaves possible, so that most lines are tested against one pattern
 * or none (a scan splits every line of every file): every pattern above needs a space, `#`, a fence
 * character, a list marker or `<` first. A line that starts with an ASCII letter is no blank line and
 * opens nothing (it is text); one that starts with `-` can open only a list item.
 */
const LETTER_START = 1;
const DASH_START = 2;
const OTHER_START = 0;

function startOf(line: string): number {
  // A blank line first: charCodeAt(0) of '' is NaN, an out-of-bounds read that deoptimises this function.
  if (line.length === 0) return OTHER_START;
  const lower = line.charCodeAt(0) | 0x20;
  if (lower >= 0x61 && lower <= 0x7a) return LETTER_START;
  return line.charCodeAt(0) === 0x2d ? DASH_START : OTHER_START;
}

/** A unit of the lines from `start` to `end` (exclusive); one literal shape, so every unit shares it. */
function unitOf(kind: UnitKind, path: string, lines: string[], start: number, end: number, blankBefore: boolean): Unit {
  return { kind, path, line: start + 1, lines: lines.slice(start, end), blankBefore };
}

/**
 * The fence line that would close a code unit left open to the end of its file, or null when the
 * unit is closed. Moved elsewhere, an open fence would turn everything after it into code.
 */
export function unclosedFence(u: Unit): string | null {
  if (u.kind !== 'code') return null;
  const marker = FENCE.exec(u.lines[0]!)?.[1];
  if (!marker) return null;
  const last = u.lines[u.lines.length - 1]!.trim();
  const closed = u.lines.length > 1 && last.startsWith(marker) && last.split('').every((c) => c === marker[0]);
  return closed ? null : marker;
}

/** Line holding the `-->` that closes a comment opened at `start`, or -1 when it is never closed. */
function endOfComment(lines: string[], start: number): number {
  const first = lines[start]!;
  if (first.indexOf('-->', first.indexOf('<!--') + 4) >= 0) return start;
  for (let j = start + 1; j < lines.length; j++) if (lines[j]!.includes('-->')) return j;
  return -1;
}

function endOfFence(lines: string[], start: number, marker: string): number {
  const char = marker[0]!;
  for (let j = start + 1; j < lines.length; j++) {
    const t = lines[j]!.trim();
    if (t.startsWith(marker) && t.split('').every((c) => c === char)) return j + 1;
  }
  return lines.length;
}

/** A line continues a list item when it is indented (nested items, wrapped text) or lazily wraps it. */
function continuesListItem(lines: string[], i: number): boolean {
  const line = lines[i]!;
  const first = startOf(line);
  if (first === LETTER_START) return true;
  if (first === DASH_START) return !LIST_ITEM.test(line);
  if (isBlank(line)) {
    // A blank line followed by an indented line keeps the item going (loose list content).
    const next = lines[i + 1];
    return next !== undefined && INDENTED_TWO.test(next);
  }
  if (INDENTED.test(line)) return true;
  return !LIST_ITEM.test(line) && !HEADING.test(line) && !FENCE.test(line) && !HTML_BLOCK.test(line);
}

function continuesParagraph(line: string): boolean {
  const first = startOf(line);
  if (first === LETTER_START) return true;
  if (first === DASH_START) return !LIST_ITEM.test(line);
  return !isBlank(line) && !HEADING.test(line) && !FENCE.test(line) && !LIST_ITEM.test(line);
}
