import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normalizeLine, normalizedText, type Unit } from '../../server/src/model/model.js';
import { proseLines } from '../../server/src/analysis/contradictions/claims.js';
import { hasTwoWords, isLabel, isTrivial, stripMarker } from '../../server/src/analysis/repeats/trivial.js';
import { mayHaveSentenceBreak } from '../../server/src/analysis/repeats/duplicates.js';
import { ANY_MODAL, ANY_OPTION, mayNameClaim } from '../../server/src/analysis/contradictions/claims.js';
import { MODALS } from '../../server/src/analysis/contradictions/topics.js';
import { hiddenIn, isHidden } from '../../server/src/show/untrusted.js';
import { ANY_VERSION, normalizeRanges, RANGE_MARK, versionClaims } from '../../server/src/analysis/contradictions/versions.js';
import { anyOf, CLAIM_TOPICS, GENERIC_VERSION, VERSIONED_LANGUAGES } from '../../server/src/analysis/contradictions/topics.js';
import { repeatedKeys } from '../../server/src/common/collections.js';
import { findNearDuplicates, wordIdsOf } from '../../server/src/analysis/repeats/near-duplicates.js';
import { filesThatMayMeet } from '../../server/src/analysis/scope/scope-overlap.js';
import { ACTION_WORD, ACTIONS, VERB_OF } from '../../server/src/analysis/contradictions/claim-reader.js';

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

test('a line that no version pattern matches fails the one test that stands for all of them', () => {
  const patterns = [...VERSIONED_LANGUAGES.map((l) => l.pattern), GENERIC_VERSION];
  // The combined test ignores case: it matches whatever each pattern matches only when none needs more than g and i.
  for (const p of patterns) assert.match(p.flags, /^g?i?$/, p.source);
  const parts = fc.constantFrom(
    'Node',
    'node.js',
    'Python',
    'python3',
    'go',
    'Go',
    'Ruby',
    'Java',
    'TypeScript',
    'Remix',
    'v',
    ' ',
    '18',
    '3.11',
    '.',
    '>=',
    '^',
    '~',
    '+',
    'version ',
    'use ',
  );
  fc.assert(
    fc.property(fc.array(parts, { maxLength: 8 }), (p) => {
      const text = p.join('');
      const any = patterns.some((re) => new RegExp(re.source, re.flags.replace('g', '')).test(text));
      if (any) assert.ok(ANY_VERSION.test(text), text);
    }),
    { numRuns: 5000 },
  );
  assert.deepEqual(
    ['Use Node 20. Python >=3.11', '>=3.11python3', 'Remix 2.1'].flatMap(versionClaims).map((v) => `${v.name} ${v.value}`),
    ['Node.js 20', 'Python 3.11+', 'Python 3', 'Remix 2.1'],
  );
});

/** The words near-duplicates compared before they were numbered: runs of letters and digits, longer than two. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 2);

test('the numbered words of a text are its distinct words, numbered in first-met order, and forgotten below the minimum', () => {
  const chars = fc.constantFrom(
    'a',
    'B',
    'é',
    '1',
    ' ',
    '-',
    '`',
    '.',
    '\u{1d400}',
    '\ud800',
    '\udc00',
    'ß',
    'İ',
    '\u00a0',
    '_',
    '日',
    'Ω',
    '٣',
    // The ends of the ASCII letters and digits, and the marks next to them.
    '/',
    '0',
    '9',
    ':',
    '@',
    'Z',
    '[',
    'z',
    '{',
  );
  fc.assert(
    fc.property(fc.array(fc.array(chars, { maxLength: 24 }), { maxLength: 5 }), fc.nat(6), (texts, min) => {
      const ids = new Map<string, number>();
      const expected = new Map<string, number>();
      for (const t of texts.map((p) => p.join(''))) {
        const distinct = [...new Set(wordsOf(t))];
        const got = wordIdsOf(t, ids, min);
        if (distinct.length < min) {
          assert.equal(got, null);
        } else {
          for (const w of distinct) if (!expected.has(w)) expected.set(w, expected.size);
          assert.deepEqual(
            [...got!],
            distinct.map((w) => expected.get(w)!).sort((x, y) => x - y),
          );
        }
        assert.deepEqual([...ids], [...expected]);
      }
    }),
    { numRuns: 3000 },
  );
});

/** Drifted copies the long way: every pair of units in different files, their word sets compared whole. */
function nearPairsByEveryPair(units: Unit[]): string[] {
  const sets = units.map((u) => new Set(wordsOf(normalizedText(u))));
  const out: string[] = [];
  for (let i = 0; i < units.length; i++)
    for (let j = i + 1; j < units.length; j++) {
      const [a, b] = [sets[i]!, sets[j]!];
      if (a.size < 8 || b.size < 8 || units[i]!.path === units[j]!.path) continue;
      if (normalizedText(units[i]!) === normalizedText(units[j]!)) continue;
      const common = [...a].filter((w) => b.has(w)).length;
      if (common >= 2 && common / (a.size + b.size - common) >= 0.75)
        out.push(`${units[i]!.path}:${units[i]!.line}|${units[j]!.path}:${units[j]!.line}`);
    }
  return out.sort();
}

test('drifted copies, through the word table, are the pairs that comparing every pair finds (lower case longer than the text included)', () => {
  // Few words, so that pairs share most of theirs. "İ" lower-cases to "i" and a combining dot: "abİcdİ" is
  // the words "abi" and "cdi", more words in its lower case than its length leaves room for.
  const word = fc.constantFrom(
    'alpha',
    'beta',
    'gamma',
    'delta',
    'epsilon',
    'zeta',
    'theta',
    'ΩMEGA',
    '123',
    'abİ',
    'cdİ',
    'efİ',
    'ghİ',
    'jkİ',
    'lmİ',
    'noİ',
    'prİ',
    'stİ',
  );
  const unit = fc.record({
    path: fc.constantFrom('a.md', 'b.md', 'c.md'),
    words: fc.array(word, { minLength: 6, maxLength: 16 }),
    sep: fc.constantFrom(' ', ', ', '', ''),
  });
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 30 }), (specs) => {
      const units: Unit[] = specs.map((x, k) => ({
        kind: 'list-item',
        path: x.path,
        line: k + 1,
        lines: [`- ${x.words.join(x.sep)}`],
        blankBefore: false,
      }));
      const found = findNearDuplicates(units).map((p) => p.locations.map((l) => `${l.path}:${l.line}`).join('|'));
      assert.deepEqual(found.sort(), nearPairsByEveryPair(units));
    }),
    { numRuns: 1000 },
  );
  // Every unit denser in words than its length leaves room for: the table grows.
  const dense: Unit[] = [
    { kind: 'list-item', path: 'a.md', line: 1, lines: ['- abİcdİefİghİjkİlmİnoİprİstİ'], blankBefore: false },
    { kind: 'list-item', path: 'b.md', line: 1, lines: ['- abİcdİefİghİjkİlmİnoİprİxyİ'], blankBefore: false },
  ];
  assert.deepEqual(
    findNearDuplicates(dense).map((p) => p.description),
    ['Near-identical rules (drifted copies, 80% the same words): "- abİcdİefİghİjkİlmİnoİprİstİ"'],
  );
  assert.deepEqual(nearPairsByEveryPair(dense), ['a.md:1|b.md:1']);
});

test('the test for any option finds a line exactly when one of the options does, its word boundary tested once', () => {
  const options = CLAIM_TOPICS.flatMap((t) => t.options.map((o) => new RegExp(o.pattern.source, 'i')));
  assert.ok(ANY_OPTION.source.startsWith('\\b(?:'), 'every option starts at a word boundary: one test of it');
  const values = CLAIM_TOPICS.flatMap((t) => t.options.map((o) => o.value));
  const parts = fc.oneof(
    fc.constantFrom(...values, ...values.map((v) => v.toUpperCase())),
    fc.constantFrom(
      ' ',
      '-',
      '_',
      'x',
      '1',
      '.',
      ';',
      'use ',
      'never ',
      'no ',
      'with ',
      "don't use ",
      'quoted',
      'two',
      'semicolon',
      'spaces',
      'é',
    ),
  );
  fc.assert(
    fc.property(fc.array(parts, { maxLength: 6 }), (p) => {
      const text = p.join('');
      assert.equal(
        ANY_OPTION.test(text),
        options.some((re) => re.test(text)),
        JSON.stringify(text),
      );
    }),
    { numRuns: 5000 },
  );
  // Without a boundary at the start of each, the patterns are joined as they are.
  assert.equal(anyOf([/\ba/, /b/]).source, '\\ba|b');
  assert.equal(anyOf([/\ba/g, /\bb\b/]).source, '\\b(?:a|b\\b)');
});

test('the repeated keys are the groups of more than one that grouping gives, in the order of first use', () => {
  const reference = (keys: string[]) => {
    const groups = new Map<string, number[]>();
    keys.forEach((k, i) => groups.set(k, [...(groups.get(k) ?? []), i]));
    return [...groups.values()].filter((g) => g.length > 1);
  };
  fc.assert(
    fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', '', 'ab'), { maxLength: 20 }), (keys) =>
      assert.deepEqual(repeatedKeys(keys), reference(keys)),
    ),
    { numRuns: 3000 },
  );
});

test('the action-word test answers what splitting a line into words and looking each up answers', () => {
  const verbs = [...Object.values(ACTIONS).flat(), ...VERB_OF.keys()];
  // Every form the reader knows is a plain word: the test's alternation needs no escaping.
  assert.match(ACTION_WORD.source, /^\(\?<!\[a-z-\]\)\(\?:[a-z|-]+\)\(\?!\[a-z-\]\)$/);
  const reference = (line: string) =>
    line
      .toLowerCase()
      .split(/[^a-z-]+/)
      .some((w) => VERB_OF.has(w) || w === 'avoid' || w === 'force');
  const part = fc.oneof(
    fc.constantFrom(...verbs),
    fc.constantFrom(
      's',
      'ed',
      'ing',
      'd',
      'es',
      '-',
      ' ',
      '_',
      '1',
      'Force',
      'force ',
      'AVOID',
      'avoided',
      're',
      'x',
      '`',
      'ß',
      'İ',
      '\u212a',
    ),
  );
  fc.assert(
    fc.property(fc.array(part, { maxLength: 6 }), (p) => {
      const line = p.join('');
      assert.equal(ACTION_WORD.test(line.toLowerCase()), reference(line), JSON.stringify(line));
    }),
    { numRuns: 5000 },
  );
  assert.deepEqual(
    ['Never edit `dist/`', 'Editing is fine', 're-edit later', 'force push to main', 'Avoid `any`', 'A plain line'].map((l) =>
      ACTION_WORD.test(l.toLowerCase()),
    ),
    [true, true, false, true, true, false],
  );
});

test('the two-words test answers what its regular expression answers, ASCII or not', () => {
  const TWO_WORDS = /\p{L}{2,}.*\s.*\p{L}{2,}/su;
  const chars = fc.constantFrom(
    'a',
    'B',
    'z',
    'Z',
    ' ',
    '\t',
    '\n',
    '\v',
    '1',
    '-',
    '@',
    '[',
    '`',
    '{',
    '_',
    'é',
    '\u00a0',
    '\u{1d400}',
    '日',
  );
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 14 }), (p) =>
      assert.equal(hasTwoWords(p.join('')), TWO_WORDS.test(p.join('')), JSON.stringify(p.join(''))),
    ),
    { numRuns: 8000 },
  );
  for (const text of ['ab cd', 'a b', 'ab c', 'abcd', 'ab\ncd', 'ab  -  cd', 'x ab cd', 'ab@ cd'])
    assert.equal(hasTwoWords(text), TWO_WORDS.test(text), text);
});

test('a trivial text is short, has fewer than two words, or is a label, as the long way says', () => {
  const reference = (text: string) => text.length < 12 || !/\p{L}{2,}.*\s.*\p{L}{2,}/su.test(text) || isLabel(text);
  const parts = fc.constantFrom('- ', '1. ', '**', '__', '`', 'word', 'Example', ' ', ':', '|', 'x y z', '\u00a0', 'é', '日本', '.');
  fc.assert(
    fc.property(fc.array(parts, { maxLength: 10 }), (p) =>
      assert.equal(isTrivial(p.join('')), reference(p.join('')), JSON.stringify(p.join(''))),
    ),
    { numRuns: 5000 },
  );
});

test('a label ends bold or with a colon: other lines are labels for neither the short way nor the long', () => {
  const parts = fc.constantFrom(
    '- ',
    '* ',
    '+ ',
    '1) ',
    '**',
    '__',
    '`',
    '*',
    '_',
    'word',
    ':',
    ' ',
    '\t',
    '\u00a0',
    '\u3000',
    '\ufeff',
    'é',
    '-',
    '1.',
  );
  const reference = (text: string): boolean => {
    if (text.startsWith('|') && text.replace(/[|:-]/g, ' ').trim().split(/\s+/).length <= 6) return true;
    const bare = stripMarker(text).replace(/[*_`]/g, '').trim();
    return (
      !text.includes('\n') && bare.split(/\s+/).length <= 6 && (bare.endsWith(':') || /^(\*\*|__)[^*_]+(\*\*|__)$/.test(stripMarker(text)))
    );
  };
  fc.assert(
    fc.property(fc.array(parts, { maxLength: 9 }), (p) =>
      assert.equal(isLabel(p.join('')), reference(p.join('')), JSON.stringify(p.join(''))),
    ),
    { numRuns: 8000 },
  );
});

test('a text without a possible sentence break splits into one sentence', () => {
  const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z`])/;
  const chars = fc.constantFrom('a', 'A', '`', '.', '!', '?', ' ', '\t', '\n', '\u00a0', '\u2003', '\ufeff', 'É', ',');
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 10 }), (p) => {
      const text = p.join('');
      if (text.split(SENTENCE_BREAK).length > 1) assert.ok(mayHaveSentenceBreak(text), JSON.stringify(text));
    }),
    { numRuns: 8000 },
  );
  assert.deepEqual(['Strict mode. No `any`.', 'One rule.', 'Use a.b c'].map(mayHaveSentenceBreak), [true, false, false]);
});

test('a line without a range mark has no range to normalise', () => {
  const longWay = (text: string) =>
    text.replace(/(?:>=|≥|\^)\s*v?(\d+(?:\.\d+){0,2})(?:\.[x*])?/g, '$1+').replace(/(?:~=?|==)\s*v?(\d+(?:\.\d+){0,2})/g, '$1');
  const parts = fc.constantFrom('>=', '≥', '^', '~', '~=', '==', '=', '>', ' ', 'v', '3', '.11', '.x', 'Node ', 'a');
  fc.assert(
    fc.property(fc.array(parts, { maxLength: 8 }), (p) => assert.equal(normalizeRanges(p.join('')), longWay(p.join('')))),
    { numRuns: 5000 },
  );
});

test('a line the one modal test does not match matches no modal pattern', () => {
  for (const m of MODALS) assert.equal(m.pattern.flags, 'gi', m.pattern.source);
  const parts = fc.constantFrom(
    'never',
    'must',
    'not',
    "mustn't",
    'do',
    "don't",
    'should',
    "shouldn't",
    'avoid',
    'always',
    ' ',
    '\t',
    'x',
    'Always',
    'MUST',
    '-',
    'a',
  );
  fc.assert(
    fc.property(fc.array(parts, { maxLength: 6 }), (p) => {
      const text = p.join('');
      const any = MODALS.some((m) => new RegExp(m.pattern.source, 'i').test(text));
      assert.equal(ANY_MODAL.test(text), any, JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
});

test('the one test of a line for options, versions and modal words matches exactly when one of their patterns or a range mark does', () => {
  const values = CLAIM_TOPICS.flatMap((t) => t.options.map((o) => o.value));
  const patterns = [
    ...CLAIM_TOPICS.flatMap((t) => t.options.map((o) => o.pattern)),
    ...VERSIONED_LANGUAGES.map((l) => l.pattern),
    GENERIC_VERSION,
    ...MODALS.map((m) => m.pattern),
  ];
  // Each pattern with its own flags ("AVA", "uv" and the generic version keep case), and all but the
  // generic version with case folded, as the one test folds them.
  const own = patterns.map((p) => new RegExp(p.source, p.flags.replace('g', '')));
  const folded = patterns.filter((p) => p !== GENERIC_VERSION).map((p) => new RegExp(p.source, 'i'));
  const parts = fc.oneof(
    fc.constantFrom(...values, ...values.map((v) => v.toUpperCase())),
    fc.constantFrom('Node', 'python3', 'Go', 'golang', 'Ruby', 'Java', 'TypeScript', 'Remix', 'remix', 'v', '18', '3.11', '.', '1'),
    fc.constantFrom('never', 'must', 'not', 'Always', "don't", 'avoid', 'should', 'do', 'version '),
    fc.constantFrom(' ', '  ', '\t', '-', ',', ';', 'x', 'é', '>=', '^', '~', '=', '\u2265', 'Use ', 'keep the module small'),
  );
  fc.assert(
    fc.property(fc.array(parts, { maxLength: 7 }), (p) => {
      const text = p.join('');
      const named = mayNameClaim(text);
      if (own.some((re) => re.test(text)) || RANGE_MARK.test(text)) assert.ok(named, JSON.stringify(text));
      assert.equal(
        named,
        folded.some((re) => re.test(text)) || own.some((re) => re.test(text)) || RANGE_MARK.test(text),
        JSON.stringify(text),
      );
      // What the readings it stands for find in a line it turns away: nothing.
      if (!named) {
        assert.equal(ANY_OPTION.test(text), false, JSON.stringify(text));
        assert.equal(ANY_MODAL.test(text), false, JSON.stringify(text));
        assert.deepEqual(versionClaims(text), [], JSON.stringify(text));
      }
    }),
    { numRuns: 8000 },
  );
  for (const line of [
    '- Rule 3 of area 7: keep module 7 handler 3 small.',
    'Indent with tabs',
    'Use Remix 2.1',
    'python>=3.11',
    'Always test',
  ])
    assert.equal(mayNameClaim(line), !line.startsWith('- Rule'), line);
});

test('near repeats read no unit when no two files may meet, and find what the long way finds when some do', () => {
  const scopes = ['src/a/**', 'src/b/**', 'src/a/x/**', 'test/**', 'src/**'];
  const spec = fc.record({
    file: fc.integer({ min: 0, max: 4 }),
    words: fc.array(fc.constantFrom('keep', 'handler', 'small', 'typed', 'covered', 'focused', 'tests', 'module', 'with', 'zod'), {
      minLength: 8,
      maxLength: 10,
    }),
  });
  fc.assert(
    fc.property(fc.array(spec, { maxLength: 12 }), fc.subarray([0, 1, 2, 3, 4], { minLength: 1 }), (specs, present) => {
      const files = present.map((k) => ({ path: `.cursor/rules/r${k}.mdc`, scope: { kind: 'globs' as const, globs: [scopes[k]!] } }));
      const units: Unit[] = specs
        .filter((x) => present.includes(x.file))
        .map((x, k) => ({
          kind: 'list-item',
          path: `.cursor/rules/r${x.file}.mdc`,
          line: k + 1,
          lines: [`- ${x.words.join(' ')}`],
          blankBefore: false,
        }));
      const scopeOf = (u: Unit) => files.find((f) => f.path === u.path)!.scope;
      const meeting = filesThatMayMeet(files);
      let read = 0;
      const counted = (u: Unit) => (read++, normalizedText(u));
      const found = findNearDuplicates(units, scopeOf, counted, meeting);
      assert.deepEqual(found, findNearDuplicates(units, scopeOf));
      if (meeting.size === 0) assert.equal(read, 0, 'no unit is read where no two files may meet');
    }),
    { numRuns: 300 },
  );
  // Two folders of their own: the same rule in each is each folder's own copy, and nothing is read.
  const own = [
    { path: '.cursor/rules/a.mdc', scope: { kind: 'globs' as const, globs: ['src/a/**'] } },
    { path: '.cursor/rules/b.mdc', scope: { kind: 'globs' as const, globs: ['src/b/**'] } },
  ];
  assert.equal(filesThatMayMeet(own).size, 0);
});
