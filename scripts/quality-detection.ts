// npm run quality (part): how right analyze's contradictions and duplicates are on the judged set of
// tests/fixtures/judged-detection, per kind of report (which earns each kind its certainty), and what
// it reports on ../shared/corpus (listed for a reviewer to judge; skipped when the corpus is absent).
// `--json` prints the figures as JSON; `--no-corpus` skips the corpus.
import fs from 'node:fs';
import path from 'node:path';
import { analyze } from '../server/src/analysis/analyze.js';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { CERTAINTY, HIGH_MIN_REPORTS, HIGH_PRECISION } from '../server/src/analysis/certainty.js';
import { loadJudgedCases } from '../tests/fixtures/judged-detection/cases.js';
import { judge, precision, ratio, recall } from '../tests/fixtures/judged-detection/judge.js';
import { CORPUS, corpusRepos } from '../tests/helpers/corpus.js';

const args = process.argv.slice(2);

async function corpus(): Promise<void> {
  if (!fs.existsSync(CORPUS)) {
    console.log(`corpus: skipped, ${CORPUS} is absent`);
    return;
  }
  console.log('\nCorpus (not judged: listed for a reviewer)');
  for (const name of corpusRepos()) {
    const problems = analyze(await scanRepository(path.join(CORPUS, name))).problems;
    const dups = problems.filter((p) => p.type === 'duplication');
    const cons = problems.filter((p) => p.type === 'contradiction');
    const byKind = [...new Set(dups.map((p) => p.kind ?? '?'))]
      .map((k) => `${k} ${dups.filter((p) => (p.kind ?? '?') === k).length}`)
      .join(', ');
    console.log(
      `${name}: ${cons.length} contradiction(s), ${dups.length} duplicate report(s)${byKind ? ` (${byKind})` : ''}${dups.length > 20 ? '  <-- over 20' : ''}`,
    );
    for (const p of cons)
      console.log(
        `  - [${p.certainty ?? '-'}] ${p.description.slice(0, 300)} @ ${p.locations.map((l) => `${l.path}:${l.line}`).join(', ')}`,
      );
    if (args.includes('--duplicates')) for (const p of dups) console.log(`  = [${p.kind ?? '?'}] ${p.description.slice(0, 160)}`);
  }
}

const cases = loadJudgedCases();
const started = performance.now();
const r = await judge(cases);
const figures = {
  cases: cases.length,
  contradiction: { ...r.contradiction, precision: precision(r.contradiction), recall: recall(r.contradiction) },
  duplication: { ...r.duplication, precision: precision(r.duplication), recall: recall(r.duplication) },
  kinds: Object.fromEntries(
    [...r.kinds].map(([k, v]) => [k, { ...v, certainty: CERTAINTY[k] ?? 'low', precision: ratio(v.right, v.right + v.wrong) }]),
  ),
  tiers: Object.fromEntries(
    Object.entries(r.tiers).map(([type, t]) => [
      type,
      {
        reported: { ...t.reported, precision: precision(t.reported), recall: recall(t.reported) },
        withSecond: { ...t.withSecond, precision: precision(t.withSecond), recall: recall(t.withSecond) },
        low: t.low,
      },
    ]),
  ),
};
if (args.includes('--json')) console.log(JSON.stringify(figures, null, 2));
else {
  const f = (n: number) => n.toFixed(2);
  console.log(`Detection, judged set (${cases.length} cases, ${Math.round(performance.now() - started)} ms)`);
  console.log(
    `contradictions: precision ${f(figures.contradiction.precision)}, recall ${f(figures.contradiction.recall)} (tp ${r.contradiction.tp}, fp ${r.contradiction.fp}, fn ${r.contradiction.fn})`,
  );
  console.log(
    `duplicates:     precision ${f(figures.duplication.precision)}, recall ${f(figures.duplication.recall)} (tp ${r.duplication.tp}, fp ${r.duplication.fp}, fn ${r.duplication.fn})`,
  );
  for (const [type, t] of Object.entries(figures.tiers))
    console.log(
      `${type} by tier: reported (high/medium) precision ${f(t.reported.precision)}, recall ${f(t.reported.recall)}; with the second look (low) precision ${f(t.withSecond.precision)}, recall ${f(t.withSecond.recall)} (low reports right ${t.low.right}, wrong ${t.low.wrong})`,
    );
  console.log('per kind of report, with its tier (right / wrong):');
  for (const [k, v] of Object.entries(figures.kinds).sort())
    console.log(`  ${k} [${v.certainty}]: ${v.right} / ${v.wrong} (${f(v.precision)})`);
  for (const m of r.misses) console.log(`  ${m}`);
}
// `high` must be earned here: right at least 95% of the time, over enough reports.
const unearned = Object.entries(CERTAINTY)
  .filter(([k, c]) => c === 'high' && !k.startsWith('ambiguity/'))
  .filter(([k]) => {
    const v = figures.kinds[k];
    return !v || v.right + v.wrong < HIGH_MIN_REPORTS || v.precision < HIGH_PRECISION;
  })
  .map(([k]) => k);
if (!args.includes('--json'))
  console.log(
    unearned.length === 0
      ? 'certainty: every "high" kind is earned on the judged set'
      : `certainty: "high" NOT earned for ${unearned.join(', ')}`,
  );
if (!args.includes('--no-corpus')) await corpus();
const ok = figures.contradiction.recall >= 0.85 && figures.contradiction.precision >= 0.9 && unearned.length === 0;
if (!ok) console.log('Goal not met: contradiction recall >= 0.85 at precision >= 0.9, and every "high" certainty earned.');
process.exit(ok ? 0 : 1);
