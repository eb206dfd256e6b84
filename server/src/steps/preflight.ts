import type { ClientInfo } from '../state/schema.js';
import type { FlowOptions } from '../call/context.js';
import { ignoredStateText } from '../call/words.js';

/**
 * What every command does on a repository before it reads or writes anything, in one place: a
 * bare repository refused (for the steps), a link in `.copilot-state` refused, an interrupted
 * migrate or rollback brought to one side, and decision state this clone did not write found (and
 * ignored). steps/tool-call.ts runs it before each step; the CLI's `traces` and `check` run it too.
 */
export interface Preflight {
  /** Whether `.copilot-state/` was there: a call that finds it there after its step made it. */
  stateWasThere: boolean;
  recovered: Awaited<ReturnType<typeof import('../gate/recovery-trace.js').recoverAndTrace>>;
  ignored: Awaited<ReturnType<typeof import('../state/foreign.js').foreignState>>;
}

export async function preflight(root: string, client: ClientInfo | null, opts: { refuseBare: boolean }): Promise<Preflight> {
  // A bare repository has no work tree: nothing is read, and no .copilot-state/ is written into it.
  if (opts.refuseBare) await (await import('../repo/git-state.js')).assertNotBare(root);
  // A link in .copilot-state is refused before anything is read or written, read-only steps included.
  const stateWasThere = await (await import('../repo/safe-fs.js')).assertStateTreeReal(root);
  const recovered = await (await import('../gate/recovery-trace.js')).recoverAndTrace(root, client);
  const ignored = await ignoredState(root);
  return { stateWasThere, recovered, ignored };
}

/** Decision state in the repository that this clone did not write, or null. */
export async function ignoredState(root: string): Promise<Preflight['ignored']> {
  return (await import('../state/foreign.js')).foreignState(root);
}

/** The same, said to a person: null when there is none. */
export async function ignoredStateNotice(root: string, options: FlowOptions): Promise<string | null> {
  const ignored = await ignoredState(root);
  return ignored ? ignoredStateText(ignored, options) : null;
}
