import { createHash, randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  createRequestStateCodec,
  inputRequired,
  type InputRequests,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AskedBetweenCalls, NoReplyError, type FormReply, type SampleReply, type Session } from '../call/ports.js';
import { elicitationTimeoutMs } from '../gate/gate.js';
import { takeNonce, traceIfUnanswered } from './unanswered.js';

/**
 * The 2026-07-28 revision asks the person between calls: a gated tool answers `input_required`
 * with the form, and the client calls again with the answer and the `requestState` it was given.
 * The step runs again from its start each time; the answers of earlier rounds travel in the
 * state, which this server signs, binds and lets expire, and which is good for one answer only.
 */

export function envelopeOf(ctx: ServerContext): Record<string, unknown> | undefined {
  return ctx.mcpReq.envelope as Record<string, unknown> | undefined;
}

/** One answered question: what it was (`questionDigest`) and the reply as the client sent it. */
const Answered = z.object({ question: z.string(), reply: z.record(z.string(), z.unknown()) });

/** What a requestState carries: where it belongs, the question it asks, and the earlier answers. */
const StatePayload = z.object({
  tool: z.string(),
  repo: z.string(),
  /** The question now asked (its digest); its answer comes in the next call's inputResponses. */
  question: z.string(),
  /** Single use: recorded under .copilot-state once its answer is taken. */
  nonce: z.string(),
  answers: z.array(Answered),
});
type StatePayload = z.infer<typeof StatePayload>;

/** The key of this process: a state minted here verifies only here (one process serves every round). */
const KEY = randomBytes(32);
let codec: ReturnType<typeof createRequestStateCodec<StatePayload>> | undefined;

/** Bound to the MCP session, when there is one (stdio and HTTP without sessions: the process). */
function codecOf() {
  return (codec ??= createRequestStateCodec<StatePayload>({
    key: KEY,
    // Short: a person has the elicitation timeout to answer; an answer after it counts as none.
    ttlSeconds: Math.max(1, Math.ceil(elicitationTimeoutMs() / 1000)),
    bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.sessionId ?? ''}`,
  }));
}

/**
 * What identifies a question between calls: its form and the plan it is about (the message names
 * a fresh backup folder on each call, so it is not part of it). Another plan, another question.
 */
export const questionDigest = (schema: Record<string, unknown>, planHash: string | null | undefined): string =>
  createHash('sha256')
    .update(JSON.stringify([schema, planHash ?? null]))
    .digest('hex');

/** The question to send back, as the call's result: the client asks, then calls again with the answer. */
export class FormAskedBetweenCalls extends AskedBetweenCalls {
  constructor(
    readonly inputRequests: InputRequests,
    readonly requestState: string,
    /** The question's single-use nonce: the answer, or its timeout, takes it. */
    readonly nonce: string,
  ) {
    super('The person is asked between calls.');
  }

  result() {
    return inputRequired({ inputRequests: this.inputRequests, requestState: this.requestState });
  }
}

/** The answers the state this call came with holds, when it verifies and belongs to this tool and repository. */
async function verifiedState(ctx: ServerContext, tool: string, repo: string): Promise<StatePayload | null> {
  const raw = ctx.mcpReq.requestState<unknown>();
  if (typeof raw !== 'string') return null;
  try {
    const payload = StatePayload.parse(await codecOf().verify(raw, ctx));
    return payload.tool === tool && payload.repo === repo ? payload : null;
  } catch {
    // Tampered, expired, minted for another session or malformed: no answer.
    return null;
  }
}

type Reply = Record<string, unknown>;

/** What a question comes back with: an answer (carried from an earlier call, or this call's), or a refusal of the one this call brings. */
type Taken = { reply: Reply; replayed: boolean } | { refused: 'replayed' | 'malformed' };

/**
 * The questions of one 2026-07-28 call, in the order the step asks them. An answer the state
 * carries is given back as it was; the question the state asked gets the answer the call brings,
 * once (its nonce is recorded before the answer is used); any other question goes back to the
 * client with a fresh state (`FormAskedBetweenCalls`).
 */
function betweenCalls(ctx: ServerContext, tool: string, root: () => Promise<string>) {
  let loaded: Promise<{ repo: string; state: StatePayload | null; answers: StatePayload['answers'] }> | undefined;
  const load = async () => {
    const repo = await root();
    const state = await verifiedState(ctx, tool, repo);
    return { repo, state, answers: state ? [...state.answers] : [] };
  };
  let asked = 0;
  /** `again`: a refused answer has the question asked again (a form), or is returned as refused (sampling). */
  return async (question: string, request: InputRequests[string], fits: (reply: Reply) => boolean, again: boolean): Promise<Taken> => {
    const { repo, state, answers } = await (loaded ??= load());
    const k = asked++;
    const earlier = answers[k];
    if (earlier && earlier.question === question) return { reply: earlier.reply, replayed: true };
    // The step asks something else than before (the plan changed): what follows is asked afresh.
    answers.length = Math.min(answers.length, k);
    if (state && k === state.answers.length && state.question === question) {
      const reply = freshReply(ctx);
      const refused = !reply ? null : !fits(reply) ? 'malformed' : !(await takeNonce(repo, state.nonce)) ? 'replayed' : null;
      if (reply && !refused) {
        answers.push({ question, reply });
        return { reply, replayed: false };
      }
      if (refused && !again) return { refused };
    }
    const nonce = randomBytes(16).toString('base64url');
    const requestState = await codecOf().mint({ tool, repo, question, nonce, answers }, ctx);
    throw new FormAskedBetweenCalls({ [`q${k}`]: request }, requestState, nonce);
  };
}

/** The person and the model of a 2026-07-28 request, asked between calls. */
export function modernSession(ctx: ServerContext, tool: string, root: () => Promise<string>): Pick<Session, 'person' | 'model'> {
  const ask = betweenCalls(ctx, tool, root);
  const capabilities = envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: Reply; sampling?: Reply } | undefined;
  const isForm = (r: Reply) => 'action' in r;
  return {
    person: {
      canAnswerForms: () => {
        const e = capabilities?.elicitation;
        return e !== undefined && (e.form !== undefined || Object.keys(e).length === 0);
      },
      async askForm(message, requestedSchema, { planHash }): Promise<FormReply> {
        const request = inputRequired.elicit({ mode: 'form', message, requestedSchema } as never);
        try {
          // An answer that is not one, or one already used: the question is asked again.
          const taken = (await ask(questionDigest(requestedSchema, planHash), request, isForm, true)) as Extract<Taken, { reply: Reply }>;
          return { ...replyOf(taken.reply), ...(taken.replayed ? { replayed: true } : {}) };
        } catch (err) {
          // Asked between calls: a question never answered leaves a timeout trace, as a 2025-era one does (mcp/unanswered.ts).
          if (err instanceof FormAskedBetweenCalls)
            traceIfUnanswered({
              root,
              tool,
              nonce: err.nonce,
              message,
              schema: requestedSchema,
              planHash: planHash ?? null,
              client: modernClient(ctx),
            });
          throw err;
        }
      },
    },
    model: {
      // Only when the request declares sampling; else the step gives its built-in report.
      canSample: () => capabilities?.sampling !== undefined,
      async sample(request): Promise<SampleReply> {
        const params = { messages: request.messages, maxTokens: request.maxTokens, systemPrompt: request.systemPrompt };
        const question = questionDigest({ sampling: request.systemPrompt }, null);
        const taken = await ask(question, inputRequired.createMessage(params), (r) => 'content' in r && !isForm(r), false);
        // A narration is never needed: a reply that is not one, or a replay, ends in the built-in report.
        if ('refused' in taken)
          throw new NoReplyError(taken.refused === 'replayed' ? 'denied' : 'malformed', `the sampling answer was ${taken.refused}`);
        const r = taken.reply;
        return {
          model: typeof r.model === 'string' ? r.model : '',
          stopReason: typeof r.stopReason === 'string' ? r.stopReason : null,
          content: r.content,
          ...(taken.replayed ? { replayed: true } : {}),
        };
      },
    },
  };
}

/** The answer this call brings to the question asked last (one entry: its key names that question's round). */
function freshReply(ctx: ServerContext): Reply | null {
  const responses = ctx.mcpReq.inputResponses;
  if (!responses) return null;
  const keys = Object.keys(responses);
  if (keys.length !== 1) return null;
  const reply = responses[keys[0]!];
  return typeof reply === 'object' && reply !== null && !Array.isArray(reply) ? (reply as Reply) : null;
}

function replyOf(reply: Reply): FormReply {
  return { action: reply.action, content: reply.content, hasContent: 'content' in reply };
}

/** What the trace names as the client: its self-reported name, as such (never a basis for a decision). */
export function modernClient(ctx: ServerContext): Session['client'] {
  const info = envelopeOf(ctx)?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
  const revision = envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY];
  return {
    info: () =>
      info && typeof info.name === 'string' ? { name: info.name, version: typeof info.version === 'string' ? info.version : '' } : null,
    protocol: () => ({ era: 'modern', revision: typeof revision === 'string' ? revision : null }),
  };
}
