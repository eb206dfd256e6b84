import { linkDestinations, linkedPath } from '../model/links.js';
import type { InstructionDoc } from '../model/model.js';
import type { DroppedLine } from './choices.js';
import type { Note } from './notes.js';
import { LineMap } from './render/line-map.js';
import type { IsManaged } from './render/managed.js';

/** A line longer than this says more than where to look. */
const MAX_POINTER_CHARS = 200;

/**
 * The lines of migrated files that only point at the file their rules move into ("See
 * [the instructions](mdc:.github/copilot-instructions.md).", `@.github/copilot-instructions.md`):
 * written there, they would point at themselves. Each is left out and named in a note; the file's
 * other lines land like any rule (a file that only points is an alias, never migrated:
 * analysis/repeats/copies.ts).
 */
export function pointerLines(
  docs: InstructionDoc[],
  targetOf: (d: InstructionDoc) => string,
  managed: IsManaged,
): { dropped: LineMap<DroppedLine>; notes: Note[] } {
  const dropped = new LineMap<DroppedLine>();
  const notes: Note[] = [];
  for (const doc of docs) {
    const target = targetOf(doc);
    for (const u of doc.units) {
      if (u.kind === 'code' || u.kind === 'frontmatter' || u.kind === 'heading') continue;
      u.lines.forEach((text, k) => {
        const at = { path: doc.path, line: u.line + k };
        // Inside a managed block it stays: its tool rewrites the block whole. Only a pointer at the
        // target itself goes: one at another legacy file whose rules move in too still leads somewhere
        // (that file is kept by default), and dropping it made a second plan append its paragraph again.
        if (!pointsOnlyAt(doc.path, text, target) || managed(at)) return;
        dropped.set(at, { ...at, text, reason: `it only points at ${target}, the file its rules move into` });
        notes.push({ kind: 'pointer-line', at, text, target });
      });
    }
  }
  return { dropped, notes };
}

/** Every sentence of `text` links to `target`: by a link, an `mdc:` link or an `@path` import (a path merely written out may be a rule about that file). */
function pointsOnlyAt(from: string, text: string, target: string): boolean {
  const t = text.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, '');
  if (t === '' || t.length > MAX_POINTER_CHARS) return false;
  const names = (s: string): boolean => {
    if (linkDestinations(s).some((d) => linkedPath(from, s.slice(d.start, d.end)) === target)) return true;
    return [...s.matchAll(/(?:\]\(mdc:|@)([^\s)]+)/g)].some((m) => linkedPath('', m[1]!) === target || linkedPath(from, m[1]!) === target);
  };
  return t.split(/(?<=[.!?])\s+(?=[A-Z*_`[@])/).every(names);
}
