import { pairKey } from '../../../model/place-pairs.js';
import { alikePairs, likeness, readWords, type AlikePair } from './alike-pairs.js';
import type { SecondLook } from './judge.js';
import { pairFeatures, placeInRepository } from './rank-features.js';
import { RANK_MODEL } from './rank-weights.js';
import type { RuleLine } from './rule-lines.js';

/**
 * The second looks in the order a reader should take them, by a ranking learned from the judged
 * pairs of the build data (scripts/fit-second-look-rank.ts writes rank-weights.ts): a logistic model
 * over the pair's features (rank-features.ts). The pairs the finder marked (two values of one slot, a
 * line saying not to do what another does) fill the places a person is shown, in the finder's order;
 * the places after them, the list the client's model reads, take the best by the ranking of every pair
 * left, marked or only alike (alike-pairs.ts). Measured on sets left out of the fit one at a time
 * (docs/analysis.md): more judged conflicts in the list of 40 than the finder's own order.
 */

/** A pair to rank: a pair the finder marked, or two alike lines nothing marks. */
export interface Candidate {
  look: SecondLook;
  features: number[];
}

/** A fitted model: per feature its mean and scale (to standardise it) and weight, and the bias. */
export interface RankModel {
  mean: readonly number[];
  scale: readonly number[];
  weights: readonly number[];
  bias: number;
}

/** A line takes part in at most this many pairs, as in the finder's own list (second-looks.ts). */
const PAIRS_PER_LINE = 2;

/** The pairs to rank: the finder's own (in its order) and the alike lines of other files not among them. */
export function candidatesOf(all: readonly RuleLine[], marked: readonly SecondLook[], taken: ReadonlySet<string>): Candidate[] {
  const read = readWords(all);
  const at = new Map(all.map((l, i) => [l, i]));
  const held = new Set<string>();
  const out: Candidate[] = marked.map((look, k) => {
    const lines = [look.a, look.b, ...(look.more ?? []), ...(look.also ?? [])];
    for (const p of lines) for (const q of lines) if (p !== q) held.add(pairKey(p, q));
    const [x, y] = [at.get(look.a), at.get(look.b)];
    const like = x === undefined || y === undefined ? { cosine: 0, rarest: 0, rareShared: 0 } : likeness(read, x, y);
    const words = (i: number | undefined) => (i === undefined ? [] : read.words[i]!);
    return { look, features: pairFeatures(look.a, look.b, like, words(x), words(y), k + 1) };
  });
  for (const p of mostLikely(alikePairs(all, read, taken))) {
    const [a, b] = [all[p.x]!, all[p.y]!];
    if (held.has(pairKey(a, b))) continue;
    const look: SecondLook = { a, b, score: 0, subject: p.subject, mark: 'alike' };
    out.push({ look, features: pairFeatures(a, b, p, read.words[p.x]!, read.words[p.y]!, 0) });
  }
  placeInRepository(out.map((c) => c.features));
  return out;
}

/** How likely the ranking holds the pair to be a conflict (its logistic score, before the sigmoid). */
export function rankScore(features: readonly number[], model: RankModel = RANK_MODEL): number {
  let z = model.bias;
  for (let i = 0; i < features.length; i++) z += (model.weights[i]! * (features[i]! - model.mean[i]!)) / model.scale[i]!;
  return z;
}

/**
 * The list: the finder's first marked pairs in the `shown` places a person sees, then the best of all
 * the others by the ranking, each line in at most a few pairs, at most `limit`.
 */
export function rankCandidates(
  candidates: readonly Candidate[],
  limit: number,
  shown: number,
  model: RankModel = RANK_MODEL,
): SecondLook[] {
  const scored = candidates.map((c) => ({ look: c.look, score: rankScore(c.features, model) }));
  const byScore = (p: { score: number }, q: { score: number }) => q.score - p.score;
  // The places a person sees keep the finder's own order: ranked by the model, they held no more judged
  // conflicts on sets left out of its fit, and more look-alikes (docs/analysis.md).
  const first = scored.filter((c) => c.look.mark !== 'alike').slice(0, shown);
  const rest = scored.filter((c) => !first.includes(c)).sort(byScore);
  const uses = new Map<string, number>();
  const out: SecondLook[] = [];
  for (const c of [...first, ...rest]) {
    if (out.length >= limit) break;
    const keys = [c.look.a, c.look.b].map((l) => `${l.path}:${l.line}`);
    // The finder's own pairs kept its bound already; alike pairs keep it too, counting every pair before.
    if (c.look.mark === 'alike' && keys.some((k) => (uses.get(k) ?? 0) >= PAIRS_PER_LINE)) continue;
    for (const k of keys) uses.set(k, (uses.get(k) ?? 0) + 1);
    out.push({ ...c.look, score: c.score });
  }
  return out;
}

/**
 * The alike pairs worth reading whole: at most ALIKE_READ, those sharing the rarest words first (what
 * the ranking weighs most). Reading every pair's features costs most on large repositories (coolify:
 * 20,000 pairs), and at most 40 are listed.
 */
function mostLikely(pairs: AlikePair[]): AlikePair[] {
  if (pairs.length <= ALIKE_READ) return pairs;
  const worth = (p: AlikePair) => p.rarest + 0.1 * p.rareShared;
  return pairs.sort((p, q) => worth(q) - worth(p) || p.x - q.x || p.y - q.y).slice(0, ALIKE_READ);
}
const ALIKE_READ = 400;
