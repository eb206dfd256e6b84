import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readState, readTraces, sandbox } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';

test("accepted path: propose, approve, migrate mark the conflict in the person's file without moving or losing a line, rollback restores bytes", async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS, 'src/index.ts': 'export {};\n' });
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesToAll });

  assert.equal(outcomeOf(await s.call('onboarding_analyze')), 'analyzed');
  const proposed = await s.call('onboarding_propose');
  assert.equal(outcomeOf(proposed), 'proposed');
  assert.deepEqual(hashTree(repo), before, 'propose changes nothing outside .copilot-state');

  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', JSON.stringify(migrated));

  const after = fs.readFileSync(path.join(repo, FILE), 'utf8');
  // The person's flat file keeps its order (issue 40): the migration adds the conflict's marks.
  assert.match(after, /^<!-- copilot-onboard: conflicting rules about package manager/m);
  const nonBlank = (t: string) => t.split('\n').filter((l) => l.trim() !== '');
  for (const line of new Set(nonBlank(MESSY_INSTRUCTIONS))) assert.ok(after.includes(line), `line kept: ${line}`);
  assert.equal(after.split('- Indent with 2 spaces.').length - 1, 2, 'a repeat inside one file is kept, not merged');
  const state = readState(repo)!;
  const migration = state.migrations[0];
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/backups', migration.id, 'manifest.json'), 'utf8'));
  assert.equal(manifest.files[0].path, FILE);
  assert.equal(manifest.files[0].existed, true);
  assert.equal(
    manifest.files[0].sha256,
    createHash('sha256').update(MESSY_INSTRUCTIONS).digest('hex'),
    'the manifest holds the sha256 of the original',
  );

  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before, 'rollback restores every file byte for byte');
  assert.equal(fs.readFileSync(path.join(repo, FILE), 'utf8'), MESSY_INSTRUCTIONS);

  const traces = readTraces(repo, 'elicitation');
  // The plan offers a choice (a contradiction): approve asks it in a round of its own first.
  assert.deepEqual(
    traces.map((t) => t.outcome),
    ['chosen', 'approved', 'migrated', 'rolled_back'],
  );
  assert.deepEqual(traces[0]!.client, { name: 'test-client', version: '1.2.3' });
});
