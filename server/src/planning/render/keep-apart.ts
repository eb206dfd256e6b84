import { splitUnits } from '../../model/markdown-units.js';
import { isBlank } from '../../common/text.js';
import type { LineRef, Rendered } from './rendered.js';

/** The line put before a unit that would otherwise read as part of the list item above it. */
export const LIST_END = '<!-- copilot-onboard: the list above ends here -->';

/**
 * Keep a written unit from joining the list item above it. Past a blank line, an indented line
 * continues a list item (in CommonMark, and in this tool's reading), so a unit whose first line is
 * indented, written after an item it did not follow in its own file, would become part of that item,
 * and the next plan would write it again. A comment line at the margin ends the list first, as the
 * CommonMark spec suggests. Lines that stand as they stood in one source file, the same distance
 * apart, keep the reading they had there. Returns the output, and the source line each added
 * comment stands before.
 */
export function keepUnitsApart(r: Rendered): { rendered: Rendered; before: LineRef[] } {
  const cuts = new Set<number>();
  for (const u of splitUnits('', r.lines)) {
    let prev = u.line - 1;
    for (let i = prev + 1; i < u.line - 1 + u.lines.length; i++) {
      if (isBlank(r.lines[i]!)) continue;
      if (isBlank(r.lines[i - 1]!) && r.refs[i] && !followsInSource(r.refs[prev] ?? null, r.refs[i]!, i - prev)) cuts.add(i);
      prev = i;
    }
  }
  if (cuts.size === 0) return { rendered: r, before: [] };
  const out: Rendered = { lines: [], refs: [] };
  const before: LineRef[] = [];
  r.lines.forEach((line, i) => {
    if (cuts.has(i)) {
      out.lines.push(LIST_END);
      out.refs.push(null);
      before.push(r.refs[i]!);
    }
    out.lines.push(line);
    out.refs.push(r.refs[i] ?? null);
  });
  return { rendered: out, before };
}

/** Whether the line at `next` stood `distance` lines after the one at `prev` in the same source file. */
function followsInSource(prev: LineRef | null, next: LineRef, distance: number): boolean {
  return prev !== null && prev.path === next.path && next.line - prev.line === distance;
}
