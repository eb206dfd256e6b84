import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { NoReplyError, type NoReplyKind, type Session } from '../call/ports.js';

/**
 * The flow's ports (call/ports.ts) over the MCP SDK: the one place that turns forms and sampling
 * into SDK requests and the SDK's errors into the flow's NoReplyError. `requestId` is the tool call
 * the requests belong to: over HTTP they travel on that call's response stream.
 */
export function sdkSession(server: Server, requestId?: string | number): Session {
  return {
    person: {
      canAnswerForms: () => {
        const e = server.getClientCapabilities()?.elicitation as Record<string, unknown> | undefined;
        if (!e) return false;
        return e.form !== undefined || Object.keys(e).length === 0;
      },
      async askForm(message, requestedSchema, { timeoutMs, signal }) {
        try {
          const raw = await server.request(
            { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } },
            RawElicitResult,
            { timeout: timeoutMs, signal, relatedRequestId: requestId },
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
          const result = await server.createMessage(
            { messages: request.messages, maxTokens: request.maxTokens, systemPrompt: request.systemPrompt },
            { timeout: timeoutMs, signal, relatedRequestId: requestId },
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
    },
  };
}

const RawElicitResult = z.looseObject({});

function noReply(err: unknown, kind: NoReplyKind): NoReplyError {
  const e = new NoReplyError(kind, err instanceof Error ? err.message : String(err));
  e.cause = err;
  return e;
}

function formErrorKind(err: unknown): NoReplyKind {
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return 'timeout';
  // A reply the SDK could not parse carries zod's issues.
  const malformed = err instanceof Error && Array.isArray((err as { issues?: unknown }).issues);
  if (malformed || (err instanceof McpError && err.code === ErrorCode.InvalidParams)) return 'malformed';
  return 'failed';
}

function samplingErrorKind(err: unknown): NoReplyKind {
  if (!(err instanceof McpError)) return 'failed';
  if (err.code === ErrorCode.RequestTimeout) return 'timeout';
  if (err.code === ErrorCode.MethodNotFound) return 'unsupported';
  // -1 is the spec's user rejection; VS Code answers -32000 when sampling is not allowed.
  if (err.code === -1 || (err.code === -32000 && !/connection closed/i.test(err.message))) return 'denied';
  return 'failed';
}
