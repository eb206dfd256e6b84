import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { literalPrefix, meetingMembers, scopesOverlap } from '../../server/src/analysis/scope/scope-overlap.js';
import { pairsTogether, similarCandidates } from '../../server/src/analysis/repeats/similar-lines.js';
import { sameShare, SAME_SHARE } from '../../server/src/analysis/repeats/copies.js';
import type { Scope } from '../../server/src/model/model.js';

/** Issue 18: analysis compares through indexes, and the indexes find exactly what every pair would. */

const segment = fc.constantFrom('src', 'lib', 'api', 'a', 'b', 'test', 'x.y', '', '.', 'src/api', 'web/ui');
const wild = fc.constantFrom(
  '**',
  '*',
  '*.ts',
  '**/*.ts',
  '*.{ts,tsx}',
  '**/*.py',
  '*.md',
  '{a,b}',
  'file.ts',
  'x?',
  '[ab]',
  '*.rs',
  '*.TSX',
);
const glob = fc
  .tuple(fc.array(segment, { maxLength: 3 }), fc.option(wild, { nil: undefined }))
  .map(([segs, tail]) => [...segs, ...(tail ? [tail] : [])].join('/'));
const scope: fc.Arbitrary<Scope> = fc.oneof(
  { weight: 8, arbitrary: fc.array(glob, { minLength: 1, maxLength: 3 }).map((globs): Scope => ({ kind: 'globs', globs })) },
  { weight: 1, arbitrary: fc.constant<Scope>({ kind: 'repo' }) },
);
const member = fc.record({ path: fc.constantFrom('a.mdc', 'b.mdc', 'c.mdc', 'd.mdc', 'e.mdc', 'f.mdc', 'g.mdc', 'h.mdc', 'i.mdc'), scope });

const pairwise = (group: { path: string; scope: Scope }[]): boolean[] =>
  group.map((x, i) => group.some((y, j) => j !== i && (x.path === y.path || scopesOverlap(x.scope, y.scope))));

test('the scope index says which members meet another, exactly as comparing every pair does', () => {
  fc.assert(
    fc.property(fc.array(member, { maxLength: 30 }), (group) => {
      assert.deepEqual(meetingMembers(group), pairwise(group));
    }),
    { numRuns: 2000 },
  );
});

test('the scope index on globs by folder and extension: nested folders meet, sibling folders and other languages do not', () => {
  const g = (path: string, ...globs: string[]) => ({ path, scope: { kind: 'globs', globs } as Scope });
  assert.deepEqual(meetingMembers([g('a', 'src/api/**/*.ts'), g('b', 'src/**'), g('c', 'docs/**/*.md')]), [true, true, false]);
  assert.deepEqual(meetingMembers([g('a', 'src/**/*.py'), g('b', 'src/**/*.ts'), g('c', 'lib/**')]), [false, false, false]);
  assert.deepEqual(meetingMembers([g('a', 'src/**/*.py'), g('b', '**/*.py'), g('c', 'lib/**/*.go')]), [true, true, false]);
  assert.deepEqual(meetingMembers([g('a', 'src/**'), { path: 'b', scope: { kind: 'repo' } }]), [true, true]);
  assert.deepEqual(meetingMembers([g('a', 'src/**'), g('a', 'lib/**')]), [true, true]);
});

// Every pair of 20,000 members is 200 million comparisons (minutes); the index takes about a second on a busy machine.
test('the scope index stays fast: 20,000 members in separate folders', () => {
  const group = Array.from({ length: 20_000 }, (_, i) => ({
    path: `r${i}.mdc`,
    scope: { kind: 'globs', globs: [`src/m${i}/**/*.ts`, `test/m${i}/**`] } as Scope,
  }));
  const t0 = performance.now();
  const meets = meetingMembers(group);
  assert.ok(performance.now() - t0 < 20_000, `took ${performance.now() - t0} ms`);
  assert.equal(meets.filter(Boolean).length, 0);
});

const line = fc.constantFrom('- a', '- b', '- c', '- d', '- e', '- f', '- g', '- h', 'x', 'y');

test('the copy index offers every pair of files that share 90% of their lines (and the pairs it offers are distinct)', () => {
  fc.assert(
    fc.property(fc.array(fc.array(line, { minLength: 0, maxLength: 24 }), { maxLength: 14 }), (lists) => {
      const offered = similarCandidates(lists, SAME_SHARE);
      const keys = offered.map(([i, j]) => `${i},${j}`);
      assert.equal(new Set(keys).size, keys.length);
      for (const [i, j] of offered) assert.ok(i < j);
      for (let i = 0; i < lists.length; i++) {
        for (let j = i + 1; j < lists.length; j++) {
          if (sameShare(lists[i]!, lists[j]!) >= SAME_SHARE) assert.ok(keys.includes(`${i},${j}`), `missed ${i},${j}`);
        }
      }
    }),
    { numRuns: 2000 },
  );
});

test('the copy index offers few pairs when files are different: 20,000 files of distinct lines', () => {
  const lists = Array.from({ length: 20_000 }, (_, i) => [
    '---',
    'alwaysApply: false',
    '---',
    ...Array.from({ length: 12 }, (_, j) => `- rule ${j} of ${i}`),
  ]);
  const t0 = performance.now();
  const offered = similarCandidates(lists, SAME_SHARE);
  assert.ok(performance.now() - t0 < 20_000, `took ${performance.now() - t0} ms`);
  assert.equal(offered.length, 0);
});

/** Every pair of every group, group by group: what collapseCopies did before the index. */
function everyPair(groups: string[][], min: number): { a: string; b: string; groups: number[] }[] {
  const pairs = new Map<string, number[]>();
  groups.forEach((g, k) => {
    for (let i = 0; i < g.length; i++)
      for (let j = i + 1; j < g.length; j++) pairs.set(`${g[i]}\0${g[j]}`, [...(pairs.get(`${g[i]}\0${g[j]}`) ?? []), k]);
  });
  return [...pairs]
    .filter(([, ks]) => ks.length >= min)
    .map(([key, ks]) => ({ a: key.split('\0')[0]!, b: key.split('\0')[1]!, groups: ks }));
}

test('the pair index finds the pairs of files in at least 4 reports, with their reports, in the order every pair would', () => {
  const name = fc.constantFrom('AGENTS.md', 'CLAUDE.md', 'a.mdc', 'b.mdc', 'B.mdc', 'c/AGENTS.md', '.cursorrules', 'd.md');
  const groups = fc.array(
    fc.uniqueArray(name, { maxLength: 6 }).map((g) => [...g].sort()),
    { maxLength: 24 },
  );
  fc.assert(
    fc.property(groups, fc.integer({ min: 1, max: 5 }), (gs, min) => {
      assert.deepEqual(pairsTogether(gs, min), everyPair(gs, min));
    }),
    { numRuns: 2000 },
  );
});

test('a line repeated in each of 20,000 files is not 200 million pairs', () => {
  const files = Array.from({ length: 20_000 }, (_, i) => `r${i}.mdc`).sort();
  const t0 = performance.now();
  assert.deepEqual(pairsTogether([files, files, files], 4), []);
  assert.ok(performance.now() - t0 < 20_000, `took ${performance.now() - t0} ms`);
});

/** How literalPrefix read a glob before it searched for the first wildcard (issue 38): segment by segment. */
function literalPrefixBySegments(g: string): string {
  const parts: string[] = [];
  for (const seg of g.split('/')) {
    if (/[*?[{]/.test(seg)) break;
    parts.push(seg);
  }
  if (parts.length > 0 && parts.length === g.split('/').length && /\./.test(parts[parts.length - 1]!)) parts.pop();
  return parts.join('/');
}

test('the literal folder of a glob is the one its segments give', () => {
  for (const g of [
    'src/api/**/*.ts',
    'docs/readme.md',
    'README.md',
    '/src/*.ts',
    './src/**',
    'a.b/*',
    'src/v1.2/',
    '**',
    'src/a*b/x',
    'docs',
  ])
    assert.equal(literalPrefix(g), literalPrefixBySegments(g), g);
  fc.assert(
    fc.property(glob, (g) => literalPrefix(g) === literalPrefixBySegments(g)),
    { numRuns: 2000 },
  );
});
