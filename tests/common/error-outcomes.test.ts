import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outcomeForError } from '../../server/src/common/error-outcomes.js';
import { BadInputError, PreconditionError, UnsafePathError } from '../../server/src/common/errors.js';
import { exitCodeFor, isErrorOutcome, OUTCOMES } from '../../server/src/common/outcomes.js';
import { LockHeldError } from '../../server/src/state/lock.js';
import { StateDamagedError } from '../../server/src/state/store.js';

/** The one table from errors to outcomes, and the exit codes the contract lists for them. */

test('each kind of error maps to one outcome and one exit code', () => {
  const cases: [unknown, string, boolean, number][] = [
    [new UnsafePathError('a/../b', 'climbs out'), 'precondition_failed', true, 2],
    [new PreconditionError('Run propose first.'), 'precondition_failed', false, 4],
    [new LockHeldError('held'), 'precondition_failed', false, 4],
    [new BadInputError('--repo is empty'), 'error', true, 2],
    [new StateDamagedError('onboarding.json', 'not JSON', 'Run propose again.'), 'error', true, 2],
    [new Error('boom'), 'error', false, 1],
    ['not even an error', 'error', false, 1],
  ];
  for (const [err, outcome, badInput, exit] of cases) {
    const o = outcomeForError(err);
    assert.deepEqual([o.outcome, o.badInput], [outcome, badInput], String(err));
    assert.equal(exitCodeFor(o.outcome, o.badInput), exit, String(err));
  }
  assert.equal(outcomeForError(new Error('boom')).known, false);
});

test("the outcome table: refusals exit 3, the person's own decisions are not errors", () => {
  for (const o of ['declined', 'cancelled', 'timeout', 'not_confirmed', 'invalid_response', 'elicitation_unsupported'] as const)
    assert.equal(exitCodeFor(o), 3);
  assert.equal(isErrorOutcome('declined'), false);
  assert.equal(isErrorOutcome('cancelled'), false);
  assert.equal(isErrorOutcome('timeout'), true);
  for (const o of ['analyzed', 'proposed', 'approved', 'migrated', 'rolled_back', 'status'] as const) {
    assert.equal(exitCodeFor(o, true), 0);
    assert.equal(OUTCOMES[o].isError, false);
  }
});
