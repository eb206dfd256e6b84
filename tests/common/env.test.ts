import { test } from 'node:test';
import assert from 'node:assert/strict';
import { positiveNumberFromEnv } from '../../server/src/common/env.js';
import { elicitationTimeoutMs } from '../../server/src/gate/gate.js';
import { idleMs } from '../../server/src/mcp/http.js';
import { samplingTimeoutMs } from '../../server/src/narrate/narrate.js';

test('a setting in the environment counts only as a positive number; anything else gives the default', () => {
  const cases: [string | undefined, number][] = [
    [undefined, 7],
    ['', 7],
    ['   ', 7],
    ['0', 7],
    ['-5', 7],
    ['soon', 7],
    ['Infinity', 7],
    ['1500', 1500],
    [' 250 ', 250],
    ['0.5', 0.5],
  ];
  for (const [raw, want] of cases) {
    assert.equal(positiveNumberFromEnv('X_MS', 7, raw === undefined ? {} : { X_MS: raw }), want, JSON.stringify(raw));
  }
});

test('the elicitation and sampling timeouts and the HTTP idle time read their variables the same way', (t) => {
  const saved = { ...process.env };
  t.after(() => {
    for (const name of ['COPILOT_ONBOARD_ELICITATION_TIMEOUT_MS', 'COPILOT_ONBOARD_SAMPLING_TIMEOUT_MS']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  process.env.COPILOT_ONBOARD_ELICITATION_TIMEOUT_MS = '1234';
  process.env.COPILOT_ONBOARD_SAMPLING_TIMEOUT_MS = '-1';
  assert.equal(elicitationTimeoutMs(), 1234);
  assert.equal(samplingTimeoutMs(), 60_000);
  assert.equal(idleMs({ COPILOT_ONBOARD_HTTP_IDLE_MS: '42' }), 42);
  assert.equal(idleMs({ COPILOT_ONBOARD_HTTP_IDLE_MS: 'x' }), 30 * 60_000);
});
