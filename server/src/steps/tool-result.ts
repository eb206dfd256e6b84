import type { FlowOptions } from '../call/context.js';
import type { StepResult } from './result.js';
import type { ToolName } from './tool-steps.js';
import { BAD_INPUT_META } from '../common/outcomes.js';
import { showText } from '../show/untrusted.js';
import { commandName, forPerson } from '../call/words.js';
import { boundJson, boundText, countBy, fitsBytes, MAX_STRUCTURED_BYTES, MAX_TEXT_BYTES } from '../narrate/bounded.js';

/** One block of a tool result's content, as MCP carries it (its shape, without the SDK). */
export type ToolContent =
  { type: 'text'; text: string } | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/** What a tool call returns (the MCP result); ours always carries an object as structured content. */
// A type, not an interface: the SDK's result type has an index signature, which only a type literal meets.
export type ToolResult = {
  content: ToolContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

/**
 * The one composer of a step's text, from its parts as data: the call's facts said first, the
 * step's report, the call's facts said after it, the end, and the client model's narration last
 * of all (labelled: its words never pass for the tool's).
 */
export function composedBody(r: StepResult): string {
  const notices = r.notices ?? [];
  const at = (where: 'first' | 'after') => notices.filter((n) => n.at === where).map((n) => n.text);
  return [...at('first'), r.text, ...at('after')].join('\n\n');
}

const narrationPart = (r: StepResult) => (r.narration === undefined ? '' : `\n\n---\n${r.narration}`);

/** Where the whole of a cut reply is, by tool: an MCP resource the client reads in pages, and the file on disk. */
const WHOLE: Partial<Record<ToolName, { uri: string; name: string; file?: string; mimeType: string }>> = {
  onboarding_propose: { uri: 'copilot-onboard://plan', name: 'plan', file: '.copilot-state/plan.json', mimeType: 'text/markdown' },
  onboarding_analyze: { uri: 'copilot-onboard://analysis', name: 'analysis', mimeType: 'application/json' },
};

/** Where the whole of a cut reply is: for a model, the MCP resource and the file; for a person at the CLI, the file and the command that prints it all. */
function wholeWhere(tool: ToolName, options: FlowOptions): string {
  const whole = WHOLE[tool];
  if (forPerson(options)) {
    const step = tool === 'onboarding_propose' ? 'propose' : tool === 'onboarding_analyze' ? 'analyze' : null;
    if (step === null) return 'The whole of it is in .copilot-state/.';
    if (step === 'propose')
      return `The whole diff: .copilot-state/plan.diff, which ${commandName(options, step)} --diff prints; all of the plan: ${commandName(options, step)} --json.`;
    return `The whole of it: ${whole?.file ? `${whole.file}, and ` : ''}${commandName(options, step)} --json.`;
  }
  if (tool === 'onboarding_propose')
    return 'The whole diff: the MCP resource copilot-onboard://plan.diff and .copilot-state/plan.diff; all of the plan: the MCP resource copilot-onboard://plan (read in pages), and .copilot-state/plan.json.';
  return whole
    ? `The whole of it: the MCP resource ${whole.uri} (read in pages)${whole.file ? `, and ${whole.file}` : ''}.`
    : 'The whole of it is in .copilot-state/.';
}

/**
 * The text a client shows passes the display function: every hidden character escaped, newlines
 * kept (the steps quote paths and put outside text on one line themselves). structuredContent is
 * data, exactly as it is: the content there is what would be written.
 *
 * Both are bounded (narrate/bounded.ts): a reply stays well under 1 MiB on a repository of any
 * size. What is cut is counted in `truncated`, and the whole is offered as a resource_link.
 */
export function toToolResult(r: StepResult, tool: ToolName, options: FlowOptions): ToolResult {
  const whole = WHOLE[tool];
  const where = wholeWhere(tool, options);
  const bounded = boundJson(r.structured, MAX_STRUCTURED_BYTES);
  const structured: Record<string, unknown> = bounded.value;
  // The end (the summary, the next step) is said after any cut: room is kept for it.
  const end = r.end ? showText(r.end) : null;
  const body = showText(composedBody(r));
  const narration = showText(narrationPart(r));
  const full = `${body}${end ? `\n\n${end}` : ''}${narration}`;
  const textCut = !fitsBytes(full, MAX_TEXT_BYTES);
  let text = full;
  if (textCut || bounded.omitted) {
    const summary = summaryOf(r.structured);
    const room = MAX_TEXT_BYTES - (end ? Buffer.byteLength(end, 'utf8') + 2 : 0);
    text = boundText(`${summary ? `${summary}\n\n` : ''}${body}${narration}`, room, where) + (end ? `\n\n${end}` : '');
    structured.truncated = { omitted: bounded.omitted ?? {}, textCut, whole: where, ...(whole ? { resource: whole.uri } : {}) };
  }
  const content: ToolContent[] = [{ type: 'text', text }];
  if ((textCut || bounded.omitted) && whole)
    content.push({
      type: 'resource_link',
      uri: whole.uri,
      name: whole.name,
      mimeType: whole.mimeType,
      description: `The whole ${whole.name}, in pages.`,
    });
  const result: ToolResult = { content, structuredContent: structured, isError: r.isError };
  // Lets the CLI tell bad input (exit 2) from an internal error (exit 1).
  if (r.badInput) result._meta = { [BAD_INPUT_META]: true };
  return result;
}

/** A long reply's shape in a few numbers: operations by kind, problems by type, sources and notes counted. */
function summaryOf(s: Record<string, unknown>): string | null {
  const parts: string[] = [];
  const list = (k: string) => (Array.isArray(s[k]) ? (s[k] as Record<string, unknown>[]) : null);
  const ops = list('operations');
  if (ops) parts.push(`${ops.length} file operations (${fmt(countBy(ops, (o) => String(o.op)))})`);
  const problems = list('problems');
  if (problems) parts.push(`${problems.length} problems (${fmt(countBy(problems, (p) => String(p.type))) || 'none'})`);
  const sources = list('sources');
  if (sources) parts.push(`${sources.length} instruction files`);
  const notes = list('notes');
  if (notes) parts.push(`${notes.length} notes`);
  return parts.length ? `In short: ${parts.join('; ')}. This reply shows the first of each; the whole is below.` : null;
}

const fmt = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
