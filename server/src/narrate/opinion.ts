import type { SampleRequest } from '../call/ports.js';
import { conflictWords, opinionWords } from '../call/words.js';
import type { InstructionDoc, Scope } from '../model/model.js';
import type { ModelOpinion } from '../model/opinion.js';
import type { ConflictOption } from '../model/plan.js';
import type { Problem } from '../model/problem.js';
import { secondLooksByCut, SHOWN_SECOND_LOOKS } from '../model/second-looks-shown.js';
import { showExcerpt } from '../show/untrusted.js';
import { sampleTraced, type ExchangeContext } from './exchange.js';
import { OPINION_BOUNDS, OPINION_PROMPT } from './opinion-prompt.js';
import { readVerdicts, sentLine, type ReadVerdicts, type SentPair } from './opinion-reply.js';

/**
 * Propose puts the second-look pairs to the client's model, when the client offers sampling: the
 * highest ranked (up to OPINION_BOUNDS.maxPairs) in one request, each with both lines, their files
 * and scopes. The model's verdicts that quote both lines move the pairs' ranks; they decide nothing
 * (no pair is removed or reported, no plan operation changes), and are shown as the model's. Without
 * sampling, or when the answer fails, nothing changes: no opinion at all.
 *
 * The pairs' order is taken as it comes (the plan's conflicts, second-look ones in rank order, then
 * the ranked pairs past the few the plan offers): how they are ranked is analysis's business.
 */

type Doc = Pick<InstructionDoc, 'path' | 'scope' | 'units'>;

/** The second-look pairs in rank order, each with its first line and the first line of another side. */
export function secondLookPairs(conflicts: readonly ConflictOption[], docs: readonly Doc[]) {
  const byPath = new Map(docs.map((d) => [d.path, d]));
  const pairs: (SentPair & { scopes: [string, string]; shown: [string, string] })[] = [];
  for (const c of conflicts) {
    if (!c.secondLook) continue;
    const first = c.locations[0];
    const other = c.locations.find((l) => (l.side ?? -1) !== (first?.side ?? -1));
    if (!first || !other) continue;
    const a = sentLine(first.path, first.line, first.text);
    const b = sentLine(other.path, other.line, other.text);
    pairs.push({
      id: c.id,
      lines: [a, b],
      shown: [a.shown, b.shown],
      scopes: [scopeWords(byPath.get(a.path), a.line), scopeWords(byPath.get(b.path), b.line)],
    });
  }
  return pairs;
}

/** Where a line applies, in words: its file's scope, and the headings it stands under. */
function scopeWords(doc: Doc | undefined, line: number): string {
  if (!doc) return 'unknown';
  const file = fileScope(doc.scope);
  const trail: { level: number; title: string }[] = [];
  for (const u of doc.units) {
    if (u.line >= line) break;
    if (u.kind !== 'heading') continue;
    const level = u.level ?? 1;
    while (trail.length > 0 && trail[trail.length - 1]!.level >= level) trail.pop();
    trail.push({ level, title: (u.lines[0] ?? '').replace(/^#+\s*/, '').trim() });
  }
  return trail.length === 0 ? file : `${file}; under "${trail.map((h) => h.title).join(' > ')}"`;
}

function fileScope(scope: Scope): string {
  if (scope.kind === 'repo') return 'the whole repository';
  if (scope.kind === 'globs') return `files matching ${scope.globs.map((g) => `"${g}"`).join(', ')}`;
  return 'only when the assistant asks for it';
}

/** The one request: the pairs that fit, highest ranked first. */
export function opinionRequest(pairs: ReturnType<typeof secondLookPairs>): { request: SampleRequest; sent: SentPair[] } {
  const sent: SentPair[] = [];
  let text = OPINION_PROMPT.intro;
  for (const p of pairs.slice(0, OPINION_BOUNDS.maxPairs)) {
    const side = (i: 0 | 1) => ({ file: p.lines[i].path, line: p.lines[i].line, scope: p.scopes[i], text: p.shown[i] });
    const entry = `\n${JSON.stringify({ id: p.id, A: side(0), B: side(1) })}`;
    if (Buffer.byteLength(text + entry, 'utf8') > OPINION_BOUNDS.maxRequestBytes) break;
    text += entry;
    sent.push({ id: p.id, lines: p.lines });
  }
  const request: SampleRequest = {
    messages: [{ role: 'user', content: { type: 'text', text } }],
    maxTokens: OPINION_BOUNDS.baseTokens + OPINION_BOUNDS.tokensPerPair * sent.length,
    systemPrompt: OPINION_PROMPT.system,
  };
  return { request, sent };
}

/**
 * The pairs worth a second look past the few a person is shown (model/second-looks-shown.ts), in
 * analysis's rank order, as choices nobody is asked about: the client's model reads them with the
 * others (up to OPINION_BOUNDS.maxPairs in all), so a pair it thinks conflicts can rise into view.
 * Each is named by its rank among the second looks (`second_look_9`).
 */
export function pairsBelowTheCut(problems: readonly Problem[], linesOf: (path: string) => readonly string[]): ConflictOption[] {
  const below = secondLooksByCut(problems).below.slice(0, OPINION_BOUNDS.maxPairs - SHOWN_SECOND_LOOKS);
  return below.flatMap((p, k) =>
    p.type === 'contradiction'
      ? [
          {
            id: `second_look_${SHOWN_SECOND_LOOKS + k + 1}`,
            description: p.description,
            locations: p.locations.map((l, j) => ({ ...l, text: linesOf(l.path)[l.line - 1] ?? '', side: p.sides[j] ?? j })),
            secondLook: true as const,
            topic: p.topic,
            said: p.said,
          },
        ]
      : [],
  );
}

/**
 * The model's opinion of the second-look pairs, or null: no pair, no sampling, or no verdict that
 * counts. `below`: the ranked pairs past those the plan offers (pairsBelowTheCut), read after them.
 */
export async function secondLookOpinion(
  ctx: ExchangeContext,
  conflicts: readonly ConflictOption[],
  docs: readonly Doc[],
  below: readonly ConflictOption[] = [],
): Promise<ModelOpinion | null> {
  // No pair (offered or below the cut: alike lines are listed only), or a client that cannot be asked: no request, no trace, nothing changes.
  if (![...conflicts, ...below].some((c) => c.secondLook) || !ctx.session.model.canSample()) return null;
  const pairs = secondLookPairs([...conflicts, ...below], docs);
  if (pairs.length === 0) return null;
  const { request, sent } = opinionRequest(pairs);
  const schemas = await import('../state/schema.js');
  const asked = await sampleTraced(ctx, 'second-look', request, (reply) => readVerdicts(reply, sent, schemas));
  if (asked.value === null) return null;
  return reranked(
    pairs.map((p) => p.id),
    asked.value,
    { model: asked.model, asked: sent.length, trace: asked.trace },
  );
}

/** The pairs' order with the verdicts counted: "conflict" moves a pair up, "compatible" down, by rankShift places; ties keep the order. */
export function reranked(ids: readonly string[], read: ReadVerdicts, about: Pick<ModelOpinion, 'model' | 'asked' | 'trace'>): ModelOpinion {
  const verdictOf = new Map(read.counted.map((v) => [v.id, v]));
  const shift = (id: string) => {
    const v = verdictOf.get(id)?.verdict;
    return v === 'conflict' ? -OPINION_BOUNDS.rankShift : v === 'compatible' ? OPINION_BOUNDS.rankShift : 0;
  };
  const ranked = ids
    .map((id, i) => ({ id, before: i + 1, key: i + 1 + shift(id) }))
    .sort((x, y) => x.key - y.key || shift(x.id) - shift(y.id) || x.before - y.before);
  const rankOf = new Map(ranked.map((r, i) => [r.id, { rank: i + 1, rankBefore: r.before }]));
  return {
    ...about,
    verdicts: read.counted.map((v) => ({ ...v, ...rankOf.get(v.id)! })),
    dropped: read.dropped,
    ranked: ranked.map((r) => r.id),
  };
}

/** Propose's lines about the opinion: after the tool's own report, each verdict labelled as the model's. */
export function opinionLines(opinion: ModelOpinion, conflicts: readonly ConflictOption[]): string {
  const byId = new Map(conflicts.map((c) => [c.id, c]));
  const name = opinion.model.trim() === '' ? 'unnamed' : showExcerpt(opinion.model.trim(), 80);
  const out = [
    `Second-look pairs as the client's model (${name}) reads them: its opinion, not copilot-onboard's; it decides nothing (both lines stand unless you choose otherwise in approve). It was shown ${opinion.asked} pair${opinion.asked === 1 ? '' : 's'}; a verdict counts only when it quotes both lines as they stand in the files.`,
  ];
  const inOrder = [...opinion.verdicts].sort((a, b) => a.rank - b.rank);
  for (const v of inOrder) {
    const c = byId.get(v.id);
    out.push(`- ${c ? conflictWords(c) : showExcerpt(v.id, 40)}: ${opinionWords(v, opinion.model)}`);
  }
  if (opinion.dropped.length > 0)
    out.push(
      `Not counted: ${opinion.dropped.length} verdict${opinion.dropped.length === 1 ? '' : 's'} that did not quote both lines as they stand, or named no pair (the trace says why).`,
    );
  return out.join('\n');
}
