import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTwoFilesPatch } from 'diff';
import { charName, hiddenIn, showJson, showLine, showPath, showText } from '../../server/src/show/untrusted.js';
import { diffStat } from '../../server/src/show/diff-lines.js';
import { colourDiff, colourFor } from '../../server/src/show/diff-text.js';

const runs = Number(process.env.FUZZ_RUNS ?? 300);

/**
 * The spec, written apart from the code. Escaped wherever they stand: controls (Cc), format
 * characters (Cf: bidi, zero-width, tags), unpaired surrogates (Cs), private-use (Co) and unassigned
 * (Cn) code points, line and paragraph separators, every default-ignorable code point, and the
 * characters drawn blank; but the variation selectors, which are combining marks. A combining mark
 * (M) is escaped when nothing is before it to combine with: the start of the text, a space (a newline
 * and a tab too), a quote, a backslash, or an escaped character.
 */
// The Hangul fillers are characters of their own here, not combined.
const ALWAYS =
  // eslint-disable-next-line no-misleading-character-class
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800\u3164\u115F\u1160\uFFA0\u{1D159}\u{16FE4}]/u;
const VARIATION_SELECTORS = /[\uFE00-\uFE0F\u180B-\u180D\u180F]/u;
const MARK = /\p{M}/u;
const NO_BASE = /[\s"'`\\]/u;
/** Escaped wherever it stands (newline and tab included: text keeps them). */
const isControl = (c: string) => ALWAYS.test(c) && !VARIATION_SELECTORS.test(c);

/** The escape of one code point as a JavaScript string literal writes it. */
function jsEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  const short: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  if (short[c]) return short[c];
  return cp < 0x100
    ? `\\x${cp.toString(16).padStart(2, '0')}`
    : cp <= 0xffff
      ? `\\u${cp.toString(16).padStart(4, '0')}`
      : `\\u{${cp.toString(16)}}`;
}

/** The spec as a model, one code point at a time: which code points of `s` are escaped, keeping `keep` (newline and tab in text). */
function escapedBySpec(s: string, keep: string): boolean[] {
  const out: boolean[] = [];
  let nothingBefore = true;
  for (const c of s) {
    const escaped: boolean = (isControl(c) && !keep.includes(c)) || (MARK.test(c) && nothingBefore);
    out.push(escaped);
    nothingBefore = escaped || NO_BASE.test(c);
  }
  return out;
}

/** What the spec shows for `s`, and the code points it keeps as they are. */
function bySpec(s: string, keep: string): { shown: string; kept: string[] } {
  const chars = [...s];
  const escaped = escapedBySpec(s, keep);
  return { shown: chars.map((c, i) => (escaped[i] ? jsEscape(c) : c)).join(''), kept: chars.filter((_, i) => !escaped[i]) };
}

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
  '\u2065',
  '\u2800',
  '\u0338',
  '\u0301',
  '\ufe0f',
  '\u20e3',
  '\u{1f44d}',
  '\ue000',
  '\u{f0000}',
  '\u115f',
  '\u{e0100}',
  'e',
  "'",
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
      const spec = bySpec(s.replace(/\r\n/g, '\n'), '\n\t');
      assert.equal(out, spec.shown, `shown as the spec says: ${JSON.stringify(s)}`);
      assert.ok(inOrder(spec.kept, out), `printable characters of ${JSON.stringify(s)} kept in order`);
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
      const spec = bySpec(s, '');
      assert.equal(out, spec.shown, `shown as the spec says: ${JSON.stringify(s)}`);
      assert.ok(inOrder(spec.kept, out));
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
      else assert.ok(!/["\\\n]/.test(p) && p.trim() === p && p !== '' && bySpec(p, '').shown === p);
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

/** Every general category of Unicode, as this Node's regular expressions know it. */
const CATEGORIES = 'Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So Zs Zl Zp Cc Cf Cs Co Cn'.split(' ');

/** Each category's code points, as ranges, from `\p{gc=…}`: built once, by walking every code point (some 70 ms). */
const categoryRanges = (() => {
  let table: Map<string, [number, number][]> | undefined;
  return () => {
    if (table) return table;
    const patterns = CATEGORIES.map((c) => new RegExp(`^\\p{gc=${c}}$`, 'u'));
    const built = new Map(CATEGORIES.map((c) => [c, [] as [number, number][]]));
    let last = -1;
    for (let cp = 0; cp < 0x110000; cp++) {
      const c = String.fromCodePoint(cp);
      const k = last >= 0 && patterns[last]!.test(c) ? last : patterns.findIndex((re) => re.test(c));
      const ranges = built.get(CATEGORIES[k]!)!;
      const open = ranges[ranges.length - 1];
      if (k === last && open && open[1] === cp - 1) open[1] = cp;
      else ranges.push([cp, cp]);
      last = k;
    }
    table = built;
    return built;
  };
})();

/** A category, then a code point of it (every one as likely as another within its category). */
const anyCategoryCodePoint = fc.constantFrom(...CATEGORIES).chain((category) => {
  const ranges = categoryRanges().get(category)!;
  const size = ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
  return fc.integer({ min: 0, max: size - 1 }).map((k) => {
    for (const [a, b] of ranges) {
      if (k <= b - a) return String.fromCodePoint(a + k);
      k -= b - a + 1;
    }
    throw new Error('out of range');
  });
});
/** Text from every category, with what a mark may or may not combine with: letters, an emoji, spaces, quotes. */
const categoryText = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: anyCategoryCodePoint },
      fc.constantFrom('e', 'a', '\u{1f44d}', ' ', '\n', '\t', '"', "'", '`', '\\', '\r\n'),
    ),
    {
      maxLength: 16,
    },
  )
  .map((parts) => parts.join(''));

test('property: over every general category, shown text holds no Cc but newline and tab, no Cf, Cs, Co, Cn, Zl, Zp, default-ignorable or blank character, no mark without a base, and keeps every other character in order', () => {
  const forbidden = (c: string, keep: string) => isControl(c) && !keep.includes(c);
  fc.assert(
    fc.property(categoryText, (s) => {
      for (const [show, keep, input] of [
        [showText, '\n\t', s.replace(/\r\n/g, '\n')],
        [showLine, '', s],
      ] as const) {
        const out = show(s);
        for (const c of out) assert.ok(!forbidden(c, keep), `${show.name}: ${JSON.stringify(c)} left in ${JSON.stringify(out)}`);
        const spec = bySpec(input, keep);
        assert.equal(out, spec.shown, `${show.name} of ${JSON.stringify(s)}`);
        assert.ok(inOrder(spec.kept, out), `${show.name}: every other character of ${JSON.stringify(s)} kept in order`);
        // No combining mark is kept without a base: each kept mark follows a kept character that is not a space, a quote or a backslash.
        const chars = [...input];
        const escaped = escapedBySpec(input, keep);
        chars.forEach((c, i) => {
          if (!MARK.test(c) || escaped[i]) return;
          let j = i - 1;
          while (j >= 0 && MARK.test(chars[j]!) && !escaped[j]) j--;
          assert.ok(
            j >= 0 && !escaped[j] && !NO_BASE.test(chars[j]!),
            `${show.name}: U+${c.codePointAt(0)!.toString(16)} kept without a base in ${JSON.stringify(s)}`,
          );
        });
      }
      const path = showPath(s);
      if (path !== s) assert.equal(unquote(path), s);
      const json = showJson({ [s]: [s] });
      for (const c of json) assert.ok(!forbidden(c, '\n'), `showJson: ${JSON.stringify(c)} left in ${JSON.stringify(json)}`);
      assert.deepEqual(JSON.parse(json), { [s]: [s] });
    }),
    { numRuns: runs },
  );
});

test('U+2065, U+2800, the Hangul fillers, private-use characters and a combining mark with nothing before it are escaped; accents, emoji and keycaps are kept', () => {
  assert.equal(showLine('Use p\u2065npm'), 'Use p\\u2065npm', 'unassigned, drawn as nothing');
  assert.equal(showLine('\u2800Use pnpm'), '\\u2800Use pnpm', 'braille blank');
  assert.equal(showLine('a\u115f\u1160\u3164\uffa0b'), 'a\\u115f\\u1160\\u3164\\uffa0b', 'Hangul fillers');
  assert.equal(showLine('\ue000 \u{f0000}'), '\\ue000 \\u{f0000}', 'private use: drawn as the font decides');
  assert.equal(showPath('\u0338AGENTS.md'), '"\\u0338AGENTS.md"', 'a name starting with a mark is quoted, the mark escaped');
  assert.equal(showLine('use "\u0338pnpm" and \u0338yarn'), 'use "\\u0338pnpm" and \\u0338yarn', 'after a quote or a space');
  assert.equal(showText('one\n\u0301\u0302two'), 'one\n\\u0301\\u0302two', 'at the start of a line, with the marks after it');
  assert.equal(showLine('p\u200b\u0301npm'), 'p\\u200b\\u0301npm', 'after an escaped character it would join the escape');
  assert.equal(showLine('\ufe0f'), '\\ufe0f', 'a variation selector with nothing before it');
  for (const kept of [
    'caf\u00e9',
    'cafe\u0301',
    'e\u0301\u0302',
    '\u{1f44d}\ufe0f',
    '\u{1f44d}\u{1f3fd}',
    '#\ufe0f\u20e3',
    '\u{1f1eb}\u{1f1f7}',
    '\u0928\u092e\u0938\u094d\u0924\u0947',
    '\u2764\ufe0e',
  ])
    assert.equal(showLine(kept), kept, JSON.stringify(kept));
  assert.equal(showJson(['a\n\u0301', '\u0301']), '[\n  "a\\n\\u0301",\n  "\\u0301"\n]', "after JSON's own escape or its quote");
  assert.deepEqual(hiddenIn('- \u0338pnpm \u2800'), ['\u0338', '\u2800']);
  assert.deepEqual(hiddenIn('- caf\u00e9 cafe\u0301 \u{1f44d}\ufe0f'), []);
  assert.equal(charName('\u0338'), 'U+0338 combining mark with nothing to combine with (joins what is before it)');
  assert.equal(charName('\u2800'), 'U+2800 blank-looking character');
  assert.equal(charName('\u2065'), 'U+2065 unassigned code point');
  assert.equal(charName('\ue000'), 'U+E000 private-use character (drawn as the font decides)');
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

test('every code point is shown in text, in a line and in JSON as the spec says (text keeps newline and tab, JSON newline), after a letter and with nothing before it', () => {
  const jsonUnits = (c: string) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
  // The first plane whole, the tag and variation-selector block whole, and a sample of the rest.
  const codePoints = [...Array(0x10000).keys(), ...Array.from({ length: 0x200 }, (_, i) => 0xe0000 + i)];
  for (let cp = 0x10000; cp < 0x110000; cp += 97) codePoints.push(cp);
  for (const cp of codePoints) {
    const c = String.fromCodePoint(cp);
    const hidden = isControl(c);
    const inText = `a${c}b`;
    assert.equal(showText(inText), hidden && c !== '\n' && c !== '\t' ? `a${jsEscape(c)}b` : inText, `text U+${cp.toString(16)}`);
    assert.equal(showLine(inText), hidden ? `a${jsEscape(c)}b` : inText, `line U+${cp.toString(16)}`);
    // With nothing before it, a combining mark is escaped too: at the start, after a space, after a quote.
    const alone = hidden || MARK.test(c) ? jsEscape(c) : c;
    assert.equal(showLine(c), alone, `line U+${cp.toString(16)} alone`);
    assert.equal(showLine(` ${c}`), ` ${alone}`, `line U+${cp.toString(16)} after a space`);
    const json = JSON.stringify([c], null, 2);
    const escaped = escapedBySpec(json, '\n');
    assert.equal(showJson([c]), [...json].map((x, i) => (escaped[i] ? jsonUnits(x) : x)).join(''), `JSON U+${cp.toString(16)}`);
  }
});
