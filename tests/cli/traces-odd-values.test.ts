import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cli } from '../helpers/hostile-repo.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Issue 37: any odd value in a committed trace is shown, never thrown. `{"toString": 1}` makes
 * String() and a template literal throw ("Cannot convert object to primitive value"): `traces list`
 * and `traces report` exited 1 and the Action's report vanished.
 */

const ODD = { toString: 1, valueOf: 1 };
const TRACE = {
  timestamp: '2026-11-22T08:30:45.123Z',
  action: ODD,
  message: 'Approve?',
  schema: {
    type: 'object',
    properties: {
      approved: { type: 'boolean', title: ODD, default: ODD },
      pick: { type: 'string', title: 'Pick', oneOf: [{ const: ODD, title: ODD }], default: 'x' },
      other: { type: 'string', enum: [ODD, 'b'], enumNames: [ODD, 'B'] },
    },
  },
  response: { action: ODD, content: { approved: ODD, pick: ODD } },
  outcome: ODD,
  duration_ms: ODD,
  planHash: ODD,
  client: { name: ODD, version: ODD },
  acknowledged: { reason: ODD, problems: [ODD, 'x'] },
  seq: 1,
};
const SAMPLING = { timestamp: ODD, intent: ODD, outcome: ODD, response: { model: ODD, content: [ODD, { text: ODD }] } };

test('a committed trace full of {"toString": 1} values: every traces command shows it and none exits 1', (t) => {
  const repo = sandbox(t, {
    '.copilot-state/elicitation-traces/2026-11-22T08-30-45-123Z-approve.json': JSON.stringify(TRACE),
    '.copilot-state/sampling-traces/2026-11-22T08-30-46-000Z-analyze.json': JSON.stringify(SAMPLING),
  });
  execFileSync('git', ['-C', repo, 'add', '-A']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x']);
  for (const args of [
    ['list'],
    ['list', '--json'],
    ['show', '2026-11-22T08-30-45-123Z-approve'],
    ['show', '2026-11-22T08-30-46-000Z-analyze'],
    ['report'],
    ['report', '--format', 'html'],
    ['report', '--format', 'json'],
    ['verify'],
  ]) {
    const r = cli(['traces', ...args, '--repo', repo]);
    assert.notEqual(r.status, 1, `traces ${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /Cannot convert|TypeError/, args.join(' '));
    if (args[0] !== 'verify') assert.match(r.stdout, /2026-11-22T08-30-45-123Z-approve|toString/, args.join(' '));
  }
  // The odd value is shown as what it is.
  assert.match(cli(['traces', 'list', '--repo', repo]).stdout, /\{"toString":1,"valueOf":1\}/);
});
