import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ElicitationTrace, SamplingTrace } from '../../server/src/state/schema.js';
import { verifyTraces } from '../../server/src/state/traces/verify.js';
import { tempDir } from '../helpers/sandbox.js';

const root = path.resolve(import.meta.dirname, '../..');
const examples = path.join(root, '.copilot-state/examples');
const NAME = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-(approve|migrate|rollback|analyze|propose)\.json$/;

test('the JSON Schemas in .copilot-state/schemas are generated from the zod schemas, not written by hand', () => {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/write-schemas.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('the example traces match their schemas, are named as the contract says, and verify as a chain', async (t) => {
  for (const [kind, schema] of [
    ['elicitation-traces', ElicitationTrace],
    ['sampling-traces', SamplingTrace],
  ] as const) {
    const files = fs.readdirSync(path.join(examples, kind));
    assert.ok(files.length > 0, kind);
    for (const f of files) {
      assert.match(f, NAME);
      const parsed = schema.safeParse(JSON.parse(fs.readFileSync(path.join(examples, kind, f), 'utf8')));
      assert.ok(parsed.success, `${kind}/${f}: ${parsed.success ? '' : parsed.error.message}`);
    }
  }
  const repo = tempDir(t, 'co-examples-');
  fs.cpSync(examples, path.join(repo, '.copilot-state'), { recursive: true });
  const report = await verifyTraces(repo);
  assert.deepEqual(report.problems, []);
});
