import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { hashTree } from '../helpers/sandbox.js';
import { outsideDir, snapshot, repoWithRules, linkAt, proposedAndApproved, escape } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: Links on the way to the files migrate writes.
 */

for (const [what, place, target] of [
  ['.github as a link to an outside folder', '.github', 'outside'],
  ['.github/instructions as a link to an outside folder', '.github/instructions', 'outside'],
  ['.github/instructions as a link to a folder inside the repository', '.github/instructions', 'inside'],
] as const) {
  test(`migrate with ${what}, made after approve: precondition_failed naming it, nobody asked, nothing written anywhere`, async (t) => {
    const repo = repoWithRules(t);
    const outside = outsideDir(t);
    await proposedAndApproved(repo);
    if (target === 'inside') fs.mkdirSync(path.join(repo, 'docs/instructions'), { recursive: true });
    linkAt(repo, place, target === 'inside' ? path.join(repo, 'docs/instructions') : path.join(outside, 'empty'));
    const before = snapshot(outside);
    const tree = hashTree(repo);
    const s = await openSession(t, { repo, elicit: yesToAll });
    const r = await s.call('onboarding_migrate');
    assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
    assert.match(textOf(r), new RegExp(`"?${escape(place)}"?.*link`));
    assert.equal(s.elicitations.length, 0, 'refused before the person is asked');
    assert.deepEqual(snapshot(outside), before);
    assert.deepEqual(hashTree(repo), tree);
    assert.equal(fs.existsSync(path.join(repo, '.copilot-state/backups')), false);
  });
}

test('a link on the way refused by a gated step is exit 2 from the command line', async () => {
  const { resultForError } = await import('../../server/src/steps/result.js');
  const { UnsafePathError } = await import('../../server/src/common/errors.js');
  const { exitCodeFor } = await import('../../server/src/common/outcomes.js');
  const r = resultForError(new UnsafePathError('.copilot-state', 'is a symlink'));
  assert.equal(r.outcome, 'precondition_failed');
  assert.equal(exitCodeFor(r.outcome, r.badInput), 2);
});
