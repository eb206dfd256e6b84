import { elicitationTimeoutMs } from '../gate/gate.js';
import { STATE } from '../repo/state-paths.js';
import { GatedStep } from '../state/schema.js';
import { writeElicitationTrace } from '../state/traces/writer.js';
import type { Session } from '../call/ports.js';

/**
 * A 2026-07-28 question goes back with the call's result, and the client may never call again: no
 * answer, and, without this, no trace, where a 2025-era question that is never answered ends in a
 * `timeout` trace. So each question asked between calls waits here for as long as an answer could
 * still count (the request state expires with the elicitation timeout); when its single-use nonce is
 * still free then, it is taken (a late answer is refused as used) and a `timeout` trace is written,
 * with what was shown and no response. A process that ends first writes none (docs/traces.md).
 */

/** Single use: the nonce's file is created once; a second answer with the same state, or the timeout, finds it there. */
export async function takeNonce(repo: string, nonce: string): Promise<boolean> {
  const { createFile } = await import('../repo/safe-fs.js');
  return createFile(repo, `${STATE.usedRequestStates}/${nonce}`, `${new Date().toISOString()}\n`);
}

export function traceIfUnanswered(q: {
  root: () => Promise<string>;
  tool: string;
  nonce: string;
  message: string;
  schema: Record<string, unknown>;
  planHash: string | null;
  client: Session['client'];
}): void {
  const step = GatedStep.safeParse(q.tool.replace(/^onboarding_/, ''));
  if (!step.success) return;
  const started = Date.now();
  const timer = setTimeout(() => {
    void (async () => {
      const repo = await q.root();
      if (!(await takeNonce(repo, q.nonce))) return;
      const protocol = q.client.protocol?.() ?? null;
      await writeElicitationTrace(repo, {
        action: step.data,
        message: q.message,
        schema: q.schema,
        response: null,
        outcome: 'timeout',
        duration_ms: Date.now() - started,
        planHash: q.planHash,
        client: q.client.info(),
        ...(protocol ? { protocol } : {}),
        detail: `No answer came back within ${Math.round(elicitationTimeoutMs() / 1000)} s: the question counts as cancelled, never as approval. Nothing was changed.`,
      });
    })().catch(() => undefined);
  }, elicitationTimeoutMs() + 500);
  timer.unref();
}
