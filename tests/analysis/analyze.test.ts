import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, FINDERS, type Finder } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { TYPED_KINDS } from '../../server/src/model/findings.js';
import { sandbox } from '../helpers/sandbox.js';

test('every kind of problem has exactly one finder, and every finder a name of its own', () => {
  const names = FINDERS.map((f) => f.name);
  assert.equal(new Set(names).size, names.length, names.join(', '));
  const claimed = FINDERS.flatMap((f) => f.kinds);
  assert.deepEqual([...claimed].sort(), [...TYPED_KINDS].sort(), 'each kind of the findings table, once');
});

/** A repository that trips many finders: repeats, a contradiction, hidden characters, a missing path. */
const MANY = {
  'package.json': '{}\n',
  'src/index.ts': 'export {};\n',
  'AGENTS.md': [
    '# Agents',
    '',
    '- Use pnpm to install dependencies.',
    '- Always run the full test suite before pushing any change.',
    '- Keep p\u200bull requests small.',
    '- The entry point is `src/main.ts`.',
    '',
  ].join('\n'),
  'CLAUDE.md': [
    '# Claude',
    '',
    '- Use npm to install dependencies.',
    '- Always run the full test suite before pushing any change.',
    '',
  ].join('\n'),
};

test('each finder reports only the kinds it names, and the problems come in the order of the list', async (t) => {
  const scan = await scanRepository(sandbox(t, MANY));
  const all = analyze(scan);
  const kindsSeen = new Set(all.problems.map((p) => `${p.type}/${p.kind}`));
  for (const k of ['duplication/exact', 'contradiction/tool-choice', 'ambiguity/hidden-character', 'ambiguity/missing-path'])
    assert.ok(kindsSeen.has(k), `${k} in ${[...kindsSeen].join(', ')}`);
  const finderOf = (k: string) => FINDERS.findIndex((f) => (f.kinds as readonly string[]).includes(k));
  const order = all.problems.map((p) => finderOf(`${p.type}/${p.kind}`));
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
    'listed finder by finder',
  );
  for (const finder of FINDERS) {
    const alone = analyze(scan, [finder]);
    for (const p of alone.problems)
      assert.ok((finder.kinds as readonly string[]).includes(`${p.type}/${p.kind}`), `${finder.name}: ${p.kind}`);
  }
});

test('analyze runs the finders it is given, and gives each problem the certainty of its kind', async (t) => {
  const scan = await scanRepository(sandbox(t, MANY));
  assert.deepEqual(analyze(scan, []).problems, []);
  const fixed: Finder = {
    name: 'fixed',
    kinds: ['ambiguity/missing-path'],
    find: () => [
      { type: 'ambiguity', kind: 'missing-path', description: 'one', locations: [{ path: 'AGENTS.md', line: 1 }] },
      { type: 'ambiguity', kind: 'missing-path', description: 'the same lines again', locations: [{ path: 'AGENTS.md', line: 1 }] },
    ],
  };
  const only = analyze(scan, [fixed]);
  assert.deepEqual(
    only.problems.map((p) => [p.description, p.certainty]),
    [['one', 'low']],
    'two findings on the same lines are one; the certainty is the row’s',
  );
});
