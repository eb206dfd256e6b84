import type { ClientInfo, TraceProtocol } from '../state/schema.js';

/**
 * What the flow needs from the session that connects it to a person and a model, and nothing of
 * how. `mcp/ports.ts` implements these once over the MCP SDK, `cli/terminal-person.ts` the person
 * at a terminal; a test implements them with a few lines (tests/gate/gate.test.ts). Nothing outside
 * `mcp/` (and `cli/serve-command.ts`, which starts the server) imports the SDK.
 */

/** How long to wait, and what stops the wait early (the tool call was cancelled). */
export interface AskOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** The plan the question is about: an answer carried between calls (2026-07-28) holds for this plan alone. */
  planHash?: string | null;
}

/** The raw answer to a form, as the client sent it: the gate checks every part of it. */
export interface FormReply {
  /** 'accept', 'decline' or 'cancel' from a well-behaved client; anything else is refused. */
  action: unknown;
  /** Present when the client sent content. */
  content?: unknown;
  /** Whether the reply held a `content` key at all (the trace records it only then). */
  hasContent: boolean;
  /** An answer given in an earlier call of the same step and carried since (2026-07-28): its round is traced already. */
  replayed?: boolean;
}

/** Why a request to the person or the model came back with no reply. */
export type NoReplyKind =
  /** No reply within the time given. */
  | 'timeout'
  /** The reply was malformed, or the client said the request was (invalid params). */
  | 'malformed'
  /** The client does not offer the method. */
  | 'unsupported'
  /** The client refused (the person did not allow sampling). */
  | 'denied'
  /** Anything else: a connection gone, an error the client reported. */
  | 'failed';

export class NoReplyError extends Error {
  override name = 'NoReplyError';
  constructor(
    readonly kind: NoReplyKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Thrown by a session whose client is asked between calls (protocol revision 2026-07-28): the
 * question goes back as the tool call's result, and the client calls again with the answer. Not a
 * refusal: the gate lets it pass, nothing was answered and nothing acts.
 */
export class AskedBetweenCalls extends Error {
  override name = 'AskedBetweenCalls';
}

/** The person behind the client: can they be shown a form, and what did they answer. */
export interface Person {
  /** The client declared form elicitation. */
  canAnswerForms(): boolean;
  /** Shows the form; rejects with a NoReplyError (or another error) when no answer came. */
  askForm(message: string, requestedSchema: Record<string, unknown>, options: AskOptions): Promise<FormReply>;
}

export interface SampleRequest {
  messages: { role: 'user' | 'assistant'; content: { type: 'text'; text: string } }[];
  maxTokens: number;
  systemPrompt: string;
}

export interface SampleReply {
  model: string;
  stopReason: string | null;
  /** The reply's content as the client sent it (one block or several). */
  content: unknown;
  /** A reply given in an earlier call of the same step and carried since (2026-07-28): its exchange is traced already. */
  replayed?: boolean;
}

/** The client's model: can it be asked for text, and what did it say. */
export interface Model {
  canSample(): boolean;
  /** Rejects with a NoReplyError (or another error) when no reply came. */
  sample(request: SampleRequest, options: AskOptions): Promise<SampleReply>;
}

/** What the flow is given about the client, for the traces and the approval record. */
export interface Client {
  info(): ClientInfo | null;
  /** The protocol era and revision of this call's exchanges, for the traces (none outside MCP). */
  protocol?(): TraceProtocol | null;
}

/** The three together: what a tool call carries besides the repository. */
export interface Session {
  person: Person;
  model: Model;
  client: Client;
}

/** A session with no one on the other side: no forms, no sampling, no client name. */
export const NO_SESSION: Session = {
  person: { canAnswerForms: () => false, askForm: () => Promise.reject(new NoReplyError('unsupported', 'no client to ask')) },
  model: { canSample: () => false, sample: () => Promise.reject(new NoReplyError('unsupported', 'no client to ask')) },
  client: { info: () => null },
};
