// Fits the ranking of second looks (server/src/analysis/contradictions/second-look/rank.ts) on the judged
// pairs of the build data (judged-build-data.ts: never the check half, never the newest set) and writes
// rank-weights.ts. A logistic model over the features of rank-features.ts: a judged conflict is 1, any other
// pair 0 (a judged look-alike or a pair nobody judged).
// `--loso` fits without each set in turn and ranks that set: what the ranking does on repositories it was
// not fitted on, against the finder's own order (the figures docs/analysis.md gives). Writes nothing.
import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { analyze, DEFAULT_FINDERS, finderInput, withCopies } from '../server/src/analysis/analyze.js';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { secondLookCandidates, LISTED_SECOND_LOOKS } from '../server/src/analysis/contradictions/second-look/second-looks.js';
import { rankCandidates, type Candidate } from '../server/src/analysis/contradictions/second-look/rank.js';
import { FEATURES } from '../server/src/analysis/contradictions/second-look/rank-features.js';
import { heldPairs } from '../server/src/model/place-pairs.js';
import { SHOWN_SECOND_LOOKS } from '../server/src/model/second-looks-shown.js';
import { buildDataSets, keysOf } from './judged-build-data.js';

interface Repo {
  set: string;
  candidates: Candidate[];
  /** Each candidate's judged pair: the conflict's or look-alike's id, or '' for none. */
  judged: { conflict: string; alike: string }[];
  limit: number;
  shown: number;
}

const repos: Repo[] = [];
for (const set of buildDataSets()) {
  for (const repo of [...new Set(set.pairs.map((p) => p.repo))]) {
    const dir = path.join(set.root, repo);
    if (!fs.existsSync(dir)) throw new Error(`${set.name}: ${dir} is absent`);
    const scan = await scanRepository(dir);
    // As analyze runs the finder: the pairs reported already are taken, the second looks found earlier (drift's) come first.
    const before = analyze(
      scan,
      DEFAULT_FINDERS.filter((f) => f.name !== 'subject'),
    ).problems.filter((p) => p.type === 'contradiction');
    const earlier = before.filter((p) => p.certainty === 'low').length;
    const input = finderInput(scan);
    const { units, scopeOf } = withCopies(input);
    const limit = Math.max(0, LISTED_SECOND_LOOKS - earlier);
    const candidates = secondLookCandidates(units, scopeOf, heldPairs(before), limit, input.scan.copies, input.meeting);
    const sides = set.pairs.filter((p) => p.repo === repo).map((p) => ({ pair: p, a: keysOf(dir, p.a), b: keysOf(dir, p.b) }));
    const judged = candidates.map(({ look }) => {
      const keys = [look.a, look.b, ...(look.more ?? []), ...(look.also ?? [])].map((l) => `${l.path}:${l.line}`);
      const hit = sides.filter((s) => keys.some((k) => s.a.has(k)) && keys.some((k) => s.b.has(k)));
      return {
        conflict: hit.find((s) => s.pair.label === 'conflict')?.pair.id ?? '',
        alike: hit.find((s) => s.pair.label === 'compatible')?.pair.id ?? '',
      };
    });
    repos.push({ set: set.name, candidates, judged, limit, shown: Math.max(0, SHOWN_SECOND_LOOKS - earlier) });
  }
}

type Model = { mean: number[]; scale: number[]; weights: number[]; bias: number };

/** Logistic regression, conflicts weighed as much as all other pairs together (they are few), a little L2; plain gradient descent. */
function fit(rows: readonly Repo[]): Model {
  const xs = rows.flatMap((r) => r.candidates.map((c) => c.features));
  const ys: number[] = rows.flatMap((r) => r.judged.map((j) => (j.conflict !== '' ? 1 : 0)));
  const [n, d] = [xs.length, FEATURES.length];
  const mean = FEATURES.map((_, i) => xs.reduce((s, x) => s + x[i]!, 0) / n);
  const scale = FEATURES.map((_, i) => Math.sqrt(xs.reduce((s, x) => s + (x[i]! - mean[i]!) ** 2, 0) / n) || 1);
  const z = new Float64Array(n * d);
  xs.forEach((x, k) => x.forEach((v, i) => (z[k * d + i] = (v - mean[i]!) / scale[i]!)));
  const positives = ys.reduce((s, y) => s + y, 0);
  const up = Math.min(200, (n - positives) / Math.max(1, positives));
  const total = n - positives + up * positives;
  const weights = new Float64Array(d);
  let bias = 0;
  const grad = new Float64Array(d);
  for (let step = 0; step < 600; step++) {
    grad.fill(0);
    let gb = 0;
    for (let k = 0; k < n; k++) {
      let t = bias;
      for (let i = 0; i < d; i++) t += z[k * d + i]! * weights[i]!;
      const e = (1 / (1 + Math.exp(-t)) - ys[k]!) * (ys[k] === 1 ? up : 1);
      for (let i = 0; i < d; i++) grad[i]! += e * z[k * d + i]!;
      gb += e;
    }
    for (let i = 0; i < d; i++) weights[i]! -= 1.0 * (grad[i]! / total + 0.001 * weights[i]!);
    bias -= 1.0 * (gb / total);
  }
  return { mean, scale, weights: [...weights], bias };
}

/** The judged conflicts and look-alikes among the first `shown` pairs and the whole list, in the given order. */
function tally(r: Repo, order: readonly Candidate[]) {
  const at = new Map(r.candidates.map((c, i) => [c.look, i]));
  const first = { right: new Set<string>(), wrong: new Set<string>() };
  const all = { right: new Set<string>(), wrong: new Set<string>() };
  order.forEach((c, k) => {
    const j = r.judged[at.get(c.look)!]!;
    for (const t of k < r.shown ? [first, all] : [all]) {
      if (j.conflict !== '') t.right.add(j.conflict);
      else if (j.alike !== '') t.wrong.add(j.alike);
    }
  });
  return [first.right.size, first.wrong.size, all.right.size, all.wrong.size];
}

if (process.argv.includes('--loso')) {
  const sum = { own: [0, 0, 0, 0], ranked: [0, 0, 0, 0] };
  let alikeListed = 0;
  console.log('set: finder order (first shown right/wrong, list right/wrong) -> ranked, fitted without the set');
  for (const set of [...new Set(repos.map((r) => r.set))]) {
    const model = fit(repos.filter((r) => r.set !== set));
    const own = [0, 0, 0, 0];
    const ranked = [0, 0, 0, 0];
    for (const r of repos.filter((x) => x.set === set)) {
      const marked = r.candidates.filter((c) => c.look.mark !== 'alike');
      tally(r, marked).forEach((v, i) => (own[i]! += v));
      const looks = rankCandidates(r.candidates, r.limit, r.shown, model);
      alikeListed += looks.filter((l) => l.mark === 'alike').length;
      const byLook = new Map(r.candidates.map((c) => [`${c.look.a.path}:${c.look.a.line}|${c.look.b.path}:${c.look.b.line}`, c]));
      tally(
        r,
        looks.map((l) => byLook.get(`${l.a.path}:${l.a.line}|${l.b.path}:${l.b.line}`)!),
      ).forEach((v, i) => (ranked[i]! += v));
    }
    own.forEach((v, i) => (sum.own[i]! += v));
    ranked.forEach((v, i) => (sum.ranked[i]! += v));
    console.log(
      `  ${set}: ${own.slice(0, 2).join('/')} ${own.slice(2).join('/')} -> ${ranked.slice(0, 2).join('/')} ${ranked.slice(2).join('/')}`,
    );
  }
  console.log(`  alike pairs listed: ${alikeListed}`);
  console.log(
    `  all: ${sum.own.slice(0, 2).join('/')} ${sum.own.slice(2).join('/')} -> ${sum.ranked.slice(0, 2).join('/')} ${sum.ranked.slice(2).join('/')}`,
  );
} else {
  const model = fit(repos);
  const list = (xs: readonly number[]) => `[${xs.map((x) => Number(x.toFixed(4))).join(', ')}]`;
  const file = path.join(import.meta.dirname, '../server/src/analysis/contradictions/second-look/rank-weights.ts');
  const text = fs.readFileSync(file, 'utf8');
  const body = `  mean: ${list(model.mean)},\n  scale: ${list(model.scale)},\n  weights: ${list(model.weights)},\n  bias: ${Number(model.bias.toFixed(4))},\n`;
  const written = text.replace(/(= \{\n)[\s\S]*?(\};\n)$/, `$1${body}$2`);
  // Written as the project's formatter would (lint checks it).
  fs.writeFileSync(file, await prettier.format(written, { ...(await prettier.resolveConfig(file)), filepath: file }));
  console.log(`rank-weights.ts written: ${repos.length} repositories, ${repos.reduce((s, r) => s + r.candidates.length, 0)} pairs`);
}
