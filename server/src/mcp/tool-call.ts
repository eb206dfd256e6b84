import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FlowContext, FlowOptions, FlowReport } from '../call/context.js';
import { AskedBetweenCalls, type Session } from '../call/ports.js';
import type { StepResult } from '../steps/result.js';
import type { ToolName } from './tool-schemas.js';
import type { EarlyListing } from '../analysis/discovery/git-listing.js';
import { STATE } from '../repo/state-paths.js';
import { BAD_INPUT_META, OUTCOMES } from '../common/outcomes.js';
import { showLine, showText } from '../show/untrusted.js';
import { NARRATION_LABEL } from '../narrate/narration-label.js';
import { commandName, forPerson, ignoredStateText } from '../call/words.js';
import { boundJson, boundText, countBy, fitsBytes, MAX_STRUCTURED_BYTES, MAX_TEXT_BYTES } from '../narrate/bounded.js';

/**
 * A tool call once the server has taken it: the checks, the recovery, the step, and the result as
 * MCP shows it. Nothing here loads the SDK at run time (its types only): `mcp/server.ts` calls it
 * for every client, and the CLI's read-only commands call it directly, without an MCP client
 * (cli/direct.ts), so that they start without the SDK.
 */

/** What a tool call returns (the MCP result); ours always carries an object as structured content. */
export type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

/** Said once, by the run that created `.copilot-state/`. */
export const STATE_FOLDER_NOTICE =
  'Created .copilot-state/ with its own .gitignore (.copilot-state/.gitignore): backups, the plan, the state, the journal and locks stay out of git, so git add -A offers only the traces, which are meant to be reviewed and may be committed.';

/** The same, after a refusal: nothing of the repository changed, and the trace is all there is in the new folder. */
export const REFUSED_STATE_NOTICE =
  'Only the trace of this refusal was written, in .copilot-state/, which is new here and has its own .gitignore (.copilot-state/.gitignore): git add -A offers only the traces, which are meant to be reviewed and may be committed.';

export interface StepCall {
  name: ToolName;
  run: (ctx: FlowContext) => Promise<StepResult>;
  /** The repository of this call; a rejection becomes the result, as every other error. */
  root: () => Promise<string>;
  session: Session;
  options: FlowOptions;
  report: FlowReport & { flush(): Promise<void> };
  signal?: AbortSignal;
  /** git's listing, started before the call (the CLI's analyze). */
  early?: EarlyListing;
}

export async function callStep(call: StepCall): Promise<ToolResult> {
  const { name, options } = call;
  let stepResult: StepResult;
  let root: string | null = null;
  try {
    root = await call.root();
    // A bare repository has no work tree: nothing is read, and no .copilot-state/ is written into it.
    await (await import('../repo/git-state.js')).assertNotBare(root);
    const safe = await import('../repo/safe-fs.js');
    // A link in .copilot-state is refused before anything is read or written, read-only steps included.
    await safe.assertStateTreeReal(root);
    const session = call.session;
    const recovered = await (await import('../gate/recovery-trace.js')).recoverAndTrace(root, session.client.info());
    let ignored = await (await import('../state/foreign.js')).foreignState(root);
    const report = call.report;
    // A journal (recovered now, or one that could not be) may mean files moved since git listed them: the scan lists afresh.
    const journal = call.early?.root === root ? await safe.entryStat(root, STATE.journal).catch(() => undefined) : undefined;
    const listed = journal === null && !recovered ? call.early!.files : undefined;
    stepResult = await call.run({
      root,
      session,
      signal: call.signal,
      options: { ...options, repoArg: options.repoArg ?? root },
      report,
      ...(listed ? { listed } : {}),
    });
    // Every progress message goes out before the result, never after it.
    await report.flush();
    report.log(stepResult.isError ? 'warning' : 'info', `${name}: ${stepResult.outcome}`);
    if (recovered) {
      stepResult.text = `Recovered first: ${showLine(recovered.detail)}\n\n${stepResult.text}`;
      stepResult.structured.recovered = recovered;
    }
    // A rollback that took up an earlier version's migration made it this clone's own: said as it is now.
    if (ignored && stepResult.outcome === 'rolled_back') ignored = await (await import('../state/foreign.js')).foreignState(root);
    if (ignored) {
      stepResult.text = withFact(stepResult.text, ignoredStateText(ignored, options));
      stepResult.structured.ignoredState = ignored;
    }
  } catch (err) {
    if (err instanceof AskedBetweenCalls) throw err;
    stepResult = (await import('../steps/result.js')).resultForError(err);
  }
  // The run that created .copilot-state/ (and its .gitignore) says so, once; a refusal, which said
  // nothing was changed, says that only its trace was written there.
  if (root !== null && (await import('../repo/safe-fs.js')).takeStateFolderCreated(root)) {
    const notice = OUTCOMES[stepResult.outcome].refusal ? REFUSED_STATE_NOTICE : STATE_FOLDER_NOTICE;
    stepResult.text = withFact(stepResult.text, notice);
    stepResult.structured.notice = notice;
  }
  return toCallToolResult(stepResult, name, options);
}

/** A fact of the tool's own goes with the facts: before the client model's narration, which always comes last. */
function withFact(text: string, fact: string): string {
  const narration = text.lastIndexOf(`\n\n---\n${NARRATION_LABEL}`);
  return narration < 0 ? `${text}\n\n${fact}` : `${text.slice(0, narration)}\n\n${fact}${text.slice(narration)}`;
}

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
function toCallToolResult(r: StepResult, tool: ToolName, options: FlowOptions): ToolResult {
  const whole = WHOLE[tool];
  const where = wholeWhere(tool, options);
  const bounded = boundJson(r.structured, MAX_STRUCTURED_BYTES);
  const structured: Record<string, unknown> = bounded.value;
  // The end (the summary, the next step) is said after any cut: room is kept for it.
  const end = r.end ? showText(r.end) : null;
  let text = showText(r.text);
  const full = end ? withFact(text, end) : text;
  const textCut = !fitsBytes(full, MAX_TEXT_BYTES);
  if (textCut || bounded.omitted) {
    const summary = summaryOf(r.structured);
    const room = MAX_TEXT_BYTES - (end ? Buffer.byteLength(end, 'utf8') + 2 : 0);
    text = boundText(summary ? `${summary}\n\n${text}` : text, room, where) + (end ? `\n\n${end}` : '');
    structured.truncated = { omitted: bounded.omitted ?? {}, textCut, whole: where, ...(whole ? { resource: whole.uri } : {}) };
  } else text = full;
  const content: CallToolResult['content'] = [{ type: 'text', text }];
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
