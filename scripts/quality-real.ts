// npm run quality (part): how right analyze's contradictions are on real repositories, judged by reading
// (tests/fixtures/judged-real/pairs.json points at ../shared/corpus by path and quoted text). Prints
// recall and precision per tier and per class. Analysis runs in process and writes nothing.
// `--json` prints the figures as JSON; `--list` lists every report in the judged repositories.
import fs from 'node:fs';
import path from 'node:path';
import { analyze, type Problem } from '../server/src/analysis/analyze.js';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { CORPUS, corpusRepos } from '../tests/helpers/corpus.js';

interface Side {
  path: string;
  text: string;
  line?: number;
  also?: string[];
}
interface Pair {
  id: string;
  repo: string;
  label: 'conflict' | 'compatible';
  class: string;
  a: Side;
  b: Side;
  why: string;
}

const args = process.argv.slice(2);
const pairs = (
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../tests/fixtures/judged-real/pairs.json'), 'utf8')) as {
    pairs: Pair[];
  }
).pairs;

if (!fs.existsSync(CORPUS)) {
  console.log(`real judged set: skipped, ${CORPUS} is absent`);
  process.exit(0);
}

/** The lines a side stands for: `path:line` keys. */
function linesOf(repo: string, s: Side): Set<string> {
  const lines = fs.readFileSync(path.join(CORPUS, repo, s.path), 'utf8').split(/\r?\n/);
  const keys = new Set<string>();
  for (const [i, quote] of [s.text, ...(s.also ?? [])].entries()) {
    const hits = lines.flatMap((l, n) => (l.includes(quote) ? [n + 1] : []));
    if (hits.length === 0) throw new Error(`${repo}: quote not found in ${s.path}: ${quote}`);
    keys.add(`${s.path}:${i === 0 && s.line !== undefined ? s.line : hits[0]}`);
  }
  return keys;
}

const tierOf = (p: Problem): 'reported' | 'second' => (p.certainty === 'low' ? 'second' : 'reported');
/** The sides of a report a judged side's lines stand on (one side when the report gives none). */
const sidesAt = (p: Problem, keys: Set<string>) =>
  new Set([
    ...p.locations.flatMap((l, i) => (keys.has(`${l.path}:${l.line}`) ? [(p.type === 'contradiction' ? p.sides[i] : undefined) ?? i] : [])),
    // A line the report names as only using a side's tool stands on that side (it is not offered to drop).
    ...((p.type === 'contradiction' ? p.mentions : undefined) ?? []).flatMap((m) => (keys.has(`${m.path}:${m.line}`) ? [m.side] : [])),
  ]);
/** A report stands between the two sides of a pair when each side is on it, not only on one side of it. */
const between = (p: Problem, a: Set<string>, b: Set<string>) => {
  const sa = sidesAt(p, a);
  const sb = sidesAt(p, b);
  return sa.size > 0 && sb.size > 0 && [...sa].some((x) => [...sb].some((y) => x !== y));
};

const started = performance.now();
const repos = [...new Set(pairs.map((p) => p.repo))].sort();
const found = new Map<string, 'reported' | 'second'>(); // conflict pair id -> best tier that found it
const falseBy = { reported: new Map<string, number>(), second: new Map<string, number>() }; // class -> false reports
const tally = {
  reported: { right: 0, wrong: 0, unjudged: 0 },
  second: { right: 0, wrong: 0, unjudged: 0 },
};
const listed: string[] = [];
const dupFound = new Map<string, 'reported' | 'second'>(); // duplicate pair id -> best tier of a duplicate report on it
// The second tier's size is measured on the whole corpus, judged or not: rules are units that are
// neither a heading, front matter nor code.
let ruleUnits = 0;
let corpusLow = 0;
for (const repo of corpusRepos()) {
  const scan = await scanRepository(path.join(CORPUS, repo));
  ruleUnits += scan.docs.reduce((n, d) => n + d.units.filter((u) => !['frontmatter', 'code', 'heading'].includes(u.kind)).length, 0);
  const all = analyze(scan).problems;
  const problems = all.filter((p) => p.type === 'contradiction');
  corpusLow += problems.filter((p) => p.certainty === 'low').length;
  if (!repos.includes(repo)) continue;
  const mine = pairs.filter((p) => p.repo === repo).map((p) => ({ pair: p, a: linesOf(repo, p.a), b: linesOf(repo, p.b) }));
  // Pairs judged the same rule twice: found when a duplicate report stands on both lines.
  for (const m of mine.filter((x) => x.pair.class === 'duplicate')) {
    const dup = all.filter((p) => p.type === 'duplication' && between(p, m.a, m.b));
    if (dup.length > 0) dupFound.set(m.pair.id, dup.some((p) => p.certainty !== 'low') ? 'reported' : 'second');
  }
  for (const p of problems) {
    const tier = tierOf(p);
    const hits = mine.filter((m) => between(p, m.a, m.b));
    const right = hits.filter((m) => m.pair.label === 'conflict');
    const wrong = hits.filter((m) => m.pair.label === 'compatible');
    if (right.length > 0) {
      tally[tier].right++;
      for (const m of right) if (found.get(m.pair.id) !== 'reported') found.set(m.pair.id, tier);
    } else if (wrong.length > 0) {
      tally[tier].wrong++;
      for (const m of wrong) falseBy[tier].set(m.pair.class, (falseBy[tier].get(m.pair.class) ?? 0) + 1);
    } else tally[tier].unjudged++;
    const verdict = right.length > 0 ? 'RIGHT' : wrong.length > 0 ? `WRONG (${wrong[0]!.pair.id})` : 'unjudged';
    listed.push(
      `  ${repo} [${p.certainty ?? '-'}/${p.kind ?? '?'}] ${verdict}: ${p.description.slice(0, 200)} @ ${p.locations.map((l) => `${l.path}:${l.line}`).join(', ')}`,
    );
  }
}

const conflicts = pairs.filter((p) => p.label === 'conflict');
const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
const classes = [...new Set(conflicts.map((p) => p.class))].sort();
const perClass = Object.fromEntries(
  classes.map((c) => {
    const of = conflicts.filter((p) => p.class === c);
    return [
      c,
      {
        pairs: of.length,
        reported: of.filter((p) => found.get(p.id) === 'reported').length,
        withSecond: of.filter((p) => found.has(p.id)).length,
      },
    ];
  }),
);
const negatives = pairs.filter((p) => p.label === 'compatible');
const negClasses = [...new Set(negatives.map((p) => p.class))].sort();
const reportedFound = conflicts.filter((p) => found.get(p.id) === 'reported').length;
const figures = {
  repositories: repos.length,
  pairs: pairs.length,
  conflicts: conflicts.length,
  compatible: negatives.length,
  ruleUnits,
  reported: {
    ...tally.reported,
    recall: ratio(reportedFound, conflicts.length),
    // Judged precision: right among reports that land on a judged pair; strict counts every other report as wrong.
    precision: ratio(tally.reported.right, tally.reported.right + tally.reported.wrong),
    strictPrecision: ratio(tally.reported.right, tally.reported.right + tally.reported.wrong + tally.reported.unjudged),
  },
  second: { ...tally.second, count: tally.second.right + tally.second.wrong + tally.second.unjudged },
  corpusSecond: { repositories: corpusRepos().length, rules: ruleUnits, low: corpusLow },
  duplicates: {
    pairs: negatives.filter((p) => p.class === 'duplicate').length,
    reported: [...dupFound.values()].filter((t) => t === 'reported').length,
    withSecond: dupFound.size,
  },
  recallWithSecond: ratio(found.size, conflicts.length),
  perClass,
  falseReports: Object.fromEntries(
    negClasses.map((c) => [
      c,
      { pairs: negatives.filter((p) => p.class === c).length, reported: falseBy.reported.get(c) ?? 0, second: falseBy.second.get(c) ?? 0 },
    ]),
  ),
};
const f = (n: number) => n.toFixed(2);
if (args.includes('--json')) console.log(JSON.stringify(figures, null, 2));
else {
  console.log(
    `\nContradictions, real judged set (${repos.length} repositories, ${pairs.length} pairs: ${conflicts.length} conflicts, ${negatives.length} compatible; ${Math.round(performance.now() - started)} ms)`,
  );
  const r = figures.reported;
  console.log(
    `reported (high/medium): recall ${f(r.recall)} (${reportedFound} of ${conflicts.length}), precision ${f(r.precision)} (right ${r.right}, wrong ${r.wrong}; ${r.unjudged} on unjudged lines, strict precision ${f(r.strictPrecision)})`,
  );
  console.log(
    `second look (low): ${figures.second.count} report(s) (right ${tally.second.right}, wrong ${tally.second.wrong}, unjudged ${tally.second.unjudged}), precision ${f(ratio(tally.second.right, tally.second.right + tally.second.wrong))}; recall with it ${f(figures.recallWithSecond)} (${found.size} of ${conflicts.length})`,
  );
  console.log(
    `second look on the whole corpus (${figures.corpusSecond.repositories} repositories): ${corpusLow} report(s) over ${ruleUnits} rules, ${f((20 * corpusLow) / Math.max(1, ruleUnits))} per 20 rules (at most about 1 per 20)`,
  );
  console.log('per class of conflict (found reported / with second look / pairs):');
  for (const [c, v] of Object.entries(perClass)) console.log(`  ${c}: ${v.reported} / ${v.withSecond} / ${v.pairs}`);
  console.log('false reports on compatible pairs, per class (reported / second look / pairs):');
  for (const [c, v] of Object.entries(figures.falseReports)) console.log(`  ${c}: ${v.reported} / ${v.second} / ${v.pairs}`);
  const d = figures.duplicates;
  console.log(
    `duplicates among the pairs (the same rule twice, often in other words): found reported ${d.reported} / with the second look ${d.withSecond} / ${d.pairs}`,
  );
  const missed = conflicts.filter((p) => !found.has(p.id)).map((p) => p.id);
  if (missed.length > 0) console.log(`missed: ${missed.join(', ')}`);
  if (args.includes('--list')) for (const l of listed) console.log(l);
}

// Targets (issue 29): reported precision 0.9 and recall 0.6 fail the run when missed (a regression);
// recall with the second look (0.85) and its size on the corpus (about one per 20 rules at most) are printed.
const misses: string[] = [];
if (figures.reported.precision < 0.9) misses.push(`reported precision ${f(figures.reported.precision)} < 0.90`);
if (figures.reported.recall < 0.6) misses.push(`reported recall ${f(figures.reported.recall)} < 0.60`);
const notes: string[] = [];
if (figures.recallWithSecond < 0.85) notes.push(`recall with the second look ${f(figures.recallWithSecond)} < 0.85`);
if (corpusLow * 20 > ruleUnits) notes.push(`second look larger than one per 20 rules on the corpus`);
if (!args.includes('--json')) {
  for (const n of notes) console.log(`target not met (not failing): ${n}`);
  for (const m of misses) console.log(`Goal not met: ${m}`);
}
process.exit(misses.length > 0 ? 1 : 0);
