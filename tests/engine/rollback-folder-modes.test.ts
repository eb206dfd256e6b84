import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isChoicesRound, openSession, outcomeOf, textOf, type ElicitAnswer } from '../helpers/mcp.js';
import { hashTree, sandbox } from '../helpers/sandbox.js';

/** Removes every legacy file it may, and says yes to everything else. */
const removeAll: ElicitAnswer = (req: any) => {
  const props = req.requestedSchema.properties;
  if (isChoicesRound(req))
    return {
      action: 'accept',
      content: Object.fromEntries(
        Object.entries(props)
          .filter(([, v]: [string, any]) => v.oneOf?.some((o: any) => o.const === 'remove'))
          .map(([k]) => [k, 'remove']),
      ),
    };
  if ('approved' in props) return { action: 'accept', content: { approved: true } };
  if ('understood_risks' in props) return { action: 'accept', content: { confirmed: true, understood_risks: true } };
  return { action: 'accept', content: { confirmed: true } };
};

const modeOf = (p: string) => fs.statSync(p).mode & 0o7777;

test('rollback gives back the modes of folders a migration emptied and removed, not 0755', async (t) => {
  const repo = sandbox(t, { '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n- Validate request bodies.\n' });
  fs.chmodSync(path.join(repo, '.cursor/rules'), 0o700);
  fs.chmodSync(path.join(repo, '.cursor'), 0o750);
  fs.chmodSync(path.join(repo, '.cursor/rules/api.mdc'), 0o600);
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: removeAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'migrated', textOf(m));
  assert.equal(fs.existsSync(path.join(repo, '.cursor')), false, 'the emptied folders went with the file');
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
  assert.equal(modeOf(path.join(repo, '.cursor')).toString(8), '750');
  assert.equal(modeOf(path.join(repo, '.cursor/rules')).toString(8), '700');
  assert.equal(modeOf(path.join(repo, '.cursor/rules/api.mdc')).toString(8), '600');
});
