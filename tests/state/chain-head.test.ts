import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChainHead } from '../../server/src/state/chain-head-schema.js';
import { chainHeadFrom } from '../../server/src/state/chain-head.js';

/**
 * The chain head is read without zod (state/chain-head.ts); its zod schema still defines it. Both
 * must give the same answer for anything a damaged or hand-edited trace-chain.json can hold.
 */

const byZod = (json: unknown) => {
  const parsed = ChainHead.safeParse(json);
  return parsed.success ? parsed.data : null;
};

const SHA = 'a'.repeat(64);
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.string(),
  fc.constantFrom(SHA, SHA.toUpperCase(), `${SHA}0`, 'f'.repeat(63), '.copilot-state/sampling-traces/x.json', ''),
  fc.constantFrom(0, -0, 1, 2, -1, 1.5, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e300),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.constantFrom(0, 1, 2, 7, -1, 1.5, 2 ** 53), { maxLength: 3 }),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
);

test('the chain head read without zod is the one its zod schema reads, and refused where the schema refuses it', () => {
  const valid = { seq: 3, sha256: SHA, file: '.copilot-state/sampling-traces/x.json', timestamp: '2026-11-25T10:00:00.000Z', breaks: [2] };
  assert.deepEqual(chainHeadFrom(valid), valid);
  assert.deepEqual(chainHeadFrom({ seq: 0, sha256: null, file: null, extra: 1 }), { seq: 0, sha256: null, file: null });
  for (const refused of [
    null,
    [],
    'x',
    3,
    { ...valid, seq: -1 },
    { ...valid, seq: 1.5 },
    { ...valid, sha256: 'A'.repeat(64) },
    { seq: 1, file: null },
  ])
    assert.equal(chainHeadFrom(refused), null, JSON.stringify(refused));
  // Each field of a valid head, and a stray one, replaced by anything, or left out.
  const field = fc.constantFrom('seq', 'sha256', 'file', 'timestamp', 'breaks', 'other');
  const edit = fc.tuple(field, fc.option(anyJson, { nil: undefined }));
  fc.assert(
    fc.property(fc.array(edit, { maxLength: 4 }), fc.boolean(), (edits, fromEmpty) => {
      const json: Record<string, unknown> = fromEmpty ? {} : { ...valid };
      for (const [key, value] of edits) {
        if (value === undefined) delete json[key];
        else json[key] = value;
      }
      assert.deepEqual(chainHeadFrom(json), byZod(json));
    }),
    { numRuns: 2000 },
  );
  fc.assert(fc.property(anyJson, (json) => assert.deepEqual(chainHeadFrom(json), byZod(json))));
});
