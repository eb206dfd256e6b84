import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { connect, openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, sandbox, tempDir, type Cleanup } from '../helpers/sandbox.js';

/** `.github` is a symlink to a folder outside the repository, created after propose planned to write into it. */
async function repoWithEscapingGithub(t: Cleanup) {
  const outside = tempDir(t, 'co-outside-');
  const repo = sandbox(t, { 'CLAUDE.md': '# Rules\n\n- Write a test for every fix.\n' });
  const s = await connect({ repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  await s.close();
  fs.symlinkSync(outside, path.join(repo, '.github'));
  return { repo, outside };
}

test('an unsafe path is precondition_failed (CLI exit 2) at approve, and nothing is written outside', async (t) => {
  const { repo, outside } = await repoWithEscapingGithub(t);
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesToAll });
  const r = await s.call('onboarding_approve');
  assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
  assert.match(textOf(r), /Unsafe path/);
  assert.equal(s.elicitations.length, 0);
  assert.deepEqual(fs.readdirSync(outside), []);
  assert.deepEqual(hashTree(repo), before);
});

test("a read-only step that meets an unsafe path reports precondition_failed (CLI exit 2, as the contract's Security section says)", async () => {
  const { resultForError } = await import('../../server/src/steps/result.js');
  const { UnsafePathError } = await import('../../server/src/common/errors.js');
  const { exitCodeFor } = await import('../../server/src/common/outcomes.js');
  const r = resultForError(new UnsafePathError('.github/x.md', 'resolves outside the repository through a symlink'));
  assert.equal(r.outcome, 'precondition_failed');
  assert.equal(exitCodeFor(r.outcome, r.badInput), 2);
});
