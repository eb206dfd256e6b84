import type { InstructionDoc } from '../../model/model.js';

/**
 * Lines in which an instruction file describes itself rather than asks for anything (issue 40):
 * "This file exists for compatibility with tools that look for AGENTS.md.", "This file should not
 * duplicate the command matrix." (a note to whoever edits it), or a label that names the file's role
 * ("> **Context file for coding agents.** Full documentation at …", "**Entrypoint for AI agents.**").
 * Written into Copilot's file they describe another file. Found by the sentence's subject and the
 * label's words, for any file and any tool; a pointer line ("See CONTRIBUTING.md for …") is a rule.
 */
const SELF =
  /^(?:>\s*)*(?:[-*+]\s+)?(?:\*\*|__)?(?:this (?:file|document)\b|[^*_\n]{0,40}\b(?:context file|entry ?point)\b[^*_\n]{0,40}(?:\*\*|__))/i;

export const SELF_DESCRIPTION = 'the file describing itself, not a rule';

/** The lines of a document's text (not code, headings or front matter) in which it describes itself. */
export function selfDescriptionLines(doc: Pick<InstructionDoc, 'units'>): { line: number; text: string; names: string }[] {
  const out: { line: number; text: string; names: string }[] = [];
  for (const u of doc.units) {
    if (u.kind !== 'paragraph' && u.kind !== 'list-item') continue;
    u.lines.forEach((text, k) => {
      if (SELF.test(text.trim())) out.push({ line: u.line + k, text, names: SELF_DESCRIPTION });
    });
  }
  return out;
}
