import type { Note } from './notes.js';
import type { Rendered } from './render/rendered.js';

/**
 * The notes for lines the plan writes changed: a pseudo-heading made a heading, and per file, its
 * headings moved down with their tree (a `# ` title one level down, as a `## ` section).
 */
export function changedLineNotes(target: string, r: Rendered, sourceLine: (path: string, line: number) => string | undefined): Note[] {
  const notes: Note[] = [];
  const moved = new Map<string, number>();
  r.refs.forEach((ref, i) => {
    if (!ref) return;
    const source = sourceLine(ref.path, ref.line);
    const out = r.lines[i]!;
    if (source === undefined || source === out) return;
    if (/^ {0,3}#{1,6}(\s|$)/.test(source)) moved.set(ref.path, (moved.get(ref.path) ?? 0) + 1);
    else notes.push({ kind: 'pseudo-heading', at: ref, source, target, heading: out });
  });
  for (const [path, count] of moved) notes.push({ kind: 'headings-moved', path, count, target });
  return notes;
}
