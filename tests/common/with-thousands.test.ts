import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withThousands } from '../../server/src/common/text.js';

test('withThousands writes a whole number as toLocaleString("en-US") does, and leaves anything else to it', () => {
  const numbers = [
    0,
    7,
    12,
    999,
    1000,
    1001,
    12345,
    999999,
    1000000,
    1234567,
    98765432,
    -1,
    -999,
    -1000,
    -1234567,
    Number.MAX_SAFE_INTEGER,
  ];
  let seed = 38;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    numbers.push(Math.floor((seed / 2 ** 31) * 10 ** (1 + (i % 15))));
  }
  for (const n of [...numbers, 1.5, 1234.5678, NaN, Infinity]) assert.equal(withThousands(n), n.toLocaleString('en-US'), String(n));
});
