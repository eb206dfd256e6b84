import type { InstructionDoc } from '../../model/model.js';

/**
 * Lines written for another assistant, found by what they name: the assistant itself, addressed
 * ("This file provides guidance to Claude Code…", "Codex cannot run…"), its link scheme (`mdc:`
 * links only Cursor resolves), its tools (Roo's `apply_diff`), its commands (`claude -p`, "use
 * `/compact`"), or a section titled for it
 * ("## Claude-specific"). Copilot would read them as its own rules; the plan lists them.
 */
export interface OtherAssistantLine {
  line: number;
  text: string;
  /** Why: "names Claude Code", "an mdc: link, which only Cursor resolves", "a section for Claude". */
  names: string;
}

/** The assistants named, longest first within a family. */
export const ASSISTANT = String.raw`Claude Code|Claude|Codex|Gemini CLI|Gemini|Cursor|Windsurf|Cline|Roo Code|Roo|Aider|Devin`;
/** The assistant addressed: told what it does, or named as the file's reader. */
const ADDRESSED = new RegExp(
  String.raw`\b(?:guidance to|instructions for|written for|rules for)\s+(${ASSISTANT})\b|\b(${ASSISTANT})\s+(?:should|must|cannot|can't|won't|doesn't|is not able|has no)\b|(claude\.ai/code)`,
);
/**
 * What a section configures when it is about a product's option named for an assistant's model or
 * API ("Gemini-specific Options" of a package that integrates Gemini): settings of the code, not a
 * section written for that assistant.
 */
const PRODUCT_OPTIONS = String.raw`(?:options|settings|parameters|params|configuration|config|fields|types|models?|api)\b`;
/** A heading for one assistant: "Claude-specific", "For Codex", "Notes for Cursor", or the name alone. */
const SECTION_FOR = new RegExp(
  String.raw`^ {0,3}#{1,6}\s+(?:(?:notes |instructions |rules )?for (${ASSISTANT})\b|(${ASSISTANT})[- ]specific\b(?!\s+${PRODUCT_OPTIONS})|(${ASSISTANT})\s*#*\s*$)`,
  'i',
);
const MDC_LINK = /\]\(mdc:[^)]*\)|(?<![\w/])mdc:[\w./-]+/;
/** Tools of other assistants' agents, as their rules name them. */
const TOOL =
  /`(apply_diff|write_to_file|insert_content|search_and_replace|replace_in_file|attempt_completion|ask_followup_question|use_mcp_tool|new_task|TodoWrite|MultiEdit)\b[^`]*`/;

/** Another assistant's own commands: its CLI run with its options (`claude -p`, `codex exec`), or a slash command it is told to use. */
const CLI = /`(claude|codex|gemini|aider|cursor-agent)\s+(?:-{1,2}[\w-]+|exec|mcp|chat|config)\b[^`]*`/;
const SLASH =
  /\b(?:use|run|type|invoke|call)\s+(?:the\s+)?`(\/(?:compact|clear|init|memory|resume|rewind|add|drop|architect|ask))\b[^`]*`/i;

const FENCE = /^\s*(`{3,}|~{3,})/;

/** What a line names that is another assistant's, or null. */
export function otherAssistantIn(line: string): string | null {
  const section = SECTION_FOR.exec(line);
  // A title that is the name alone ("# Claude" atop CLAUDE.md) names the file, not a section for another assistant.
  if (section && !(section[3] && /^ {0,3}#\s/.test(line))) return `a section for ${section[1] ?? section[2] ?? section[3]}`;
  const addressed = ADDRESSED.exec(line);
  if (addressed) return `names ${addressed[3] ? 'Claude Code' : (addressed[1] ?? addressed[2])}`;
  if (MDC_LINK.test(line)) return 'an mdc: link, which only Cursor resolves';
  const tool = TOOL.exec(line);
  if (tool) return `names ${tool[1]}, another assistant's tool`;
  const cli = CLI.exec(line);
  if (cli) return `runs ${cli[1]}, another assistant's command`;
  const slash = SLASH.exec(line);
  return slash ? `names ${slash[1]}, another assistant's command` : null;
}

/** The lines of a legacy document written for another assistant, code blocks aside. */
export function otherAssistantLines(doc: Pick<InstructionDoc, 'units'>): OtherAssistantLine[] {
  const found: OtherAssistantLine[] = [];
  for (const u of doc.units) {
    if (u.kind === 'code' || u.kind === 'frontmatter') continue;
    let fence = false;
    u.lines.forEach((text, k) => {
      if (FENCE.test(text)) fence = !fence;
      const names = fence ? null : otherAssistantIn(text);
      if (names) found.push({ line: u.line + k, text, names });
    });
  }
  return found;
}
