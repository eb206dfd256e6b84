import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normalizeLine, normalizedText, type Unit } from '../../server/src/model/model.js';
import { proseLines } from '../../server/src/analysis/claims.js';
import { isLabel, stripMarker } from '../../server/src/analysis/trivial.js';
import { hiddenIn, isHidden } from '../../server/src/show/untrusted.js';

/** Issue 13: the per-line passes take shortcuts for the common case; each answers what the long way does. */

/** Text with every kind of whitespace `\s` knows, runs of it, and letters. */
const spacey = fc
  .array(
    fc.constantFrom(
      'a',
      'b',
      ' ',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\u00a0',
      '\u2003',
      '\u3000',
      '\ufeff',
      '\u200b',
      'é',
      '-',
      '`',
    ),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.join(''));

test('normalizeLine answers what trimming and collapsing whitespace does, whatever the whitespace', () => {
  fc.assert(
    fc.property(spacey, (line) => assert.equal(normalizeLine(line), line.trim().replace(/\s+/g, ' '))),
    { numRuns: 5000 },
  );
  for (const line of ['', ' ', 'a b', ' a', 'a ', 'a  b', 'a\tb', 'a\u00a0b', '\ufeffa', 'a\u2028b'])
    assert.equal(normalizeLine(line), line.trim().replace(/\s+/g, ' '), JSON.stringify(line));
});

test('normalizedText of a one-line unit is that line normalized, as for longer units', () => {
  const unit = (lines: string[]): Unit => ({ kind: 'paragraph', path: 'a.md', line: 1, lines, blankBefore: false });
  const reference = (lines: string[]) =>
    lines
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .filter((l) => l !== '')
      .join('\n');
  fc.assert(
    fc.property(fc.array(spacey, { minLength: 1, maxLength: 3 }), (lines) => assert.equal(normalizedText(unit(lines)), reference(lines))),
    { numRuns: 2000 },
  );
});

test('a one-line unit is prose unless the line opens a code fence', () => {
  const unit = (line: string): Unit => ({ kind: 'list-item', path: 'a.md', line: 3, lines: [line], blankBefore: false });
  for (const fence of ['```', '```ts', '  ~~~', '````']) assert.deepEqual(proseLines(unit(fence)), [], fence);
  for (const line of ['- Use pnpm', '`` not a fence', 'text ``` later', '']) assert.deepEqual(proseLines(unit(line)), [0], line);
  // As in a longer unit: the line before the fence is prose, the fence and what follows it are not.
  assert.deepEqual(proseLines({ ...unit('- Use pnpm'), lines: ['- Use pnpm', '```', 'npm i', '```', 'after'] }), [0, 4]);
});

test('hiddenIn finds the hidden characters of a line, each once, tabs aside', () => {
  const chars = fc.constantFrom('a', ' ', '\t', '\u200b', '\u202e', '\x1b', '\x7f', '\u00ad', 'é', '\ud800', '\u{e0041}', '\u3164');
  const reference = (line: string) => [...new Set([...line].filter((c) => c !== '\t' && isHidden(c)))];
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 10 }), (parts) => assert.deepEqual(hiddenIn(parts.join('')), reference(parts.join('')))),
    { numRuns: 3000 },
  );
});

test('isLabel answers as before its words were counted last', () => {
  const reference = (text: string): boolean => {
    if (text.startsWith('|') && text.replace(/[|:-]/g, ' ').trim().split(/\s+/).length <= 6) return true;
    const bare = stripMarker(text).replace(/[*_`]/g, '').trim();
    const words = bare.split(/\s+/).length;
    return !text.includes('\n') && words <= 6 && (bare.endsWith(':') || /^(\*\*|__)[^*_]+(\*\*|__)$/.test(stripMarker(text)));
  };
  const parts = fc.constantFrom('- ', '1. ', '**', '__', '`', 'word', 'Example', ' ', ':', '|', '\n', 'x y z', '-');
  fc.assert(
    fc.property(fc.array(parts, { maxLength: 12 }), (p) =>
      assert.equal(isLabel(p.join('')), reference(p.join('')), JSON.stringify(p.join(''))),
    ),
    { numRuns: 5000 },
  );
});
