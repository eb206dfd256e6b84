// The Markdown splitter as it was before its shortcuts (first-character tests, no spread, no front
// matter unit to filter): tests/model/split-units.test.ts holds the splitter to it on random lines.
import { readFrontMatter } from '../../server/src/model/frontmatter.js';
import type { Unit } from '../../server/src/model/model.js';
import { isBlank } from '../../server/src/common/text.js';

const HEADING = /^ {0,3}(#{1,6})(\s|$)/;
/** A fence line's opening: its marker is group 1. */
const FENCE = /^\s*(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])\s+\S/;
const HTML_BLOCK = /^ {0,3}<(!--|[a-zA-Z][\w-]*)/;
const COMMENT_START = /^ {0,3}<!--/;

/**
 * Split Markdown lines into units: front matter, headings, list items (with their continuation and
 * nested lines), paragraphs, fenced code and HTML blocks. Every line of the input belongs to exactly
 * one unit, except blank lines between units.
 */
export function referenceSplitUnits(path: string, lines: string[]): Unit[] {
  const units: Unit[] = [];
  let i = 0;
  let blankBefore = false;
  const push = (kind: Unit['kind'], start: number, end: number, extra: Partial<Unit> = {}) => {
    units.push({ kind, path, line: start + 1, lines: lines.slice(start, end), blankBefore, ...extra });
    blankBefore = false;
  };

  // The same block the front matter reader takes (so a format that reads it also leaves it out of the body).
  const frontMatter = readFrontMatter(lines);
  if (frontMatter) {
    push('frontmatter', 0, frontMatter.lineCount);
    i = frontMatter.lineCount;
  }

  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      blankBefore = true;
      i++;
      continue;
    }
    const start = i;
    const heading = HEADING.exec(line);
    if (heading) {
      push('heading', start, start + 1, { level: heading[1]!.length });
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      i = endOfFence(lines, start, fence[1]!);
      push('code', start, i);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      i++;
      while (i < lines.length && continuesListItem(lines, i)) {
        const inner = FENCE.exec(lines[i]!);
        i = inner ? endOfFence(lines, i, inner[1]!) : i + 1;
      }
      push('list-item', start, i);
      continue;
    }
    const commentEnd = COMMENT_START.test(line) ? endOfComment(lines, start) : -1;
    if (commentEnd > start) {
      // A comment over several lines is one block up to its `-->`, headings and blank lines included.
      i = commentEnd + 1;
      push('html', start, i);
      continue;
    }
    const kind = HTML_BLOCK.test(line) ? 'html' : 'paragraph';
    i++;
    if (kind === 'html' && /^\s*<!--.*-->\s*$/.test(line)) {
      // A one-line comment is a block of its own (CommonMark ends a comment block at `-->`).
      push(kind, start, i);
      continue;
    }
    while (i < lines.length && continuesParagraph(lines[i]!)) i++;
    push(kind, start, i);
  }
  return units;
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
  if (isBlank(line)) {
    // A blank line followed by an indented line keeps the item going (loose list content).
    const next = lines[i + 1];
    return next !== undefined && /^ {2,}\S/.test(next);
  }
  if (/^\s+\S/.test(line)) return true;
  return !LIST_ITEM.test(line) && !HEADING.test(line) && !FENCE.test(line) && !HTML_BLOCK.test(line);
}

function continuesParagraph(line: string): boolean {
  return !isBlank(line) && !HEADING.test(line) && !FENCE.test(line) && !LIST_ITEM.test(line);
}
