// npm run quality (part): how right analyze's contradictions are on real repositories, judged by reading
// (tests/fixtures/judged-real/*.json point at ../shared/corpus by path and quoted text). Prints recall and
// precision per set (the build and check halves of split.json, and each set of repositories judged after issue
// 39 started: unseen-*.json), per tier and per class, and how many pairs worth a second look each repository shows.
// Analysis runs in process and writes nothing.
// `--json` prints the figures as JSON; `--list` lists every report in the build half's repositories
// (the check half and the added sets are measured, never listed: they are not read while building).
// `--subject` adds the opt-in finder of pairs worth a second look by subject (issue 39).
// `--skip=a,b` leaves repositories of the corpus out entirely (a set being judged, that the tool must not run on yet).
// The sets judged from c on (unseen-2026-11-28c.json, unseen-2026-11-29d.json, ...) live outside the project and
// the corpus, set c in $HELDOUT_ROOT or /work/heldout-c, each later set x in $HELDOUT_X_ROOT or /work/heldout-x
// (judged-build-data.ts, heldoutRoot): each is measured where its folder exists, skipped with a line where it does not (CI).
// `--check-quotes` only checks that every quote of the sets from c on is found in its file, without analysing anything.
import fs from 'node:fs';
import path from 'node:path';
import { analyze, DEFAULT_FINDERS, FINDERS, type Problem } from '../server/src/analysis/analyze.js';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { CORPUS, corpusRepos } from '../tests/helpers/corpus.js';
import { secondLooksByCut, SHOWN_SECOND_LOOKS } from '../server/src/model/second-looks-shown.js';
import { heldoutRoot, type Pair, type Side } from './judged-build-data.js';

/** `build`, `check`, then one set a file of repositories judged after issue 39 started (`added`, `added-b`, ...). */
type SetName = string;
type Tier = 'reported' | 'shown' | 'listed';

const args = process.argv.slice(2);
const skipped = new Set(args.flatMap((a) => (a.startsWith('--skip=') ? a.slice('--skip='.length).split(',') : [])));
const fixtures = path.join(import.meta.dirname, '../tests/fixtures/judged-real');
/** The set a file of repositories judged later stands for: the first one `added`, then `added-b`, `added-c`, ... */
const addedName = (file: string) => {
  const letter = /^unseen-\d{4}-\d{2}-\d{2}([a-z]*)\.json$/.exec(file)?.[1] ?? file;
  return letter === '' ? 'added' : `added-${letter}`;
};
const read = <T>(f: string) => JSON.parse(fs.readFileSync(path.join(fixtures, f), 'utf8')) as T;
const split = read<{ build: string[]; check: string[] }>('split.json');
const setOf = new Map<string, SetName>([
  ...split.build.map((r) => [r, 'build'] as const),
  ...split.check.map((r) => [r, 'check'] as const),
]);
const pairs: Pair[] = read<{ pairs: Pair[] }>('pairs.json').pairs;
for (const f of fs
  .readdirSync(fixtures)
  .filter((f) => f.startsWith('unseen-') && f.endsWith('.json'))
  .sort())
  for (const p of read<{ pairs: Pair[] }>(f).pairs) {
    // Each set judged later is printed on its own line; the first one keeps the name `added`.
    setOf.set(p.repo, addedName(f));
    pairs.push(p);
  }
const reposOf = (set: SetName) => [...new Set(pairs.filter((p) => setOf.get(p.repo) === set).map((p) => p.repo))];
/** The held-out sets judged later (c on), each measured where its folder exists: its letter, folder and repositories. */
const heldoutSets = [...new Set(setOf.values())]
  .flatMap((set) => {
    const letter = /^added-([a-z])$/.exec(set)?.[1];
    const root = letter === undefined ? null : heldoutRoot(letter);
    return letter === undefined || root === null ? [] : [{ letter, root, repos: fs.existsSync(root) ? reposOf(set) : [] }];
  })
  .sort((x, y) => x.letter.localeCompare(y.letter));
const heldoutRepos = heldoutSets.flatMap((h) => h.repos);
const rootOf = (repo: string) => heldoutSets.find((h) => h.repos.includes(repo))?.root ?? CORPUS;
if (!args.includes('--json'))
  for (const h of heldoutSets) if (h.repos.length === 0) console.log(`held-out set ${h.letter}: skipped, ${h.root} is absent`);

if (!fs.existsSync(CORPUS)) {
  console.log(`real judged set: skipped, ${CORPUS} is absent`);
  process.exit(0);
}

/** The lines a side stands for: `path:line` keys. */
function linesOf(repo: string, s: Side): Set<string> {
  const lines = fs.readFileSync(path.join(rootOf(repo), repo, s.path), 'utf8').split(/\r?\n/);
  const keys = new Set<string>();
  for (const [i, quote] of [s.text, ...(s.also ?? [])].entries()) {
    const hits = lines.flatMap((l, n) => (l.includes(quote) ? [n + 1] : []));
    if (hits.length === 0) throw new Error(`${repo}: quote not found in ${s.path}: ${quote}`);
    keys.add(`${s.path}:${i === 0 && s.line !== undefined ? s.line : hits[0]}`);
  }
  return keys;
}

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

// Every quote of the held-out sets is checked before anything is analysed (a quote not found throws).
const quotesOf = (rs: string[]) =>
  pairs.filter((p) => rs.includes(p.repo)).flatMap((p) => [...linesOf(p.repo, p.a), ...linesOf(p.repo, p.b)]);
const quotes = heldoutSets.map((h) => ({ ...h, quotes: quotesOf(h.repos) }));
if (args.includes('--check-quotes')) {
  for (const h of quotes) console.log(`held-out set ${h.letter}: ${h.quotes.length} quoted lines found in ${h.repos.length} repositories`);
  process.exit(0);
}

const started = performance.now();
const TIERS: Tier[] = ['reported', 'shown', 'listed'];
const rank = (t: Tier) => TIERS.indexOf(t);
const found = new Map<string, Tier>(); // conflict pair id -> best tier that found it
const falseOn = new Map<string, Tier>(); // compatible pair id -> best tier that reported it
const tally = new Map<string, { right: number; wrong: number; unjudged: number }>(); // `${set}|${tier}`
const bump = (set: SetName, tier: Tier, k: 'right' | 'wrong' | 'unjudged') => {
  const t = tally.get(`${set}|${tier}`) ?? { right: 0, wrong: 0, unjudged: 0 };
  t[k]++;
  tally.set(`${set}|${tier}`, t);
};
const shownPer = new Map<string, { shown: number; listed: number }>(); // judged repository -> second looks
const listed: string[] = [];
let corpusMaxShown = 0;
let corpusMaxListed = 0;
const repos = corpusRepos().filter((r) => !skipped.has(r));
for (const repo of [...repos, ...heldoutRepos]) {
  const scan = await scanRepository(path.join(rootOf(repo), repo));
  const problems = analyze(scan, args.includes('--subject') ? FINDERS : DEFAULT_FINDERS).problems.filter((p) => p.type === 'contradiction');
  const seconds = problems.filter((p) => p.certainty === 'low');
  // The few a person is shown by rank (model/second-looks-shown.ts): pairs listed for the model only are never among them.
  const shownLooks = secondLooksByCut(problems).shown;
  if (!heldoutRepos.includes(repo)) {
    corpusMaxListed = Math.max(corpusMaxListed, seconds.length);
    corpusMaxShown = Math.max(corpusMaxShown, shownLooks.length);
  }
  const set = setOf.get(repo);
  if (!set) continue;
  shownPer.set(repo, { shown: shownLooks.length, listed: seconds.length });
  const mine = pairs.filter((p) => p.repo === repo).map((p) => ({ pair: p, a: linesOf(repo, p.a), b: linesOf(repo, p.b) }));
  for (const p of problems) {
    const tier: Tier = p.certainty !== 'low' ? 'reported' : shownLooks.includes(p) ? 'shown' : 'listed';
    const hits = mine.filter((m) => between(p, m.a, m.b));
    const right = hits.filter((m) => m.pair.label === 'conflict');
    const wrong = hits.filter((m) => m.pair.label === 'compatible');
    bump(set, tier, right.length > 0 ? 'right' : wrong.length > 0 ? 'wrong' : 'unjudged');
    for (const m of right) if (!found.has(m.pair.id) || rank(tier) < rank(found.get(m.pair.id)!)) found.set(m.pair.id, tier);
    if (right.length === 0)
      for (const m of wrong) if (!falseOn.has(m.pair.id) || rank(tier) < rank(falseOn.get(m.pair.id)!)) falseOn.set(m.pair.id, tier);
    if (set === 'build') {
      const verdict = right.length > 0 ? 'RIGHT' : wrong.length > 0 ? `WRONG (${wrong[0]!.pair.id})` : 'unjudged';
      listed.push(
        `  ${repo} [${tier}/${p.kind ?? '?'}] ${verdict}: ${p.description.slice(0, 200)} @ ${p.locations.map((l) => `${l.path}:${l.line}`).join(', ')}`,
      );
    }
  }
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
const upTo = (t: Tier | undefined, best: Tier) => t !== undefined && rank(t) <= rank(best);
function figuresOf(set: SetName) {
  const of = pairs.filter((p) => setOf.get(p.repo) === set && !skipped.has(p.repo));
  const conflicts = of.filter((p) => p.label === 'conflict');
  const negatives = of.filter((p) => p.label === 'compatible');
  const t = (tier: Tier) => tally.get(`${set}|${tier}`) ?? { right: 0, wrong: 0, unjudged: 0 };
  const classes = [...new Set(conflicts.map((p) => p.class))].sort();
  const negClasses = [...new Set(negatives.map((p) => p.class))].sort();
  const repos = [...new Set(of.map((p) => p.repo))].sort();
  const per = repos.map((r) => shownPer.get(r)!);
  return {
    repositories: repos.length,
    pairs: of.length,
    conflicts: conflicts.length,
    compatible: negatives.length,
    reported: {
      ...t('reported'),
      recall: ratio(conflicts.filter((p) => upTo(found.get(p.id), 'reported')).length, conflicts.length),
      precision: ratio(t('reported').right, t('reported').right + t('reported').wrong),
    },
    withShown: {
      ...t('shown'),
      recall: ratio(conflicts.filter((p) => upTo(found.get(p.id), 'shown')).length, conflicts.length),
    },
    withListed: {
      ...t('listed'),
      recall: ratio(conflicts.filter((p) => upTo(found.get(p.id), 'listed')).length, conflicts.length),
    },
    secondLooks: { maxShown: Math.max(0, ...per.map((x) => x.shown)), maxListed: Math.max(0, ...per.map((x) => x.listed)) },
    perClass: Object.fromEntries(
      classes.map((c) => {
        const cs = conflicts.filter((p) => p.class === c);
        return [
          c,
          {
            pairs: cs.length,
            reported: cs.filter((p) => upTo(found.get(p.id), 'reported')).length,
            shown: cs.filter((p) => upTo(found.get(p.id), 'shown')).length,
            listed: cs.filter((p) => found.has(p.id)).length,
          },
        ];
      }),
    ),
    falseReports: Object.fromEntries(
      negClasses.map((c) => {
        const ns = negatives.filter((p) => p.class === c);
        return [
          c,
          {
            pairs: ns.length,
            reported: ns.filter((p) => upTo(falseOn.get(p.id), 'reported')).length,
            shown: ns.filter((p) => upTo(falseOn.get(p.id), 'shown')).length,
          },
        ];
      }),
    ),
    missed: set === 'build' ? conflicts.filter((p) => !upTo(found.get(p.id), 'shown')).map((p) => p.id) : undefined,
  };
}
const SETS: SetName[] = [
  'build',
  'check',
  ...[...new Set(setOf.values())]
    .filter((s) => s !== 'build' && s !== 'check' && heldoutSets.every((h) => s !== `added-${h.letter}` || h.repos.length > 0))
    .sort(),
];
const figures = {
  sets: Object.fromEntries(SETS.map((s) => [s, figuresOf(s)])) as Record<SetName, ReturnType<typeof figuresOf>>,
  corpus: { repositories: repos.length, maxShown: corpusMaxShown, maxListed: corpusMaxListed },
};
const f = (n: number) => n.toFixed(2);
if (args.includes('--json')) console.log(JSON.stringify(figures, null, 2));
else {
  console.log(`\nContradictions, real judged sets (${Math.round(performance.now() - started)} ms)`);
  const title: Record<string, string> = {
    build: 'build half',
    check: 'check half (never read while building)',
    added: 'added after issue 39 started (unseen-2026-11-28, build data since its figures were reported)',
    'added-b': 'added later (unseen-2026-11-28b, 8 more repositories; build data since its figures were reported)',
    'added-c': 'from outside the corpus (unseen-2026-11-28c, build data since its figures were reported)',
    'added-d': 'from outside the corpus and set c (unseen-2026-11-29d, build data since its figures were reported)',
    'added-e': 'from outside the corpus and sets c and d (unseen-2026-11-29e, build data since its figures were reported)',
    'added-f': 'from outside the corpus and sets c, d and e (unseen-2026-11-29f, build data since its figures were reported)',
    'added-g': 'from outside the corpus and sets c, d, e and f (unseen-2026-11-29g, build data since its figures were reported)',
    'added-h': 'from outside the corpus and sets c, d, e, f and g (unseen-2026-11-29h, build data since its figures were reported)',
    'added-i': 'from outside the corpus and sets c, d, e, f, g and h (unseen-2026-11-29i, build data since its figures were reported)',
    'added-j': 'from outside the corpus and sets c to i (unseen-2026-11-29j, build data since its figures were reported)',
    'added-k': 'from outside the corpus and sets c to j (unseen-2026-11-29k, build data since its figures were reported)',
    'added-l': 'from outside the corpus and sets c to k (unseen-2026-11-29l, build data since its figures were reported)',
    'added-m': 'from outside the corpus and sets c to l (unseen-2026-11-29m, build data since its figures were reported)',
    'added-n': 'held out from outside the corpus and sets c to m (unseen-2026-11-29n, never read while building)',
    'added-o': 'held out from outside the corpus and sets c to n (unseen-2026-11-29o, never read while building)',
    'added-p': 'from outside the corpus and sets c to o (unseen-2026-11-29p, build data since its figures were reported)',
    'added-q': 'held out from outside the corpus and sets c to p (unseen-2026-11-29q, never read while building)',
  };
  for (const s of SETS) {
    const x = figures.sets[s]!;
    console.log(
      `${title[s] ?? `added later (${s})`}: ${x.repositories} repositories, ${x.pairs} pairs (${x.conflicts} conflicts, ${x.compatible} compatible)`,
    );
    console.log(
      `  reported (high/medium): recall ${f(x.reported.recall)}, precision ${f(x.reported.precision)} (right ${x.reported.right}, wrong ${x.reported.wrong}, ${x.reported.unjudged} on unjudged lines)`,
    );
    console.log(
      `  with the second look shown (at most ${SHOWN_SECOND_LOOKS} a repository): recall ${f(x.withShown.recall)} (shown right ${x.withShown.right}, wrong ${x.withShown.wrong}, unjudged ${x.withShown.unjudged}); with the full list (--json): recall ${f(x.withListed.recall)}`,
    );
    console.log(`  second looks per repository: at most ${x.secondLooks.maxShown} shown, ${x.secondLooks.maxListed} listed`);
    const shownAll = x.withShown.right + x.withShown.wrong + x.withShown.unjudged;
    console.log(
      `  second looks shown: ${shownAll} in all, ${x.withShown.right} on a judged conflict, ${x.withShown.wrong} on a judged look-alike (wrong), ${x.withShown.unjudged} on lines nobody judged`,
    );
    console.log(`  per class of conflict (reported / shown / listed / pairs):`);
    for (const [c, v] of Object.entries(x.perClass)) console.log(`    ${c}: ${v.reported} / ${v.shown} / ${v.listed} / ${v.pairs}`);
    console.log(`  compatible pairs reported, per class (reported / shown / pairs):`);
    for (const [c, v] of Object.entries(x.falseReports)) console.log(`    ${c}: ${v.reported} / ${v.shown} / ${v.pairs}`);
    if (x.missed && x.missed.length > 0) console.log(`  missed (not shown): ${x.missed.join(', ')}`);
  }
  console.log(
    `whole corpus (${figures.corpus.repositories} repositories): at most ${figures.corpus.maxShown} second looks shown in one repository, ${figures.corpus.maxListed} listed`,
  );
  if (args.includes('--list')) for (const l of listed) console.log(l);
}

// Floor (issue 39, run in .ci/run): reported precision 0.9 on both halves fails the run when missed.
const misses: string[] = [];
for (const s of ['build', 'check'] as const)
  if (figures.sets[s]!.reported.precision < 0.9)
    misses.push(`${s} half: reported precision ${f(figures.sets[s]!.reported.precision)} < 0.90`);
if (figures.corpus.maxShown > SHOWN_SECOND_LOOKS) misses.push(`a repository shows more than ${SHOWN_SECOND_LOOKS} second looks`);
const notes: string[] = [];
for (const s of SETS.filter((x) => x !== 'build')) {
  const x = figures.sets[s]!;
  if (x.reported.recall < 0.4) notes.push(`${s}: reported recall ${f(x.reported.recall)} < 0.40`);
  if (x.reported.precision < 0.9) notes.push(`${s}: reported precision ${f(x.reported.precision)} < 0.90`);
  if (x.withShown.recall < 0.75) notes.push(`${s}: recall with the second look shown ${f(x.withShown.recall)} < 0.75`);
}
if (!args.includes('--json')) {
  for (const n of notes) console.log(`target not met (not failing): ${n}`);
  for (const m of misses) console.log(`Floor not met: ${m}`);
}
process.exit(misses.length > 0 ? 1 : 0);
