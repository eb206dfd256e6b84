import type { z } from 'zod';
import { unrecoveredOperation } from '../engine/recovery.js';
import { positiveNumberFromEnv } from '../common/env.js';
import { errorMessage } from '../common/errors.js';
import { outcomeForError } from '../common/error-outcomes.js';
import { showLine, showText } from '../show/untrusted.js';
import type { ClientInfo, DiffPointer, ElicitationTrace, GatedStep } from '../state/schema.js';
import type { FlowOptions } from '../call/context.js';
import { AskedBetweenCalls, NoReplyError, type Session } from '../call/ports.js';
import { commandName, forModel, said } from '../call/words.js';
import { traceWriteProblem } from '../state/traces/writer.js';
import { Exchange, type Acted, type GateResult } from './exchange.js';

export type { Acted, GateResult } from './exchange.js';
import { LockHeldError, withLock } from '../state/lock.js';
import type { Form } from './forms.js';
import { durationForPerson, type RefusalOutcome } from '../common/outcomes.js';

/**
 * The gate: the only code that asks a person anything. Every gated step goes through runGated,
 * which checks the capability, asks, maps every kind of answer to one contract outcome, and
 * writes exactly one elicitation trace per call.
 */

export const DEFAULT_ELICITATION_TIMEOUT_MS = 180_000;

export interface GateContext {
  root: string;
  /** The person asked, and the client named in the traces. */
  session: Pick<Session, 'person' | 'client'>;
  /** Aborted when the client cancels the tool call. */
  signal?: AbortSignal;
  /** Who reads the texts (see call/words.ts). */
  options?: FlowOptions;
}

/**
 * One round of questions, as `prepare` builds it. A round either leads on to the next one (approve's
 * choices: `next`) or carries what `act` needs (`prepared`), which the gate hands to `act` with the
 * accepted answer: the data flows one way, from prepare through the person to act.
 */
export type Prepared<P> = Round &
  ({ next: (content: Record<string, unknown>) => Promise<Prepared<P>>; prepared?: never } | { next?: never; prepared: P });

interface Round {
  planHash: string | null;
  /** Exactly what will happen, shown to the person (escaped for display here, see showPrepared). */
  message: string;
  /** A form with this plan's optional choices; the step's contract form when absent. */
  form?: Form;
  /** An accepted answer of this round that asks to go back to the first round (not a refusal, not an approval). */
  goBack?: (content: Record<string, unknown>) => boolean;
  /** The file of the whole diff the message points to, recorded in the round's trace. */
  diffFile?: DiffPointer;
}

/** How many times the first round may be asked in one step before the step is refused. */
export const MAX_ROUNDS = 5;

type Answer =
  | { kind: 'accepted'; content: Record<string, unknown>; response: ElicitationTrace['response']; replayed?: boolean }
  | { kind: 'back'; content: Record<string, unknown>; response: ElicitationTrace['response']; replayed?: boolean }
  | { kind: 'refused'; outcome: RefusalOutcome; reason: string; response: ElicitationTrace['response'] };

const busy = new Set<string>();

export function elicitationTimeoutMs(): number {
  return positiveNumberFromEnv('COPILOT_ONBOARD_ELICITATION_TIMEOUT_MS', DEFAULT_ELICITATION_TIMEOUT_MS);
}

export async function runGated<P>(
  ctx: GateContext,
  step: GatedStep,
  prepare: () => Promise<Prepared<P>>,
  act: (answer: Record<string, unknown>, prepared: P) => Promise<Acted>,
): Promise<GateResult<P>> {
  const client: ClientInfo | null = ctx.session.client.info();
  const exchange = new Exchange<P>(ctx.root, step, client, ctx.session.client.protocol?.() ?? null);
  // No trace, no step: a reviewer must be able to see every exchange.
  const unwritable = await traceWriteProblem(ctx.root, 'elicitation');
  if (unwritable) {
    return {
      outcome: 'error',
      text: `The ${step} step was refused because its trace cannot be written (${unwritable}). Nothing was changed. Make .copilot-state/ writable, or move aside what is in the way, and try again.`,
      trace: null,
      planHash: null,
    };
  }
  if (busy.has(ctx.root)) {
    return exchange.finish(
      'precondition_failed',
      `Another ${'approve, migrate or rollback'} step is in progress for this repository; try again when it has finished.`,
    );
  }
  busy.add(ctx.root);
  try {
    const holder = `${step} (${client ? showLine(client.name) : 'unknown client'})`;
    return await withLock(ctx.root, 'operation', holder, () => gatedStep(ctx, step, prepare, act, exchange));
  } catch (err) {
    if (err instanceof LockHeldError) return exchange.finish('precondition_failed', `${showLine(err.message)} Nothing was changed.`);
    throw err;
  } finally {
    busy.delete(ctx.root);
  }
}

/** Under the lock: the checks, the rounds of questions, and the act on an accepted answer. */
async function gatedStep<P>(
  ctx: GateContext,
  step: GatedStep,
  prepare: () => Promise<Prepared<P>>,
  act: (answer: Record<string, unknown>, prepared: P) => Promise<Acted>,
  exchange: Exchange<P>,
): Promise<GateResult<P>> {
  // Under the lock, a journal is not a running operation's: it is one the start could not recover.
  const stuck = await unrecoveredOperation(ctx.root, { lockHeld: true });
  if (stuck) return exchange.finish('precondition_failed', `The ${step} step cannot run. ${showLine(stuck.text)} Nothing was changed.`);
  if (!ctx.session.person.canAnswerForms()) return refusedWithoutForms(ctx, step, prepare, exchange);
  let first: Prepared<P>;
  try {
    first = showPrepared(await prepare());
  } catch (err) {
    return exchange.refusedBy(err);
  }
  const asked = await askRounds(ctx, step, first, exchange);
  return 'result' in asked ? asked.result : actOn(step, act, asked.content, asked.prepared, exchange);
}

/**
 * Nothing is sent; the trace still records what would have been asked, when that is known. A step
 * that could not go ahead even with an answer (no plan, no approval yet) says so: asking could not
 * help, so that is the more useful refusal.
 */
async function refusedWithoutForms<P>(
  ctx: GateContext,
  step: GatedStep,
  prepare: () => Promise<Prepared<P>>,
  exchange: Exchange<P>,
): Promise<GateResult<P>> {
  let failed: unknown = null;
  await prepare().then(
    (p) => exchange.show(showPrepared(p)),
    (err) => (failed = err),
  );
  if (failed !== null && outcomeForError(failed).outcome === 'precondition_failed') return exchange.refusedBy(failed);
  return exchange.finish(
    'elicitation_unsupported',
    said(ctx.options, {
      model: `The ${step} step needs a person's answer, and this client cannot show a form (it did not declare MCP elicitation). Nothing was changed. Use a client with elicitation, or the terminal: ${commandName(ctx.options, step)}.`,
      person: `The ${step} step needs your answer, and it cannot show a form here: there is no terminal to ask you in. Nothing was changed. Run it in a terminal: ${commandName(ctx.options, step)}.`,
    }),
  );
}

/** The rounds, from the first: each answered round leads on to the next, or back to the first, until one carries what act needs. */
async function askRounds<P>(
  ctx: GateContext,
  step: GatedStep,
  first: Prepared<P>,
  exchange: Exchange<P>,
): Promise<{ result: GateResult<P> } | { content: Record<string, unknown>; prepared: P }> {
  let current = first;
  let firstRounds = 1;
  // The person's last answers to the first round: going back asks it again with them preselected.
  let chosen: Record<string, unknown> | null = null;
  for (;;) {
    exchange.begin(current);
    const form = exchange.form;
    const answer = await ask(ctx, exchange, form.content, form.confirmations, current.goBack);
    exchange.response = answer.response;
    if (answer.kind === 'refused') {
      const answered = answer.response?.content as Record<string, unknown> | undefined;
      return {
        result: await exchange.finish(answer.outcome, answer.reason, { answered, ...(current.next ? {} : { prepared: current.prepared }) }),
      };
    }
    if (answer.kind === 'back') {
      if (firstRounds >= MAX_ROUNDS) {
        const text = `You asked to choose again ${MAX_ROUNDS} times, so this ${step} step ends here without an approval. Nothing was changed. Run it again when you are ready.`;
        return { result: await exchange.finish('not_confirmed', text) };
      }
      const written: { problem?: string } = answer.replayed
        ? {}
        : await exchange.trace('choose_again', 'The person asked to go back and choose again; nothing was approved in this round.');
      if (written.problem) return { result: exchange.traceFailed(written.problem) };
      firstRounds++;
      current = againWith(first, chosen);
      continue;
    }
    if (!current.next) return { content: answer.content, prepared: current.prepared as P };
    chosen = answer.content;
    let next: Prepared<P>;
    try {
      next = showPrepared(await current.next(answer.content));
    } catch (err) {
      return { result: await exchange.refusedBy(err) };
    }
    const made = `The choices are made; the plan rebuilt with them (${next.planHash?.slice(0, 12) ?? 'no hash'}) is shown next for approval.`;
    // A round answered in an earlier call of this step (2026-07-28) was traced in that call.
    const written: { problem?: string } = answer.replayed ? {} : await exchange.trace('chosen', made);
    if (written.problem) return { result: exchange.traceFailed(written.problem) };
    current = next;
  }
}

/**
 * The first round asked again, each field's default the person's last answer to it, and an answer
 * that leaves a field out read as that answer: going back changes only what the person changes.
 */
function againWith<P>(first: Prepared<P>, answers: Record<string, unknown> | null): Prepared<P> {
  const next = first.next;
  if (!answers || !first.form || !next) return first;
  const schema = first.form.requestedSchema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, p]) => [name, name in answers ? { ...p, default: answers[name] } : p]),
  );
  return {
    ...first,
    form: { ...first.form, requestedSchema: { ...schema, properties } },
    next: (content: Record<string, unknown>) => next({ ...answers, ...content }),
  };
}

/** The step's own act on an accepted answer, traced; then its journal settled and its follow-up run. */
async function actOn<P>(
  step: GatedStep,
  act: (answer: Record<string, unknown>, prepared: P) => Promise<Acted>,
  content: Record<string, unknown>,
  prepared: P,
  exchange: Exchange<P>,
): Promise<GateResult<P>> {
  let done: Acted;
  try {
    done = await act(content, prepared);
  } catch (err) {
    return exchange.refusedBy(err, { prepared });
  }
  const result = await exchange.finish(done.outcome, done.detail, { content, prepared, ...(done.fields ? { fields: done.fields } : {}) });
  if (done.settle) {
    try {
      await done.settle();
    } catch (err) {
      result.text += ` (Clearing its journal failed: ${errorMessage(err)}; the next command finds the journal and records the ${step} as done.)`;
    }
  }
  if (done.afterTrace) {
    try {
      result.text += ` ${await done.afterTrace(result.trace)}`;
    } catch (err) {
      result.text += ` (The files are migrated, but the follow-up failed: ${errorMessage(err)}.)`;
    }
  }
  return result;
}

/**
 * What is sent to the person: the message with every hidden character escaped (newlines kept),
 * and every title and description of the form as one escaped line. The forms and messages quote
 * paths themselves; this is the net under them. The values a form accepts are not touched.
 */
function showPrepared<P>(p: Prepared<P>): Prepared<P> {
  return {
    ...p,
    message: showText(p.message),
    ...(p.form ? { form: { ...p.form, requestedSchema: showSchema(p.form.requestedSchema) } } : {}),
  };
}

function showSchema(schema: Form['requestedSchema']): Form['requestedSchema'] {
  const texts = (o: Record<string, unknown>) => {
    const out = { ...o };
    for (const key of ['title', 'description'] as const) if (typeof out[key] === 'string') out[key] = showLine(out[key]);
    return out;
  };
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, p]) => {
      const shown = texts(p);
      if (Array.isArray(p.oneOf)) shown.oneOf = (p.oneOf as Record<string, unknown>[]).map(texts);
      return [name, shown];
    }),
  );
  return { ...schema, properties };
}

async function ask<P>(
  ctx: GateContext,
  shown: Pick<Exchange<P>, 'message' | 'form' | 'planHash'>,
  content: z.ZodType<Record<string, unknown>>,
  confirmations: string[],
  goBack?: (content: Record<string, unknown>) => boolean,
): Promise<Answer> {
  let raw: Awaited<ReturnType<Session['person']['askForm']>>;
  try {
    raw = await ctx.session.person.askForm(shown.message, shown.form.requestedSchema, {
      timeoutMs: elicitationTimeoutMs(),
      signal: ctx.signal,
      planHash: shown.planHash,
    });
  } catch (err) {
    // The question goes back with the call's result; the client calls again with the answer.
    if (err instanceof AskedBetweenCalls) throw err;
    return { kind: 'refused', response: null, ...refusalForError(err, ctx) };
  }
  const action = raw.action;
  const response = {
    action: typeof action === 'string' ? action : JSON.stringify(action ?? null),
    ...(raw.hasContent ? { content: raw.content } : {}),
  };
  if (action === 'decline') {
    return {
      kind: 'refused',
      response,
      outcome: 'declined',
      reason: `${said(ctx.options, { model: 'The person declined.', person: 'You answered No.' })} Nothing was changed.${forModel(ctx.options, ' Do not ask again unless the person asks for it.')}`,
    };
  }
  if (action === 'cancel') {
    return {
      kind: 'refused',
      response,
      outcome: 'cancelled',
      reason: `${said(ctx.options, { model: 'The person dismissed the request.', person: 'You closed the form.' })} Nothing was changed.${forModel(ctx.options, ' Do not ask again unless the person asks for it.')}`,
    };
  }
  if (action !== 'accept') {
    return {
      kind: 'refused',
      response,
      outcome: 'invalid_response',
      reason: `The client answered with an unknown action (${response.action}). Nothing was changed.`,
    };
  }
  const parsed = content.safeParse(raw.content ?? undefined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the answer';
    return {
      kind: 'refused',
      response,
      outcome: 'invalid_response',
      reason: `The answer does not match the form (${where}: ${issue?.message ?? 'missing'}). Nothing was changed.`,
    };
  }
  const replayed = raw.replayed ? { replayed: true } : {};
  if (goBack?.(parsed.data)) return { kind: 'back', response, content: parsed.data, ...replayed };
  const unconfirmed = confirmations.filter((name) => parsed.data[name] !== true);
  if (unconfirmed.length > 0) {
    return {
      kind: 'refused',
      response,
      outcome: 'not_confirmed',
      reason: `${said(ctx.options, {
        model: `The form was sent, but ${unconfirmed.map((n) => `"${n}"`).join(' and ')} ${unconfirmed.length > 1 ? 'were' : 'was'} not confirmed.`,
        person: 'You answered No.',
      })} Nothing was changed.`,
    };
  }
  return { kind: 'accepted', response, content: parsed.data, ...replayed };
}

function refusalForError(err: unknown, ctx: GateContext): { outcome: RefusalOutcome; reason: string } {
  if (ctx.signal?.aborted) {
    return {
      outcome: 'cancelled',
      reason: `${said(ctx.options, { model: 'The tool call was cancelled while waiting for the person.', person: 'The command was stopped while waiting for your answer.' })} Nothing was changed.`,
    };
  }
  if (err instanceof NoReplyError && err.kind === 'timeout') {
    const ms = elicitationTimeoutMs();
    return {
      outcome: 'timeout',
      reason: `No answer came within ${said(ctx.options, { model: `${ms} ms`, person: durationForPerson(ms) })}; that counts as cancelled, never as approval. Nothing was changed.`,
    };
  }
  if (err instanceof NoReplyError && err.kind === 'malformed') {
    return { outcome: 'invalid_response', reason: `The answer does not match the form: ${showLine(err.message)}. Nothing was changed.` };
  }
  return { outcome: 'error', reason: `Asking the person failed: ${showLine(errorMessage(err))}. Nothing was changed.` };
}
