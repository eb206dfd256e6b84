import { managedBlocks } from '../../model/managed-blocks.js';
import type { Unit } from '../../model/model.js';

/**
 * A document's units with each managed block (model/managed-blocks.ts) as one unit, its lines byte
 * for byte from the file: moved whole, its headings not shifted, nothing joining a section inside
 * it. A block whose markers do not start and end units stays as its units.
 */
export function managedBlocksWhole(units: Unit[], fileLines: string[]): Unit[] {
  const blocks = managedBlocks(fileLines);
  if (blocks.length === 0) return units;
  const out: Unit[] = [];
  let i = 0;
  while (i < units.length) {
    const u = units[i]!;
    const b = blocks.find((x) => x.start === u.line - 1);
    const last = b ? units.findIndex((x, k) => k >= i && x.line - 1 + x.lines.length - 1 === b.end) : -1;
    if (!b || last < 0) {
      out.push(u);
      i++;
      continue;
    }
    out.push({ kind: 'html', path: u.path, line: u.line, lines: fileLines.slice(b.start, b.end + 1), blankBefore: u.blankBefore });
    i = last + 1;
  }
  return out;
}
