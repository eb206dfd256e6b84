import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readFrontMatter } from '../../server/src/model/frontmatter.js';
import { splitBody, splitUnits } from '../../server/src/model/markdown-units.js';
import { referenceSplitUnits } from '../helpers/split-units-reference.js';

const LINES = [
  '---',
  'description: x',
  'globs: a/**',
  '...',
  '',
  '# Title',
  '## Sub',
  '- item',
  '  nested',
  '1. one',
  'text',
  '```',
  'code',
  '~~~',
  '<!-- c -->',
  '<!--',
  '-->',
  '<div>',
  '   ',
];

test('the body after the front matter splits as splitUnits splits it, without the front matter unit', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 30 }), (lines) => {
      const all = splitUnits('a.md', lines);
      const fm = readFrontMatter(lines);
      const from = fm?.lineCount ?? 0;
      assert.deepEqual(splitBody('a.md', lines, from), fm ? all.slice(1) : all);
      if (fm) assert.equal(all[0]!.kind, 'frontmatter');
    }),
    { numRuns: 2000 },
  );
});

test('a heading unit keeps its level, and other units have none', () => {
  const units = splitUnits('a.md', ['## Two', 'text']);
  assert.deepEqual(units, [
    { kind: 'heading', path: 'a.md', line: 1, lines: ['## Two'], blankBefore: false, level: 2 },
    { kind: 'paragraph', path: 'a.md', line: 2, lines: ['text'], blankBefore: false },
  ]);
  assert.equal('level' in units[1]!, false);
});

test('front matter read again from the same lines, changed in between, is read anew', () => {
  const lines = ['---', 'description: one', '---', 'text'];
  assert.equal(readFrontMatter(lines)?.data.description, 'one');
  lines[1] = 'description: two';
  assert.equal(readFrontMatter(lines)?.data.description, 'two');
  lines.splice(2, 0, 'globs: x');
  assert.deepEqual(readFrontMatter(lines)?.data, { description: 'two', globs: 'x' });
  assert.equal(readFrontMatter(lines)?.lineCount, 4);
});

test('the splitter cuts any lines into the units the splitter before its shortcuts cut them into', () => {
  const line = fc.oneof(
    fc.constantFrom(
      ...LINES,
      '-',
      '- ',
      '-x',
      '- [ ] task',
      '--',
      '***',
      '+ plus',
      '* star',
      '2) two',
      'Text',
      'a',
      'Z:',
      '\tTab',
      ' #x',
      '<!-- open',
    ),
    fc
      .array(
        fc.constantFrom('a', 'Z', '-', ' ', '\t', '#', '`', '~', '<', '!', '1', '.', ')', '*', '+', '>', '\u00a0', '\ufeff', 'é', '-->'),
        {
          maxLength: 6,
        },
      )
      .map((p) => p.join('')),
  );
  fc.assert(
    fc.property(fc.array(line, { maxLength: 25 }), (lines) => {
      assert.deepEqual(splitUnits('a.md', lines), referenceSplitUnits('a.md', lines));
    }),
    { numRuns: 5000 },
  );
});
