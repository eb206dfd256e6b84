import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Problem } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { rankCandidates, type Candidate, type RankModel } from '../../server/src/analysis/contradictions/second-look/rank.js';
import { FEATURES, placeInRepository } from '../../server/src/analysis/contradictions/second-look/rank-features.js';
import type { RuleLine } from '../../server/src/analysis/contradictions/second-look/rule-lines.js';
import { secondLooksByCut, shownProblems } from '../../server/src/model/second-looks-shown.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Issue 39: the list the client's model reads, ranked by a model fitted on the judged build data
 * (rank.ts), with alike lines of two files nothing marks. A person is shown what the finder marked,
 * in its order; the alike lines are listed for the client's model only. Every name here is made up.
 */

async function contradictions(t: TestContext, files: Record<string, string>): Promise<Problem[]> {
  return analyze(await scanRepository(sandbox(t, files))).problems.filter((p) => p.type === 'contradiction');
}
const at = (p: Problem) => p.locations.map((l) => `${l.path}:${l.line}`);

const STATE = {
  'AGENTS.md': '# Agents\n\n## State\n\n- **Quokka** for global state, hooks for local\n- Keep stores small.\n',
  'CLAUDE.md': '# Claude\n\n## State\n\n- **Quokka** for global state where it exists, hooks for local\n- Name stores after their data.\n',
};

test("two alike lines of two files nothing marks are listed for the client's model only: kind alike, never among what a person is shown", async (t) => {
  const found = await contradictions(t, STATE);
  assert.deepEqual(at(found[0]!), ['AGENTS.md:5', 'CLAUDE.md:5'], 'the likeliest first');
  for (const p of found)
    assert.deepEqual(
      [p.type === 'contradiction' && p.kind, p.certainty, p.type === 'contradiction' && p.listedOnly],
      ['alike', 'low', true],
    );
  const { shown, notShown } = shownProblems(found);
  assert.deepEqual([shown, notShown], [[], found.length]);
});

test('alike lines in one file, in files whose scopes never meet, or said word for word are not listed', async (t) => {
  const oneFile = { 'AGENTS.md': `${STATE['AGENTS.md']}\n## More\n\n- **Quokka** for global state where it exists, hooks for local\n` };
  assert.deepEqual((await contradictions(t, oneFile)).map(at), []);
  const apart = {
    '.github/instructions/web.instructions.md': '---\napplyTo: "web/**"\n---\n- **Quokka** for global state, hooks for local\n',
    '.github/instructions/api.instructions.md':
      '---\napplyTo: "api/**"\n---\n- **Quokka** for global state where it exists, hooks for local\n',
  };
  assert.deepEqual((await contradictions(t, apart)).map(at), []);
  const same = { 'AGENTS.md': STATE['AGENTS.md'], 'CLAUDE.md': STATE['AGENTS.md'].replace('# Agents', '# Claude') };
  assert.deepEqual(
    (await contradictions(t, same)).filter((p) => p.type === 'contradiction' && p.kind === 'alike'),
    [],
  );
});

const line = (path: string, n: number): RuleLine => ({
  path,
  line: n,
  text: `line ${n} of ${path}`,
  unit: `${path}:${n}`,
  section: '',
  code: false,
  wrong: false,
  item: true,
  scope: { kind: 'repo' },
});
/** A model that reads the first feature only: a candidate's score is its first feature. */
const FIRST: RankModel = {
  mean: FEATURES.map(() => 0),
  scale: FEATURES.map(() => 1),
  weights: FEATURES.map((_, i) => (i === 0 ? 1 : 0)),
  bias: 0,
};
const candidate = (a: RuleLine, b: RuleLine, mark: 'values' | 'alike', score: number): Candidate => ({
  look: { a, b, score: 0, subject: 'x', mark },
  features: FEATURES.map((_, i) => (i === 0 ? score : 0)),
});
const keyOf = (l: { a: RuleLine; b: RuleLine }) => `${l.a.path}:${l.a.line}-${l.b.path}:${l.b.line}`;

test("the places a person sees keep the finder's order; past them the ranking orders every pair, a line in at most two", () => {
  const [a, b] = ['AGENTS.md', 'CLAUDE.md'];
  const marked = [
    candidate(line(a, 1), line(b, 1), 'values', 0.1),
    candidate(line(a, 2), line(b, 2), 'values', 0.9),
    candidate(line(a, 3), line(b, 3), 'values', 0.2),
  ];
  const alike = [
    candidate(line(a, 4), line(b, 4), 'alike', 0.5),
    candidate(line(a, 5), line(b, 5), 'alike', -0.5),
    // Line a:4 is in a pair already; two more pairs would put it in three.
    candidate(line(a, 4), line(b, 6), 'alike', 0.4),
    candidate(line(a, 4), line(b, 7), 'alike', 0.3),
  ];
  const list = rankCandidates([...marked, ...alike], 40, 2, FIRST);
  assert.deepEqual(list.map(keyOf), [
    'AGENTS.md:1-CLAUDE.md:1',
    'AGENTS.md:2-CLAUDE.md:2',
    'AGENTS.md:4-CLAUDE.md:4',
    'AGENTS.md:4-CLAUDE.md:6',
    'AGENTS.md:3-CLAUDE.md:3',
    'AGENTS.md:5-CLAUDE.md:5',
  ]);
  assert.deepEqual(rankCandidates([...marked, ...alike], 3, 2, FIRST).map(keyOf), list.slice(0, 3).map(keyOf), 'at most the limit');
});

test('a person is shown the first 8 second looks that are not listed only; the rest are below the cut, in rank order', () => {
  const look = (n: number, listedOnly = false) => ({
    type: 'contradiction' as const,
    certainty: 'low' as const,
    n,
    ...(listedOnly ? { listedOnly } : {}),
  });
  const problems = [
    { type: 'contradiction' as const, certainty: 'high' as const, n: 0 },
    look(1),
    look(2, true),
    ...Array.from({ length: 8 }, (_, i) => look(i + 3)),
  ];
  const { shown, below } = secondLooksByCut(problems);
  assert.deepEqual(
    shown.map((p) => p.n),
    [1, 3, 4, 5, 6, 7, 8, 9],
  );
  assert.deepEqual(
    below.map((p) => p.n),
    [2, 10],
  );
  assert.deepEqual(
    shownProblems(problems).shown.map((p) => p.n),
    [0, 1, 3, 4, 5, 6, 7, 8, 9],
  );
});

test("a pair's shared words are also read by their place among the repository's pairs: least rare 0, rarest 1, ties alike", () => {
  const row = (rarest: number, rareShared: number) => {
    const r = FEATURES.map(() => 0);
    r[FEATURES.indexOf('rarest')] = rarest;
    r[FEATURES.indexOf('rareShared')] = rareShared;
    return r;
  };
  const rows = [row(0.9, 1), row(0.2, 3), row(0.5, 1), row(0.2, 0)];
  placeInRepository(rows);
  const place = (name: (typeof FEATURES)[number]) => rows.map((r) => Number(r[FEATURES.indexOf(name)]!.toFixed(3)));
  assert.deepEqual(place('rarestInRepository'), [1, 0, 0.667, 0]);
  assert.deepEqual(place('rareSharedInRepository'), [0.333, 1, 0.333, 0]);
  const alone = [row(0.4, 2)];
  placeInRepository(alone);
  assert.equal(alone[0]![FEATURES.indexOf('rarestInRepository')], 1, 'a pair alone is the first of its repository');
});
