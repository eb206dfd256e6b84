import { positiveNumberFromEnv } from '../common/env.js';
import { errorMessage } from '../common/errors.js';
import { AskedBetweenCalls, NoReplyError, type SampleReply, type SampleRequest, type Session } from '../call/ports.js';
import { showLine } from '../show/untrusted.js';
import { prune, RETENTION } from '../state/retention.js';
import type { SamplingTrace } from '../state/schema.js';
import { repoRelative, writeSamplingTrace } from '../state/traces/writer.js';

/**
 * One sampling exchange, traced: the request goes to the client's model, its reply is read by the
 * caller, and the trace records both (refusals, timeouts and unreadable replies included). The
 * narration and propose's second-look question both go through here, so both are traced alike.
 */

export const DEFAULT_SAMPLING_TIMEOUT_MS = 60_000;

export function samplingTimeoutMs(): number {
  return positiveNumberFromEnv('COPILOT_ONBOARD_SAMPLING_TIMEOUT_MS', DEFAULT_SAMPLING_TIMEOUT_MS);
}

export interface ExchangeContext {
  root: string;
  /** The model asked, and the client named in the trace. */
  session: Pick<Session, 'model' | 'client'>;
  signal?: AbortSignal;
}

/** What the caller made of a reply: a value it uses, or why it uses none; `record` goes into the trace. */
export type Reading<T> =
  { value: T; record?: Pick<SamplingTrace, 'verdicts'> } | { error: string; record?: Pick<SamplingTrace, 'verdicts'> };

export interface Exchanged<T> {
  value: T | null;
  /** The reply's model name, when it gave one. */
  model: string;
  outcome: SamplingTrace['outcome'];
  trace: string | null;
}

/**
 * Ask, read, trace. `read` sees the reply only when one came; a reply it cannot use is an `error`
 * outcome with its reason. A reply carried from an earlier call (2026-07-28) was traced when it came.
 */
export async function sampleTraced<T>(
  ctx: ExchangeContext,
  intent: SamplingTrace['intent'],
  request: SampleRequest,
  read: (reply: SampleReply) => Reading<T>,
): Promise<Exchanged<T>> {
  const started = Date.now();
  let outcome: SamplingTrace['outcome'];
  let response: SamplingTrace['response'] = null;
  let value: T | null = null;
  let model = '';
  let error: string | undefined;
  let record: Pick<SamplingTrace, 'verdicts'> | undefined;
  let replayed = false;

  if (!ctx.session.model.canSample()) {
    outcome = 'unsupported';
  } else {
    try {
      const result = await ctx.session.model.sample(request, { timeoutMs: samplingTimeoutMs(), signal: ctx.signal });
      replayed = result.replayed === true;
      response = { model: result.model, stopReason: result.stopReason, content: result.content };
      model = typeof result.model === 'string' ? result.model : '';
      const reading = read(result);
      record = reading.record;
      if ('value' in reading) {
        outcome = 'ok';
        value = reading.value;
      } else {
        outcome = 'error';
        error = reading.error;
      }
    } catch (err) {
      // The question goes back with the call's result (2026-07-28); the client calls again with the reply.
      if (err instanceof AskedBetweenCalls) throw err;
      outcome = samplingOutcome(err);
      error = errorMessage(err);
    }
  }
  if (replayed) return { value, model, outcome, trace: null };

  // Dated by the writer, when it joins the chain; duration_ms gives the start.
  const trace: Omit<SamplingTrace, 'seq' | 'prev' | 'timestamp'> = {
    intent,
    request,
    response,
    outcome,
    duration_ms: Date.now() - started,
    fallback: value === null,
    client: ctx.session.client.info(),
    ...protocolOf(ctx.session.client),
    ...(error ? { error } : {}),
    ...(record ?? {}),
  };
  let tracePath: string | null = null;
  try {
    tracePath = repoRelative(ctx.root, await writeSamplingTrace(ctx.root, trace));
  } catch (err) {
    process.stderr.write(`copilot-onboard: could not write sampling trace: ${showLine(errorMessage(err))}\n`);
  }
  // Read-only traces are kept up to a bound (state/retention.ts): past it, the oldest go, recorded in their own chain head.
  try {
    await prune(
      ctx.root,
      `Retention policy: read-only traces passed ${RETENTION.readOnlyTraces + RETENTION.slack}; the newest ${RETENTION.readOnlyTraces} are kept.`,
    );
  } catch (err) {
    process.stderr.write(`copilot-onboard: could not prune old traces: ${showLine(errorMessage(err))}\n`);
  }
  return { value, model, outcome, trace: tracePath };
}

/** The first text block of a reply's content (one block or several), or null. */
export function replyText(content: unknown): string | null {
  const block: unknown = Array.isArray(content) ? content[0] : content;
  if (typeof block !== 'object' || block === null) return null;
  const b = block as { type?: unknown; text?: unknown };
  return b.type === 'text' && typeof b.text === 'string' ? b.text : null;
}

function samplingOutcome(err: unknown): SamplingTrace['outcome'] {
  if (!(err instanceof NoReplyError)) return 'error';
  if (err.kind === 'timeout' || err.kind === 'unsupported' || err.kind === 'denied') return err.kind;
  return 'error';
}

/** The protocol of the exchange, when the session knows it (an MCP client). */
function protocolOf(client: { protocol?(): SamplingTrace['protocol'] | null }): Pick<SamplingTrace, 'protocol'> {
  const protocol = client.protocol?.();
  return protocol ? { protocol } : {};
}
