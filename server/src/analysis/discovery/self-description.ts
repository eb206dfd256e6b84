import type { InstructionDoc } from '../../model/model.js';

/**
 * Lines in which an instruction file describes itself rather than asks for anything (issue 40):
 * "This file exists for compatibility with tools that look for AGENTS.md.", "This file should not
 * duplicate the command matrix." (a note to whoever edits it), or a label that names the file's role
 * ("> **Context file for coding agents.** Full documentation at …", "**Entrypoint for AI agents.**").
 * Written into Copilot's file they describe another file. Found by the opening sentence's subject and
 * the label's words, for any file and any tool; a pointer line ("See CONTRIBUTING.md for …") is a rule.
 */
const MARKERS = String.raw`^(?:>\s*)*(?:[-*+]\s+)?(?:\*\*|__)?`;
/** A paragraph or item that opens with the file as its subject (a sentence's start: capital T). */
const THIS_FILE = new RegExp(`${MARKERS}This (?:file|document)\\b`);
/** A bold label naming the file's role. */
const ROLE_LABEL = new RegExp(`${MARKERS}[^*_\\n]{0,40}\\b(?:context file|entry ?point)\\b[^*_\\n]{0,40}(?:\\*\\*|__)`, 'i');

export const SELF_DESCRIPTION = 'the file describing itself, not a rule';

/** The lines of a document's text (not code, headings or front matter) in which it describes itself: a paragraph or item opening so, all its lines. */
export function selfDescriptionLines(doc: Pick<InstructionDoc, 'units'>): { line: number; text: string; names: string }[] {
  const out: { line: number; text: string; names: string }[] = [];
  for (const u of doc.units) {
    if (u.kind !== 'paragraph' && u.kind !== 'list-item') continue;
    // Its opening sentence only: a later line starting "this file" is the middle of a sentence about something else.
    const first = u.lines[0]!.trim();
    if (!THIS_FILE.test(first) && !ROLE_LABEL.test(first)) continue;
    u.lines.forEach((text, k) => out.push({ line: u.line + k, text, names: SELF_DESCRIPTION }));
  }
  return out;
}
