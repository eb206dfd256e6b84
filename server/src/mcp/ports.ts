import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { NoReplyError, type NoReplyKind, type Session } from '../call/ports.js';

/**
 * The flow's ports (call/ports.ts) over the MCP SDK: the one place that turns forms and sampling
 * into SDK requests and the SDK's errors into the flow's NoReplyError. `ctx` is the tool call the
 * requests belong to: over HTTP they travel on that call's response stream.
 */
export function sdkSession(server: Server, ctx: ServerContext): Session {
  return {
    person: {
      canAnswerForms: () => {
        const e = server.getClientCapabilities()?.elicitation as Record<string, unknown> | undefined;
        if (!e) return false;
        return e.form !== undefined || Object.keys(e).length === 0;
      },
      async askForm(message, requestedSchema, { timeoutMs, signal }) {
        try {
          const raw = await ctx.mcpReq.send(
            { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } },
            RawElicitResult,
            { timeout: timeoutMs, signal },
          );
          return { action: raw.action, content: raw.content, hasContent: 'content' in raw };
        } catch (err) {
          throw noReply(err, formErrorKind(err));
        }
      },
    },
    model: {
      canSample: () => Boolean(server.getClientCapabilities()?.sampling),
      async sample(request, { timeoutMs, signal }) {
        try {
          const result = await ctx.mcpReq.requestSampling(
            { messages: request.messages, maxTokens: request.maxTokens, systemPrompt: request.systemPrompt },
            { timeout: timeoutMs, signal },
          );
          return { model: result.model, stopReason: result.stopReason ?? null, content: result.content };
        } catch (err) {
          throw noReply(err, samplingErrorKind(err));
        }
      },
    },
    client: {
      info: () => {
        const v = server.getClientVersion();
        return v ? { name: v.name, version: v.version } : null;
      },
      protocol: () => ({ era: 'legacy', revision: server.getNegotiatedProtocolVersion() ?? null }),
    },
  };
}

const RawElicitResult = z.looseObject({});

function noReply(err: unknown, kind: NoReplyKind): NoReplyError {
  const e = new NoReplyError(kind, err instanceof Error ? err.message : String(err));
  e.cause = err;
  return e;
}

const timedOut = (err: unknown) => err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;

function formErrorKind(err: unknown): NoReplyKind {
  if (timedOut(err)) return 'timeout';
  // A reply the SDK could not parse carries zod's issues (or is the SDK's invalid result).
  const malformed =
    (err instanceof Error && Array.isArray((err as { issues?: unknown }).issues)) ||
    (err instanceof SdkError && err.code === SdkErrorCode.InvalidResult);
  if (malformed || (err instanceof ProtocolError && err.code === ProtocolErrorCode.InvalidParams)) return 'malformed';
  return 'failed';
}

function samplingErrorKind(err: unknown): NoReplyKind {
  if (timedOut(err)) return 'timeout';
  if (!(err instanceof ProtocolError)) return 'failed';
  if (err.code === ProtocolErrorCode.MethodNotFound) return 'unsupported';
  // -1 is the spec's user rejection; VS Code answers -32000 when sampling is not allowed.
  if (err.code === -1 || (err.code === -32000 && !/connection closed/i.test(err.message))) return 'denied';
  return 'failed';
}
