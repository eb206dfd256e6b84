import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { boundJson, boundText, fitsBytes, LEVELS, limitKeys } from '../../server/src/narrate/bounded.js';

/**
 * boundJson and boundText count bytes only when they must, and give back what nothing was cut in
 * instead of a copy: their results must stay those of the first way, which stringified and counted
 * every level whole. That way is written again here as the reference (on the same levels).
 */

const runs = Number(process.env.FUZZ_RUNS ?? 300);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function referenceText(text: string, max: number, rest: string): string {
  if (bytes(text) <= max) return text;
  const tail = (left: number) => `\n\n[… ${left} more bytes not shown here. ${rest}]`;
  const room = max - bytes(tail(bytes(text))) - 16;
  let head = Buffer.from(text, 'utf8')
    .subarray(0, Math.max(0, room))
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const nl = head.lastIndexOf('\n');
  if (nl > head.length * 0.8) head = head.slice(0, nl);
  return `${head}${tail(bytes(text) - bytes(head))}`;
}

function referenceJson(value: unknown, max: number): { value: unknown; omitted: Record<string, number> | null } {
  if (bytes(JSON.stringify(value)) <= max) return { value, omitted: null };
  for (const level of LEVELS) {
    const omitted: Record<string, number> = {};
    const cut = referenceShrink(value, level.items, level.chars, '', omitted);
    if (bytes(JSON.stringify(cut)) + bytes(JSON.stringify(limitKeys(omitted))) <= max) return { value: cut, omitted: limitKeys(omitted) };
  }
  const omitted: Record<string, number> = {};
  return { value: referenceShrink(value, 0, 64, '', omitted), omitted: limitKeys(omitted) };
}

function referenceShrink(v: unknown, items: number, chars: number, at: string, omitted: Record<string, number>): unknown {
  if (typeof v === 'string') return v.length <= chars ? v : `${v.slice(0, chars)}\n[… cut: ${v.length - chars} more characters]`;
  if (Array.isArray(v)) {
    if (v.length > items) omitted[at || '(list)'] = v.length;
    return v.slice(0, items).map((x, i) => referenceShrink(x, items, chars, `${at}[${i}]`, omitted));
  }
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = referenceShrink(x, items, chars, at ? `${at}.${k}` : k, omitted);
    return out;
  }
  return v;
}

const same = (value: unknown, max: number) => {
  const got = boundJson(value, max);
  const want = referenceJson(value, max);
  assert.equal(JSON.stringify(got.value), JSON.stringify(want.value));
  assert.deepEqual(got.omitted, want.omitted);
};

// Strings of one, two, three and four UTF-8 bytes a character, lone surrogates and controls among them.
const text = fc.string({ unit: fc.constantFrom('a', ' ', '\n', 'é', '€', '😀', '\ud800', '\u0007', '"', '\\'), maxLength: 400 });

test('property: a text is cut exactly as counting all its bytes cut it', () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 0, max: 1200 }), (t, max) => {
      assert.equal(fitsBytes(t, max), bytes(t) <= max);
      assert.equal(boundText(t, max, 'See x.'), referenceText(t, max, 'See x.'));
    }),
    { numRuns: runs * 3 },
  );
});

test('property: a JSON value is bounded exactly as stringifying every level bounded it', () => {
  const leaf = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.double());
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, tie('list'), tie('object')),
    list: fc.array(tie('node'), { maxLength: 40 }),
    object: fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 8 }),
  })).node;
  fc.assert(
    fc.property(value, fc.integer({ min: 0, max: 8000 }), (v, max) => same(v, max)),
    { numRuns: runs },
  );
});

test('a long list cut at each level, and what is not a plain object or array (a Date, a boxed string) shown as its copy always was', () => {
  const rows = Array.from({ length: 600 }, (_, i) => ({
    path: `src/${i}.md`,
    kind: 'cursor-rules',
    bytes: 1000 + i,
    note: 'x'.repeat(i % 50),
  }));
  const value = { pattern: 'messy', detail: 'y'.repeat(70_000), sources: rows, when: new Date(0), boxed: Object('abc') as object };
  for (const max of [200, 2_000, 32 * 1024, 100_000, 256 * 1024, 10_000_000]) same(value, max);
  // Nothing cut: the value itself, not a copy.
  const small = { a: [1, 2, 3], b: { c: 'd' } };
  assert.equal(boundJson(small, 1000).value, small);
  // Cut in one list: the lists beside it are given back themselves, and the value is whole otherwise.
  const big = { long: Array.from({ length: 30 }, (_, i) => i), short: [1, 2] };
  const cut = boundJson(big, 60);
  assert.deepEqual(cut.omitted, { long: 30 });
  assert.equal((cut.value as typeof big).short, big.short);
  assert.deepEqual(big.long.length, 30, 'the value given is not changed');
});
