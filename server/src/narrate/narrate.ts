import { positiveNumberFromEnv } from '../common/env.js';
import { errorMessage } from '../common/errors.js';
import { AskedBetweenCalls, NoReplyError, type SampleRequest, type Session } from '../call/ports.js';
import { showExcerpt, showLine, showText } from '../show/untrusted.js';
import { boundJson, MAX_SAMPLING_FACTS_BYTES } from './bounded.js';
import { NARRATION_LABEL } from './narration-label.js';
import { prune, RETENTION } from '../state/retention.js';
import type { SamplingTrace } from '../state/schema.js';
import { repoRelative, writeSamplingTrace } from '../state/traces/writer.js';

/**
 * The only code that sends sampling requests. A model may explain the analysis or plan to the
 * person; it never decides anything, and the structured result never comes from it. Its words
 * come after the tool's own report, labelled as the client model's, each line quoted: a narration
 * that imitates the report cannot pass for it.
 */

export const DEFAULT_SAMPLING_TIMEOUT_MS = 60_000;
/** Clients may ignore maxTokens (VS Code does), so the reply is cut here as well. */
export const MAX_NARRATION_CHARS = 4000;
const MAX_TOKENS = 700;

const SYSTEM_PROMPT =
  'You explain the result of copilot-onboard, a tool that migrates AI-assistant instruction files into ' +
  "GitHub Copilot's layout, to the developer who ran it. Use only the JSON you are given. In at most " +
  'eight short sentences, say what was found, which problems matter and what the next step is. Do not ' +
  'invent files, rules or problems, and do not tell the person that anything was approved or changed.';

export interface NarrateContext {
  root: string;
  /** The model asked, and the client named in the trace. */
  session: Pick<Session, 'model' | 'client'>;
  signal?: AbortSignal;
}

export interface Narration {
  text: string;
  source: 'sampling' | 'builtin';
  trace: string | null;
}

export function samplingTimeoutMs(): number {
  return positiveNumberFromEnv('COPILOT_ONBOARD_SAMPLING_TIMEOUT_MS', DEFAULT_SAMPLING_TIMEOUT_MS);
}

export async function narrate(ctx: NarrateContext, intent: 'analyze' | 'propose', facts: unknown, report: string): Promise<Narration> {
  const started = Date.now();
  // Bounded like every reply (bounded.ts): the model gets the first of each long list and the counts of the rest.
  const sent = boundJson(facts, MAX_SAMPLING_FACTS_BYTES);
  const shown = sent.omitted ? { ...(sent.value as object), omittedFromThisSummary: sent.omitted } : sent.value;
  const request: SampleRequest = {
    messages: [
      { role: 'user', content: { type: 'text', text: `Result of ${intent}:\n${JSON.stringify(shown, null, sent.omitted ? 0 : 2)}` } },
    ],
    maxTokens: MAX_TOKENS,
    systemPrompt: SYSTEM_PROMPT,
  };
  let outcome: SamplingTrace['outcome'];
  let response: SamplingTrace['response'] = null;
  let narration: string | null = null;
  let model = '';
  let error: string | undefined;

  if (!ctx.session.model.canSample()) {
    outcome = 'unsupported';
  } else {
    try {
      const result = await ctx.session.model.sample(request, { timeoutMs: samplingTimeoutMs(), signal: ctx.signal });
      response = { model: result.model, stopReason: result.stopReason, content: result.content };
      const content = textBlock(Array.isArray(result.content) ? result.content[0] : result.content);
      if (content && content.text.trim() !== '') {
        outcome = 'ok';
        narration = cut(content.text.trim());
        model = typeof result.model === 'string' ? result.model : '';
      } else {
        outcome = 'error';
        error = 'the reply held no text';
      }
    } catch (err) {
      // The question goes back with the call's result (2026-07-28); the client calls again with the reply.
      if (err instanceof AskedBetweenCalls) throw err;
      outcome = samplingOutcome(err);
      error = errorMessage(err);
    }
  }

  // Dated by the writer, when it joins the chain; duration_ms gives the start.
  const trace: Omit<SamplingTrace, 'seq' | 'prev' | 'timestamp'> = {
    intent,
    request,
    response,
    outcome,
    duration_ms: Date.now() - started,
    fallback: narration === null,
    client: ctx.session.client.info(),
    ...protocolOf(ctx.session.client),
    ...(error ? { error } : {}),
  };
  let tracePath: string | null = null;
  try {
    tracePath = repoRelative(ctx.root, await writeSamplingTrace(ctx.root, trace));
  } catch (err) {
    process.stderr.write(`copilot-onboard: could not write sampling trace: ${showLine(errorMessage(err))}\n`);
  }
  // Read-only traces are kept up to a bound (state/retention.ts): past it, the oldest go, recorded in a prune trace.
  try {
    await prune(
      ctx.root,
      `Retention policy: read-only traces passed ${RETENTION.readOnlyTraces + RETENTION.slack}; the newest ${RETENTION.readOnlyTraces} are kept.`,
    );
  } catch (err) {
    process.stderr.write(`copilot-onboard: could not prune old traces: ${showLine(errorMessage(err))}\n`);
  }
  if (narration === null) return { text: report, source: 'builtin', trace: tracePath };
  return { text: `${report}\n\n---\n${narrationBlock(narration, model)}`, source: 'sampling', trace: tracePath };
}

/** The model's words as a quotation: a label that names the model, then each line after "> ", escaped. */
export function narrationBlock(narration: string, model: string): string {
  const name = model.trim() === '' ? 'unnamed' : showExcerpt(model.trim(), 80);
  const quoted = showText(narration)
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
  return `${NARRATION_LABEL} (${name}), not checked by copilot-onboard:\n${quoted}`;
}

function samplingOutcome(err: unknown): SamplingTrace['outcome'] {
  if (!(err instanceof NoReplyError)) return 'error';
  if (err.kind === 'timeout' || err.kind === 'unsupported' || err.kind === 'denied') return err.kind;
  return 'error';
}

function textBlock(block: unknown): { text: string } | null {
  if (typeof block !== 'object' || block === null) return null;
  const b = block as { type?: unknown; text?: unknown };
  return b.type === 'text' && typeof b.text === 'string' ? { text: b.text } : null;
}

function cut(text: string): string {
  return text.length > MAX_NARRATION_CHARS ? `${text.slice(0, MAX_NARRATION_CHARS - 1)}…` : text;
}

/** The protocol of the exchange, when the session knows it (an MCP client). */
function protocolOf(client: { protocol?(): SamplingTrace['protocol'] | null }): Pick<SamplingTrace, 'protocol'> {
  const protocol = client.protocol?.();
  return protocol ? { protocol } : {};
}
