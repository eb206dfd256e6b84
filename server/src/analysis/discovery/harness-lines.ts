import type { InstructionDoc, Unit } from '../../model/model.js';

/**
 * Orders to the agent's own harness rather than rules for the code (issue 40): a script of its tools
 * called by their function names ("Action: Call `run_terminal_cmd`." and the arguments under it),
 * a tool used to read a file ("use the Read tool to load AGENTS.md"), the harness
 * itself ("Your harness already lists them"), or a list of the tools a script needs. Copilot has none
 * of these. Found by shape, for any assistant: a function name is a lower-case name with an
 * underscore, a tool that reads a file is followed by what it reads; "use the Gradle tool to build"
 * and "set `max_retries`" are rules.
 */
export const HARNESS = "an order to another agent's own tools or harness, not a rule";

/** A tool's function name in a code span: `edit_file`, `mcp_browser_click`. */
const FUNCTION = String.raw`\x60[a-z][a-z0-9]*(?:_[a-z0-9]+)+\x60`;
/**
 * A step of a tool-call script: "Action: Call `run_terminal_cmd`." (a label, then the call). A call
 * in a sentence ("Consumers call `generate_tests` from `build.rs`", "Call `browser_navigate` to open
 * a page") may name a function of the code or a tool Copilot has too: it is one only with its arguments under it.
 */
const CALL = new RegExp(String.raw`\b(?:[Cc]all|[Ii]nvoke)\s+(?:the\s+)?${FUNCTION}`);
const LABELLED_CALL = new RegExp(
  String.raw`^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:\*\*)?[A-Z][\w ]{0,20}:(?:\*\*)?\s*(?:[Cc]all|[Ii]nvoke)\s+${FUNCTION}`,
);
/** A tool that reads: "use the Read tool to load", "with the View tool, open". */
const READING_TOOL = /\bthe\s+[A-Z][A-Za-z]*\s+tool\s+to\s+(?:load|read|open|view|fetch)\b/;
/** The agent's harness addressed: "Your harness already lists them" ("if your harness has no loader, read them" is a rule for any agent). */
const HARNESS_WORD = /(?<!\bif\s)\byour\s+harness\b/i;
/** An argument of the call above it: "`command`: `npx inspector`". */
const ARGUMENT = /^\s*(?:[-*+]|\d+[.)])\s+`[a-z][a-z0-9_]*`\s*:/;
/** A list item that is one function name alone: an entry of the list of tools a script needs. */
const TOOL_ENTRY = new RegExp(String.raw`^\s*(?:[-*+]|\d+[.)])\s+${FUNCTION}\s*$`);
const ITEM_INDENT = /^\s*/;

const cheap = (l: string) => l.includes('tool') || l.includes('all `') || l.includes('arness') || l.includes('nvoke');
const ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

type Group = { line: number; lines: string[]; item: boolean };

/** A unit's lines as its items: a list item's nested items are items of their own, a paragraph is one. */
function groups(u: Unit): Group[] {
  if (u.kind === 'paragraph') return [{ line: u.line, lines: u.lines, item: false }];
  const out: Group[] = [];
  u.lines.forEach((text, k) => {
    if (k === 0 || ITEM.test(text)) out.push({ line: u.line + k, lines: [text], item: true });
    else out.at(-1)!.lines.push(text);
  });
  return out;
}

/** The lines of a document's text in which it orders the agent's harness: each paragraph or item doing so, all its lines. */
export function harnessLines(doc: Pick<InstructionDoc, 'units'>): { line: number; text: string; names: string }[] {
  const out: { line: number; text: string; names: string }[] = [];
  const take = (g: Group) => g.lines.forEach((text, k) => out.push({ line: g.line + k, text, names: HARNESS }));
  const all: Group[] = [];
  for (const u of doc.units) if (u.kind === 'paragraph' || u.kind === 'list-item') all.push(...groups(u));
  const indent = (g: Group) => ITEM_INDENT.exec(g.lines[0]!)![0].length;
  for (let i = 0; i < all.length; i++) {
    const g = all[i]!;
    if (g.item && TOOL_ENTRY.test(g.lines[0]!)) {
      // Two function names or more in a row: the tools the script needs, with the line leading into them.
      let end = i;
      while (all[end + 1]?.item && TOOL_ENTRY.test(all[end + 1]!.lines[0]!)) end++;
      const lead = all[i - 1];
      const leads = lead && !lead.item && lead.lines.length === 1 && lead.line >= g.line - 2 && /:(?:\*\*|__)?\s*$/.test(lead.lines[0]!);
      if (end > i && leads) take(lead);
      if (end > i) all.slice(i, end + 1).forEach(take);
      i = end;
      continue;
    }
    const text = g.lines.join(' ');
    if (!cheap(text)) continue;
    // The call's arguments: the items after it at its indent.
    let args = i;
    while (g.item && all[args + 1]?.item && ARGUMENT.test(all[args + 1]!.lines[0]!) && indent(all[args + 1]!) === indent(g)) args++;
    const call = CALL.test(text) && (args > i || LABELLED_CALL.test(g.lines[0]!));
    if (!call && !READING_TOOL.test(text) && !HARNESS_WORD.test(text)) continue;
    all.slice(i, args + 1).forEach(take);
    i = args;
  }
  return out;
}
