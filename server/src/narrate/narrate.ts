import type { SampleRequest } from '../call/ports.js';
import { showExcerpt, showText } from '../show/untrusted.js';
import { boundJson, MAX_SAMPLING_FACTS_BYTES } from './bounded.js';
import { NARRATION_LABEL } from './narration-label.js';
import { replyText, sampleTraced, type ExchangeContext } from './exchange.js';

export { DEFAULT_SAMPLING_TIMEOUT_MS, samplingTimeoutMs } from './exchange.js';

/**
 * The narration (narrate/exchange.ts sends every sampling request and traces it). A model may explain the analysis or plan to the
 * person; it never decides anything, and the structured result never comes from it. Its words
 * come after the tool's own report, labelled as the client model's, each line quoted: a narration
 * that imitates the report cannot pass for it.
 */

/** Clients may ignore maxTokens (VS Code does), so the reply is cut here as well. */
export const MAX_NARRATION_CHARS = 4000;
const MAX_TOKENS = 700;

const SYSTEM_PROMPT =
  'You explain the result of copilot-onboard, a tool that migrates AI-assistant instruction files into ' +
  "GitHub Copilot's layout, to the developer who ran it. Use only the JSON you are given. In at most " +
  'eight short sentences, say what was found, which problems matter and what the next step is. Do not ' +
  'invent files, rules or problems, and do not tell the person that anything was approved or changed.';

export type NarrateContext = ExchangeContext;

export interface Narration {
  /** The tool's own report, as given. */
  text: string;
  /** The client model's words, labelled and quoted (`narrationBlock`), said after every fact of the tool's; null: none. */
  narration: string | null;
  source: 'sampling' | 'builtin';
  trace: string | null;
}

export async function narrate(ctx: NarrateContext, intent: 'analyze' | 'propose', facts: unknown, report: string): Promise<Narration> {
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
  const told = await sampleTraced<string>(ctx, intent, request, (reply) => {
    const text = replyText(reply.content);
    return text !== null && text.trim() !== '' ? { value: cut(text.trim()) } : { error: 'the reply held no text' };
  });
  if (told.value === null) return { text: report, narration: null, source: 'builtin', trace: told.trace };
  return { text: report, narration: narrationBlock(told.value, told.model), source: 'sampling', trace: told.trace };
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

function cut(text: string): string {
  return text.length > MAX_NARRATION_CHARS ? `${text.slice(0, MAX_NARRATION_CHARS - 1)}…` : text;
}
