import type { FlowContext, FlowOptions, FlowReport } from '../call/context.js';
import { AskedBetweenCalls, type Session } from '../call/ports.js';
import type { Notice, StepResult } from './result.js';
import type { ToolName } from './tool-steps.js';
import type { EarlyListing } from '../analysis/discovery/git-listing.js';
import { STATE, STATE_DIR } from '../repo/state-paths.js';
import { OUTCOMES } from '../common/outcomes.js';
import { showLine } from '../show/untrusted.js';
import { ignoredStateText } from '../call/words.js';
import { toToolResult, type ToolResult } from './tool-result.js';
import { ignoredState, preflight } from './preflight.js';

/**
 * A tool call once it is taken, by the MCP server (mcp/server.ts, for every client) or by the CLI
 * (cli/direct.ts, every command that runs a step): the checks, the recovery, the step, and the
 * result as MCP shows it. Nothing here knows MCP's SDK: the CLI's commands start without it.
 */

export type { ToolResult, EarlyListing };

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
  // Whether .copilot-state/ was there before the step: a call that finds it there afterwards made it.
  let stateWasThere = true;
  try {
    root = await call.root();
    const session = call.session;
    const before = await preflight(root, session.client.info(), { refuseBare: true });
    stateWasThere = before.stateWasThere;
    const { recovered } = before;
    let { ignored } = before;
    const report = call.report;
    // A journal (recovered now, or one that could not be) may mean files moved since git listed them: the scan lists afresh.
    const journal =
      call.early?.root === root
        ? await (await import('../repo/safe-fs.js')).entryStat(root, STATE.journal).catch(() => undefined)
        : undefined;
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
      stepResult = withNotice(stepResult, { at: 'first', text: `Recovered first: ${showLine(recovered.detail)}` });
      stepResult.structured.recovered = recovered;
    }
    // A rollback that took up an earlier version's migration made it this clone's own: said as it is now.
    if (ignored && stepResult.outcome === 'rolled_back') ignored = await ignoredState(root);
    if (ignored) {
      stepResult = withNotice(stepResult, { at: 'after', text: ignoredStateText(ignored, options) });
      stepResult.structured.ignoredState = ignored;
    }
  } catch (err) {
    if (err instanceof AskedBetweenCalls) throw err;
    stepResult = (await import('./result.js')).resultForError(err);
  }
  // The run that created .copilot-state/ (and its .gitignore) says so, once; a refusal, which said
  // nothing was changed, says that only its trace was written there.
  if (root !== null && !stateWasThere && (await stateFolderThere(root))) {
    const notice = OUTCOMES[stepResult.outcome].refusal ? REFUSED_STATE_NOTICE : STATE_FOLDER_NOTICE;
    stepResult = withNotice(stepResult, { at: 'after', text: notice });
    stepResult.structured.notice = notice;
  }
  return toToolResult(stepResult, name, options);
}

/** The result with one more of the call's facts, in the order they came. */
function withNotice(r: StepResult, notice: Notice): StepResult {
  return { ...r, notices: [...(r.notices ?? []), notice] };
}

async function stateFolderThere(root: string): Promise<boolean> {
  const st = await (await import('../repo/safe-fs.js')).entryStat(root, STATE_DIR).catch(() => null);
  return st?.isDirectory() === true;
}
