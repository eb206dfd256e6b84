import type { InstructionDoc } from '../model/model.js';
import type { Merged } from '../model/plan.js';
import { headingText } from './outline.js';
import type { Note } from './notes.js';

/**
 * A Copilot file that digests a legacy file (issue 40): they share sections, and rules of the source
 * merged into the Copilot file's copies. Each shared section is one section; the Copilot file's own
 * lines there that the source does not have are kept as written, and named, so the person can check
 * that they still hold. One note per source.
 */
export function digestNotes(existing: InstructionDoc, merged: Merged[]): Note[] {
  const units = existing.units.filter((u) => u.kind !== 'frontmatter');
  const notes: Note[] = [];
  const sources = [...new Set(merged.filter((m) => m.keptAt.path === existing.path && m.path !== existing.path).map((m) => m.path))];
  for (const source of sources) {
    const own = merged.filter((m) => m.path === source && m.keptAt.path === existing.path);
    const kept = new Set(own.map((m) => m.keptAt.line));
    // The person's sections that hold a rule of the source (their headings stay theirs: nothing joins them).
    const holding = new Set(own.filter((m) => !/^ {0,3}#{1,6}\s/.test(m.text)).map((m) => sectionAt(units, m.keptAt.line)));
    const headings = units.filter((u) => holding.has(u));
    if (headings.length === 0) continue;
    const lines: { line: number; text: string }[] = [];
    for (const h of headings) {
      const from = units.indexOf(h);
      for (let i = from + 1; i < units.length; i++) {
        const u = units[i]!;
        if (u.kind === 'heading' && u.level! <= h.level!) break;
        if (u.kind === 'heading' || u.kind === 'code' || kept.has(u.line)) continue;
        lines.push({ line: u.line, text: u.lines[0]! });
      }
    }
    if (lines.length > 0)
      notes.push({ kind: 'digest-kept', path: existing.path, source, sections: headings.map((h) => headingText(h.lines[0]!)), lines });
  }
  return notes;
}

/** The `## ` (or deeper) heading a line of the file stands under, or undefined above the first. */
function sectionAt(units: InstructionDoc['units'], line: number): InstructionDoc['units'][number] | undefined {
  let at: InstructionDoc['units'][number] | undefined;
  for (const u of units) {
    if (u.line > line) break;
    if (u.kind === 'heading' && u.level! >= 2) at = u;
  }
  return at;
}
