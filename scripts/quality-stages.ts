// Where each judged conflict of the build data is lost on its way to a second look (issue 39): the first
// stage of the finder (contradictions/second-look/) its two lines do not pass, and the best tier any
// finder reached with it. Reads the build data only: the build half of split.json and every set judged
// later but the newest, which stays held out (never read while building; quality-real.ts measures it).
// `node --import tsx scripts/quality-stages.ts` prints the counts; `--list` adds every conflict not shown.
import fs from 'node:fs';
import path from 'node:path';
import { analyze, DEFAULT_FINDERS, finderInput } from '../server/src/analysis/analyze.js';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { ruleLines, type RuleLine } from '../server/src/analysis/contradictions/second-look/rule-lines.js';
import { lineTerms, mayMark } from '../server/src/analysis/contradictions/second-look/terms.js';
import { indexLines, MIN_SIMILARITY, turnsAgainst } from '../server/src/analysis/contradictions/second-look/second-looks.js';
import { judgePair } from '../server/src/analysis/contradictions/second-look/judge.js';
import { scopesOverlap } from '../server/src/analysis/scope/scope-overlap.js';
import { SHOWN_SECOND_LOOKS } from '../server/src/model/second-looks-shown.js';
import { buildDataSets, keysOf } from './judged-build-data.js';

const STAGES = [
  'a side is no rule line',
  'scopes never meet',
  'a side holds no value and no negation',
  'a side shares no word with a few other lines',
  'too little in common',
  'no mark',
  'judged, ranked out of the list',
  'judged and listed',
] as const;
type Stage = (typeof STAGES)[number];
const TIERS = ['reported', 'shown', 'listed', 'not found'] as const;
type Tier = (typeof TIERS)[number];

const sets = buildDataSets();

const count = new Map<string, number>();
const bump = (key: string) => count.set(key, (count.get(key) ?? 0) + 1);
const notShown: string[] = [];
for (const set of sets) {
  const conflicts = set.pairs.filter((p) => p.label === 'conflict');
  for (const repo of [...new Set(conflicts.map((p) => p.repo))]) {
    const dir = path.join(set.root, repo);
    if (!fs.existsSync(dir)) {
      console.log(`${set.name}: skipped ${repo}, ${dir} is absent`);
      continue;
    }
    const scan = await scanRepository(dir);
    const found = analyze(scan, DEFAULT_FINDERS).problems.filter((p) => p.type === 'contradiction');
    const looks = found.filter((p) => p.certainty === 'low');
    const input = finderInput(scan);
    const all = ruleLines(input.units, input.scopeOf);
    const index = indexLines(all, new Set());
    for (const pair of conflicts.filter((p) => p.repo === repo)) {
      const [a, b] = [keysOf(dir, pair.a), keysOf(dir, pair.b)];
      const tier = tierOf(found, looks, a, b);
      const judged = stageOf(all, index, a, b);
      const stage = judged === 'judged and listed' && tier === 'not found' ? 'judged, ranked out of the list' : judged;
      bump(`${stage}|${tier}`);
      bump(`class ${pair.class}|${tier}`);
      if (tier !== 'reported' && tier !== 'shown') notShown.push(`  ${pair.id} (${pair.class}): ${stage}; ${tier}`);
    }
  }
}

console.log(`Where the build data's judged conflicts are lost (${sets.map((s) => s.name).join(', ')}):`);
const row = (label: string) => TIERS.map((t) => count.get(`${label}|${t}`) ?? 0);
console.log(`  stage of the finder: ${TIERS.join(' / ')}`);
for (const s of STAGES) console.log(`  ${s}: ${row(s).join(' / ')}`);
const classes = [...new Set([...count.keys()].filter((k) => k.startsWith('class ')).map((k) => k.split('|')[0]!))].sort();
for (const c of classes) console.log(`  ${c.slice('class '.length)}: ${row(c).join(' / ')}`);
if (process.argv.includes('--list')) console.log(notShown.join('\n'));

/** The best tier a report holding a line of each side reached. */
function tierOf(
  found: readonly { certainty?: string; locations: { path: string; line: number }[] }[],
  looks: readonly object[],
  a: Set<string>,
  b: Set<string>,
): Tier {
  let best: Tier = 'not found';
  for (const p of found) {
    const keys = p.locations.map((l) => `${l.path}:${l.line}`);
    if (!keys.some((k) => a.has(k)) || !keys.some((k) => b.has(k))) continue;
    const tier: Tier = p.certainty !== 'low' ? 'reported' : looks.indexOf(p) < SHOWN_SECOND_LOOKS ? 'shown' : 'listed';
    if (TIERS.indexOf(tier) < TIERS.indexOf(best)) best = tier;
  }
  return best;
}

/** The first stage of the second-look finder the pair's two lines do not pass. */
function stageOf(all: readonly RuleLine[], index: ReturnType<typeof indexLines>, a: Set<string>, b: Set<string>): Stage {
  const [la, lb] = [all.find((l) => a.has(`${l.path}:${l.line}`)), all.find((l) => b.has(`${l.path}:${l.line}`))];
  if (!la || !lb) return 'a side is no rule line';
  if (la.unit === lb.unit || !scopesOverlap(la.scope, lb.scope)) return 'scopes never meet';
  const marks = (l: RuleLine) => mayMark(l) && ((r) => r.values.length > 0 || r.negated.size > 0)(lineTerms(l.text, l.code, l.wrong));
  if (!marks(la) || !marks(lb)) return 'a side holds no value and no negation';
  const [ia, ib] = [index?.lines.indexOf(la) ?? -1, index?.lines.indexOf(lb) ?? -1];
  if (!index || ia < 0 || ib < 0) return 'a side shares no word with a few other lines';
  const [x, y] = ia < ib ? [ia, ib] : [ib, ia];
  const terms = new Set(index.read[y]!.terms);
  let dot = 0;
  for (const t of index.read[x]!.terms) if (terms.has(t)) dot += index.weight.get(t)! ** 2;
  const similarity = dot / (index.norms[x]! * index.norms[y]!);
  // As the finder reads it: a negation against a value passes at a quarter of the bar (second-looks.ts).
  const against = similarity >= MIN_SIMILARITY / 4 && turnsAgainst(index.read[x]!, index.read[y]!);
  if (similarity < MIN_SIMILARITY && !against) return 'too little in common';
  const judged = judgePair(index.lines[x]!, index.lines[y]!, index.read[x]!, index.read[y]!, terms, similarity, index.context);
  return judged ? 'judged and listed' : 'no mark';
}
