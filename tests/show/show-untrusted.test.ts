import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTwoFilesPatch } from 'diff';
import { charName, hiddenIn, showJson, showLine, showPath, showText } from '../../server/src/show/untrusted.js';
import { diffStat } from '../../server/src/show/diff-lines.js';
import { colourDiff, colourFor } from '../../server/src/cli/diff-text.js';

const runs = Number(process.env.FUZZ_RUNS ?? 300);

/**
 * The spec, written apart from the code: controls (Cc), format characters (Cf: bidi, zero-width,
 * tags), line and paragraph separators, unpaired surrogates, and the characters drawn as nothing.
 */
// eslint-disable-next-line no-misleading-character-class -- U+034F is a character of its own here, not combined
const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u034F\u115F\u1160\u3164\uFFA0\u{E0100}-\u{E01EF}]/u;
const isControl = (c: string) => CONTROL.test(c);

const NASTY = [
  '\x1b[2K',
  '\x1b[G',
  '\x1b[2J\x1b[3J',
  '\x1b]8;;http://evil.example/\x07',
  '\x1b]52;c;Y3VybCB8IHNo\x07',
  '\x1b]0;title\x07',
  '\r',
  '\r\n',
  '\n',
  '\t',
  '\x00',
  '\x7f',
  '\x9b',
  '\x85',
  '\u202e',
  '\u2066',
  '\u200b',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u2028',
  '\u{e0041}',
  '\ud800',
  '\udc00',
  '\u3164',
  '\\',
  '"',
  'Create x.md',
  ' ',
];
const nastyText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...NASTY),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 20 },
  )
  .map((parts) => parts.join(''));

/** Whether `small`'s code points appear in `big` in order. */
function inOrder(small: string[], big: string): boolean {
  const chars = [...big];
  let j = 0;
  for (const c of small) {
    while (j < chars.length && chars[j] !== c) j++;
    if (j === chars.length) return false;
    j++;
  }
  return true;
}

/** Reads a quoted path back, as a JavaScript string literal would be read. */
function unquote(shown: string): string {
  assert.ok(shown.startsWith('"') && shown.endsWith('"'), shown);
  return shown.slice(1, -1).replace(/\\(x[0-9a-f]{2}|u\{[0-9a-f]+\}|u[0-9a-f]{4}|n|r|t|"|\\)/g, (_, e: string) => {
    if (e === 'n') return '\n';
    if (e === 'r') return '\r';
    if (e === 't') return '\t';
    if (e === '"' || e === '\\') return e;
    if (e.startsWith('u{')) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    return String.fromCharCode(parseInt(e.slice(1), 16));
  });
}

test('property: shown text holds no control character but newline and tab, and keeps every printable character in order', () => {
  fc.assert(
    fc.property(nastyText, (s) => {
      const out = showText(s);
      for (const c of out) assert.ok(c === '\n' || c === '\t' || !isControl(c), `${JSON.stringify(c)} left in ${JSON.stringify(out)}`);
      assert.ok(
        inOrder(
          [...s].filter((c) => !isControl(c)),
          out,
        ),
        `printable characters of ${JSON.stringify(s)} kept in order`,
      );
      assert.equal(showText(out), out, 'showing again changes nothing');
    }),
    { numRuns: runs },
  );
});

test('property: a shown line holds no control character at all, newline and tab included', () => {
  fc.assert(
    fc.property(nastyText, (s) => {
      const out = showLine(s);
      for (const c of out) assert.ok(!isControl(c), `${JSON.stringify(c)} left in ${JSON.stringify(out)}`);
      assert.ok(
        inOrder(
          [...s].filter((c) => !isControl(c)),
          out,
        ),
      );
    }),
    { numRuns: runs },
  );
});

test('property: a path is shown as it is, or quoted so that it reads back to the same name', () => {
  fc.assert(
    fc.property(nastyText, (p) => {
      const out = showPath(p);
      for (const c of out) assert.ok(!isControl(c), `${JSON.stringify(c)} left in ${JSON.stringify(out)}`);
      if (out !== p) assert.equal(unquote(out), p);
      else assert.ok(!/["\\\n]/.test(p) && p.trim() === p && p !== '');
    }),
    { numRuns: runs },
  );
});

test('property: JSON for a terminal parses to the same value', () => {
  fc.assert(
    fc.property(fc.dictionary(nastyText, fc.oneof(nastyText, fc.array(nastyText, { maxLength: 3 }))), (value) => {
      const out = showJson(value);
      for (const c of out) assert.ok(c === '\n' || !isControl(c));
      assert.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(value)));
    }),
    { numRuns: runs },
  );
});

test('the escapes are the ones a JavaScript string literal uses', () => {
  assert.equal(showText('- Run x \x1b[2K\x1b[G\n- ok\tfine'), '- Run x \\x1b[2K\\x1b[G\n- ok\tfine');
  assert.equal(showText('one\rtwo\r\nthree'), 'one\\rtwo\nthree', 'a lone CR is escaped, a CR ending a line is the line end');
  assert.equal(showText('Use p\u200bnpm \u202eabc\u{e0041} \x7f\x9b'), 'Use p\\u200bnpm \\u202eabc\\u{e0041} \\x7f\\x9b');
  assert.equal(showLine('a\nb\tc'), 'a\\nb\\tc');
  assert.equal(showPath('AGENTS.md'), 'AGENTS.md');
  assert.equal(showPath('my docs/AGENTS.md'), 'my docs/AGENTS.md');
  assert.equal(showPath('pkg\nCreate evil.md/AGENTS.md'), '"pkg\\nCreate evil.md/AGENTS.md"');
  assert.equal(showPath('say "hi"\\x'), '"say \\"hi\\"\\\\x"');
  assert.deepEqual(hiddenIn('Use p\u200bnpm\t\u202e'), ['\u200b', '\u202e']);
  assert.equal(charName('\u200b'), 'U+200B ZERO WIDTH SPACE');
  assert.equal(charName('\u202e'), 'U+202E RIGHT-TO-LEFT OVERRIDE');
  assert.equal(charName('\x01'), 'U+0001 control character');
});

const RED = '\x1b[31m';
const GREEN = '\x1b[32m';
const BOLD = '\x1b[1m';

test('a diff is coloured by the position of each line in its hunk, not by its first characters', () => {
  const before = '# Rules\n-- a/y\nkeep\n';
  const after = '# Rules\nkeep\n++ b/x\n';
  const diff = createTwoFilesPatch('a/AGENTS.md', 'b/AGENTS.md', before, after).trimEnd();
  const lines = colourDiff(diff, true).split('\n');
  const line = (text: string) => lines.find((l) => l.includes(text))!;
  assert.ok(line('+++ b/x').startsWith(GREEN), `an added rule "++ b/x" is an added line: ${JSON.stringify(line('+++ b/x'))}`);
  assert.ok(line('--- a/y').startsWith(RED), `a removed rule "-- a/y" is a removed line: ${JSON.stringify(line('--- a/y'))}`);
  assert.ok(line('--- a/AGENTS.md').startsWith(BOLD), 'the real file headers stay bold');
  assert.ok(line('+++ b/AGENTS.md').startsWith(BOLD));
  assert.deepEqual(diffStat(diff), { added: 1, removed: 1 }, 'and counted by position too');
  assert.equal(colourDiff(diff, false), diff);
});

test('colour follows FORCE_COLOR, then NO_COLOR, then whether the stream is a terminal', () => {
  assert.equal(colourFor({ isTTY: true }, {}), true);
  assert.equal(colourFor({ isTTY: false }, {}), false);
  assert.equal(colourFor({ isTTY: true }, { NO_COLOR: '1' }), false);
  assert.equal(colourFor({ isTTY: true }, { NO_COLOR: '' }), true);
  assert.equal(colourFor({ isTTY: false }, { FORCE_COLOR: '1' }), true);
  assert.equal(colourFor({ isTTY: true }, { FORCE_COLOR: '0' }), false);
});

test('every code point is shown in text, in a line and in JSON as the one-pattern rule says (text keeps newline and tab, JSON newline)', () => {
  // The rule as it was written first, one pattern for all three, with the kept characters handed back unchanged.
  const escape = (c: string) => {
    const cp = c.codePointAt(0)!;
    const short: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    if (short[c]) return short[c];
    return cp < 0x100
      ? `\\x${cp.toString(16).padStart(2, '0')}`
      : cp <= 0xffff
        ? `\\u${cp.toString(16).padStart(4, '0')}`
        : `\\u{${cp.toString(16)}}`;
  };
  const jsonUnits = (c: string) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
  // The first plane whole, the tag and variation-selector block whole, and a sample of the rest.
  const codePoints = [...Array(0x10000).keys(), ...Array.from({ length: 0x200 }, (_, i) => 0xe0000 + i)];
  for (let cp = 0x10000; cp < 0x110000; cp += 97) codePoints.push(cp);
  for (const cp of codePoints) {
    const c = String.fromCodePoint(cp);
    const hidden = isControl(c);
    const inText = `a${c}b`;
    assert.equal(showText(inText), hidden && c !== '\n' && c !== '\t' ? `a${escape(c)}b` : inText, `text U+${cp.toString(16)}`);
    assert.equal(showLine(inText), hidden ? `a${escape(c)}b` : inText, `line U+${cp.toString(16)}`);
    const json = JSON.stringify([c], null, 2);
    const expected = [...json].map((x) => (isControl(x) && x !== '\n' ? jsonUnits(x) : x)).join('');
    assert.equal(showJson([c]), expected, `JSON U+${cp.toString(16)}`);
  }
});
