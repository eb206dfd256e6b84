import { managedBlocks, managedLineNumbers } from '../../model/managed-blocks.js';
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

/** Whether a source line is inside a managed block: no choice drops or edits it. Each file is read for its blocks once. */
export type IsManaged = (at: { path: string; line: number }) => boolean;

export function managedLookup(linesOf: (path: string) => string[]): IsManaged {
  const cache = new Map<string, Set<number>>();
  return (at) => {
    let set = cache.get(at.path);
    if (!set) cache.set(at.path, (set = managedLineNumbers(linesOf(at.path))));
    return set.has(at.line);
  };
}
