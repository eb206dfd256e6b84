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
import { AskedBetweenCalls, NoReplyError, type FormReply, type Session } from '../call/ports.js';
import { elicitationTimeoutMs } from '../gate/gate.js';
import { STATE } from '../repo/state-paths.js';

/**
 * The 2026-07-28 revision asks the person between calls: a gated tool answers `input_required`
 * with the form, and the client calls again with the answer and the `requestState` it was given.
 * The step runs again from its start each time; the answers of earlier rounds travel in the
 * state, which this server signs, binds and lets expire, and which is good for one answer only.
 */

/** The era of one request: 2026-07-28 requests name their revision in `_meta`; 2025 ones do not. */
export interface Era {
  modern: boolean;
  /** The protocol revision the request was sent for (2025 requests: the one negotiated at initialize). */
  revision: string | null;
}

export function envelopeOf(ctx: ServerContext): Record<string, unknown> | undefined {
  return ctx.mcpReq.envelope as Record<string, unknown> | undefined;
}

export function eraOf(ctx: ServerContext, negotiated: string | undefined): Era {
  const revision = envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY];
  return typeof revision === 'string' ? { modern: true, revision } : { modern: false, revision: negotiated ?? null };
}

/** One answered question: what it was (a digest of the message and the form) and the reply. */
const Answered = z.object({ question: z.string(), reply: z.object({ action: z.unknown(), content: z.unknown().optional() }) });

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

/** The form to send back: the question, as the answer to the call. */
export class FormAskedBetweenCalls extends AskedBetweenCalls {
  constructor(
    readonly inputRequests: InputRequests,
    readonly requestState: string,
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

/**
 * The person of a 2026-07-28 request. Each question of the step, in order: an answer the state
 * carries is given back as it was; the question the state asked gets the answer the call brings,
 * once (its nonce is recorded before the answer is used); any other question goes back to the
 * client with a fresh state.
 */
export function modernPerson(ctx: ServerContext, tool: string, root: () => Promise<string>): Session['person'] {
  let loaded: Promise<{ repo: string; state: StatePayload | null; answers: StatePayload['answers'] }> | undefined;
  const load = async () => {
    const repo = await root();
    const state = await verifiedState(ctx, tool, repo);
    return { repo, state, answers: state ? [...state.answers] : [] };
  };
  let asked = 0;
  const capabilities = envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: Record<string, unknown> } | undefined;
  return {
    canAnswerForms: () => {
      const e = capabilities?.elicitation;
      return e !== undefined && (e.form !== undefined || Object.keys(e).length === 0);
    },
    async askForm(message, requestedSchema, { planHash }): Promise<FormReply> {
      const { repo, state, answers } = await (loaded ??= load());
      const question = questionDigest(requestedSchema, planHash);
      const k = asked++;
      const earlier = answers[k];
      if (earlier && earlier.question === question) return { ...replyOf(earlier.reply), replayed: true };
      // The step asks something else than before (the plan changed): what follows is asked afresh.
      answers.length = Math.min(answers.length, k);
      if (state && k === state.answers.length && state.question === question) {
        const reply = freshReply(ctx);
        if (reply && (await takeNonce(repo, state.nonce))) {
          answers.push({ question, reply });
          return replyOf(reply);
        }
      }
      const nonce = randomBytes(16).toString('base64url');
      const requestState = await codecOf().mint({ tool, repo, question, nonce, answers }, ctx);
      const inputRequests = { [`q${k}`]: inputRequired.elicit({ mode: 'form', message, requestedSchema } as never) };
      throw new FormAskedBetweenCalls(inputRequests, requestState);
    },
  };
}

/** The answer this call brings to the question asked last (its key names that question's round). */
function freshReply(ctx: ServerContext): { action: unknown; content?: unknown } | null {
  const responses = ctx.mcpReq.inputResponses;
  if (!responses) return null;
  const keys = Object.keys(responses);
  if (keys.length !== 1) return null;
  const reply = responses[keys[0]!];
  if (typeof reply !== 'object' || reply === null || !('action' in reply)) return null;
  return reply as { action: unknown; content?: unknown };
}

function replyOf(reply: { action: unknown; content?: unknown }): FormReply {
  return { action: reply.action, content: reply.content, hasContent: 'content' in reply };
}

/** Single use: the nonce's file is created once; a second answer with the same state finds it there. */
async function takeNonce(repo: string, nonce: string): Promise<boolean> {
  const { createFile } = await import('../repo/safe-fs.js');
  return createFile(repo, `${STATE.usedRequestStates}/${nonce}`, `${new Date().toISOString()}\n`);
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

/** Sampling on a 2026-07-28 request: not offered here; the step writes its built-in report. */
export const NO_MODEL: Session['model'] = {
  canSample: () => false,
  sample: () => Promise.reject(new NoReplyError('unsupported', 'sampling is not asked on 2026-07-28 requests')),
};
