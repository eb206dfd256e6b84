import type { InstructionDoc, Unit } from '../../model/model.js';

/**
 * Lines in which an instruction file describes itself rather than asks for anything (issue 40):
 * "This file exists for compatibility with tools that look for AGENTS.md.", "This file should not
 * duplicate the command matrix." (a note to whoever edits it), or a label that names the file's role
 * ("> **Context file for coding agents.** Full documentation at …", "**Entrypoint for AI agents.**").
 * Written into Copilot's file they describe another file. Found by the opening sentence's subject and
 * the label's words, for any file and any tool; a pointer line ("See CONTRIBUTING.md for …") is a rule.
 */
const MARKERS = String.raw`^(?:>\s*)*(?:[-*+]\s+)?(?:\*\*|__)?`;
/** A paragraph or item that opens with the file, or a marker in it, as its subject (a sentence's start: capital T). */
const THIS_FILE = new RegExp(`${MARKERS}(?:This (?:file|document)|The (?:marker|comment) above)\\b`);
/**
 * A bold label naming the file's role, bold from its first character ("7. Entry point: `__main__`" is
 * a rule): a context file or entry point, or a sentence saying which agents it is for ("**Briefing
 * sheet for coding agents.**"; "**Important for agents:** …" leads into a rule).
 */
const ROLE_LABEL =
  /^(?:>\s*)*(?:[-*+]\s+)?(\*\*|__)(?:[^*_\n]{0,40}\b(?:context file|entry ?point)\b[^*_\n]{0,40}|[^*_\n]{0,60}\bfor\b[^*_\n]{0,30}\b(?:agents?|assistants?|LLMs?)\.)\1/i;
/**
 * A tool's marker: an HTML comment alone on its line, at its start, naming a setting and its value
 * (`<!-- bd-doctor-divergence: ok -->`). Its tool reads it in this file; elsewhere it tells nothing.
 * A directive without a value (`<!-- prettier-ignore -->`) acts on the lines after it and travels with them.
 */
const MARKER = /^<!--\s*(?!copilot-onboard\b)[a-z][\w.-]*\s*:\s*[\w.-]+\s*-->\s*$/;
export const TOOL_MARKER = "a tool's marker comment, which its tool reads in this file only, not a rule";

const markerName = (line: string) => /<!--\s*([\w.-]+)/.exec(line)![1]!;
/** How many comments of the file open with this name. */
function markersNamed(doc: Pick<InstructionDoc, 'units'>, name: string): number {
  let n = 0;
  for (const u of doc.units) for (const l of u.lines) if (l.includes('<!--') && /<!--\s*([\w.-]+)/.exec(l)?.[1] === name) n++;
  return n;
}

export const SELF_DESCRIPTION = 'the file describing itself, not a rule';

/** A line found, and when only its end is (a last sentence starting mid-line), the words before it that stay. */
export interface SelfDescriptionLine {
  line: number;
  text: string;
  names: string;
  keep?: string;
}

/** A paragraph's last sentence, opening mid-paragraph with the file as its subject ("… for the current policy. This file should not duplicate …"). */
const LAST_SENTENCE_ABOUT_FILE = /(?<=[.!?]\s+)This (?:file|document)\b[^.!?]*[.!?]?\s*$/;

/** The lines of a paragraph's last sentence about the file itself: the line it opens in cut before it, the lines after it whole. */
function lastSentenceAboutFile(u: Unit): SelfDescriptionLine[] {
  const k = u.lines.findIndex((l) => l.includes('This file') || l.includes('This document'));
  if (k < 0) return [];
  const rest = u.lines.slice(k).join('\n');
  // The sentence opens its line, after one that ends a sentence: its lines go whole.
  const opens = k > 0 && /[.!?]\s*$/.test(u.lines[k - 1]!) && LAST_SENTENCE_ABOUT_FILE.exec(`. ${rest.trimStart()}`)?.index === 2;
  if (opens) return u.lines.slice(k).map((text, j) => ({ line: u.line + k + j, text, names: SELF_DESCRIPTION }));
  const m = LAST_SENTENCE_ABOUT_FILE.exec(rest);
  if (!m || m.index >= u.lines[k]!.length) return [];
  const keep = u.lines[k]!.slice(0, m.index).trimEnd();
  if (keep === '') return [];
  const names = `${SELF_DESCRIPTION} (from "${u.lines[k]!.slice(m.index, m.index + 24).trimEnd()}…"; the words before it stay)`;
  return u.lines
    .slice(k)
    .map((text, j) => ({ line: u.line + k + j, text, names: j === 0 ? names : SELF_DESCRIPTION, ...(j === 0 ? { keep } : {}) }));
}

/** The lines of a document's text (not code, headings or front matter) in which it describes itself: a paragraph or item opening so, all its lines. */
export function selfDescriptionLines(doc: Pick<InstructionDoc, 'units'>): SelfDescriptionLine[] {
  const out: SelfDescriptionLine[] = [];
  for (const u of doc.units) {
    // A marker named once in the file marks the file; one repeated, or a start and an end, marks lines and travels with them.
    if (u.lines.length === 1 && MARKER.test(u.lines[0]!) && markersNamed(doc, markerName(u.lines[0]!)) === 1) {
      out.push({ line: u.line, text: u.lines[0]!, names: TOOL_MARKER });
      continue;
    }
    if (u.kind !== 'paragraph' && u.kind !== 'list-item') continue;
    // Its opening sentence only: a later line starting "this file" is the middle of a sentence about something else.
    const first = u.lines[0]!.trim();
    if (!THIS_FILE.test(first) && !ROLE_LABEL.test(first)) {
      if (u.kind === 'paragraph') out.push(...lastSentenceAboutFile(u));
      continue;
    }
    u.lines.forEach((text, k) => out.push({ line: u.line + k, text, names: SELF_DESCRIPTION }));
  }
  return out;
}
