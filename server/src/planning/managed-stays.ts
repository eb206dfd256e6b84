import { managedBlocks } from '../model/managed-blocks.js';
import type { InstructionDoc } from '../model/model.js';
import type { DroppedLine } from './choices.js';
import type { Note } from './notes.js';
import { LineMap } from './render/line-map.js';

/**
 * The managed blocks of migrated files (model/managed-blocks.ts: a tool writes the text between its
 * markers and rewrites it on its next run), which stay where they are: a copy in a Copilot file
 * would not be kept current by that tool, and would say the block's rules twice. Each line is named
 * in `dropped` with that reason, and each block in a note; the file keeps it (the plan offers no
 * choice that removes the file: migration.ts `holdsManagedBlock`).
 */
export function managedStays(docs: InstructionDoc[], linesOf: (path: string) => string[]): { stays: LineMap<DroppedLine>; notes: Note[] } {
  const stays = new LineMap<DroppedLine>();
  const notes: Note[] = [];
  for (const doc of docs) {
    const lines = linesOf(doc.path);
    // Most files hold none: the markers are looked for only where a comment opens.
    if (!lines.some((l) => l.includes('<!--'))) continue;
    for (const b of managedBlocks(lines)) {
      const marker = lines[b.start]!.trim();
      const reason = `it is inside ${marker}, a block a tool writes and rewrites in ${doc.path}: it stays there, where that tool keeps it current`;
      for (let i = b.start; i <= b.end; i++) {
        const at = { path: doc.path, line: i + 1 };
        stays.set(at, { ...at, text: lines[i]!, reason });
      }
      notes.push({ kind: 'managed-stays', path: doc.path, start: b.start + 1, end: b.end + 1, marker });
    }
  }
  return { stays, notes };
}

/** Whether a file's text holds a managed block: its rules move but the block stays, so the file may not be removed or replaced. */
export function holdsManagedBlock(lines: string[]): boolean {
  return lines.some((l) => l.includes('<!--')) && managedBlocks(lines).length > 0;
}
