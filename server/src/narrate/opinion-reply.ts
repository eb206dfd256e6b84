import type { SampleReply } from '../call/ports.js';
import type { DroppedVerdict, Verdict } from '../model/opinion.js';
import type { OpinionAnswer, OpinionVerdict } from '../state/schema.js';
import type { Reading } from './exchange.js';
import { replyText } from './exchange.js';
import { CUT_MARK, OPINION_BOUNDS } from './opinion-prompt.js';

/**
 * The model's answer about the second-look pairs, read as untrusted data: one JSON object, each
 * verdict checked on its own. A verdict counts only when both its quotes are the pair's two lines as
 * they stand in the files (whitespace aside); anything else is dropped, with why, for the trace.
 */

/** A pair as it was put to the model: its id and its two lines (what was sent, when a line was cut). */
export interface SentPair {
  id: string;
  lines: [SentLine, SentLine];
}

export interface SentLine {
  path: string;
  line: number;
  /** The line as it stands in the file. */
  text: string;
  /** Set when the line was sent cut: the part sent. */
  sentPart?: string;
}

export interface ReadVerdict {
  id: string;
  verdict: Verdict;
  reason: string;
}

export interface ReadVerdicts {
  counted: ReadVerdict[];
  dropped: DroppedVerdict[];
}

/** The reply's schemas, loaded (with zod) only once a model has answered: see state/schema.ts. */
export interface ReplySchemas {
  OpinionAnswer: typeof OpinionAnswer;
  OpinionVerdict: typeof OpinionVerdict;
}

/** Whitespace is all a quote may change: runs of it are one space, none at the ends. */
const normal = (s: string) => s.replace(/\s+/g, ' ').trim();

function quotes(line: SentLine, quote: string): boolean {
  const q = normal(quote);
  return q === normal(line.text) || (line.sentPart !== undefined && q === normal(line.sentPart));
}

/** The reply's JSON object: the text, or the part of it between the first `{` and the last `}` (a model may fence it). */
function answerJson(text: string): unknown {
  const from = text.indexOf('{');
  const to = text.lastIndexOf('}');
  if (from < 0 || to <= from) return undefined;
  try {
    return JSON.parse(text.slice(from, to + 1)) as unknown;
  } catch {
    return undefined;
  }
}

/** Why a verdict does not count, or null when it does. */
function whyDropped(v: OpinionVerdict, pair: SentPair | undefined, seen: Set<string>): string | null {
  if (!pair) return 'no pair has this id';
  if (seen.has(v.id)) return 'a second verdict for this pair';
  const [a, b] = pair.lines;
  const straight = quotes(a, v.quoteA) && quotes(b, v.quoteB);
  const crossed = quotes(a, v.quoteB) && quotes(b, v.quoteA);
  if (straight || crossed) return null;
  const wrong = quotes(a, v.quoteA) || quotes(a, v.quoteB) ? b : a;
  return `its quote is not the line ${wrong.path}:${wrong.line} as it stands`;
}

/** The verdicts of a reply to the pairs `sent`: a value when at least one counts; the trace gets what counted and what was dropped. */
export function readVerdicts(reply: SampleReply, sent: readonly SentPair[], schemas: ReplySchemas): Reading<ReadVerdicts> {
  const text = replyText(reply.content);
  if (text === null) return { error: 'the reply held no text' };
  if (text.length > OPINION_BOUNDS.maxReplyChars) return { error: `the reply is over ${OPINION_BOUNDS.maxReplyChars} characters` };
  const answer = schemas.OpinionAnswer.safeParse(answerJson(text));
  if (!answer.success) return { error: 'the reply is not the JSON asked for' };
  if (answer.data.verdicts.length > OPINION_BOUNDS.maxPairs * 4)
    return { error: 'the reply holds more verdicts than pairs were asked about' };
  const byId = new Map(sent.map((p) => [p.id, p]));
  const seen = new Set<string>();
  const out: ReadVerdicts = { counted: [], dropped: [] };
  for (const [i, raw] of answer.data.verdicts.entries()) {
    const v = schemas.OpinionVerdict.safeParse(raw);
    if (!v.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      out.dropped.push({
        id: typeof id === 'string' ? id.slice(0, 200) : `(verdict ${i + 1})`,
        why: 'not a verdict of the shape asked for',
      });
      continue;
    }
    const why = whyDropped(v.data, byId.get(v.data.id), seen);
    if (why !== null) {
      out.dropped.push({ id: v.data.id, why });
      continue;
    }
    seen.add(v.data.id);
    out.counted.push({ id: v.data.id, verdict: v.data.verdict, reason: cutReason(v.data.reason) });
  }
  const record = {
    verdicts: { counted: out.counted.map(({ id, verdict }) => ({ id, verdict })), dropped: out.dropped },
  };
  return out.counted.length > 0 ? { value: out, record } : { error: 'no verdict counted', record };
}

function cutReason(reason: string): string {
  const r = normal(reason);
  const chars = [...r];
  return chars.length > OPINION_BOUNDS.maxReasonChars ? `${chars.slice(0, OPINION_BOUNDS.maxReasonChars - 1).join('')}…` : r;
}

/** A line as sent: whole, or cut and marked. */
export function sentLine(path: string, line: number, text: string): SentLine & { shown: string } {
  const chars = [...text];
  if (chars.length <= OPINION_BOUNDS.maxLineChars) return { path, line, text, shown: text };
  const sentPart = chars.slice(0, OPINION_BOUNDS.maxLineChars).join('');
  return { path, line, text, sentPart, shown: `${sentPart}${CUT_MARK}` };
}
