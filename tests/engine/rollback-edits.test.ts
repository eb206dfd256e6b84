import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, sandbox } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';

test('rollback after a person edited the migrated file lists it and saves the edit before restoring', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const migrated = await s.call('onboarding_migrate');
  const backupDir = (migrated.structuredContent as { backupDir: string }).backupDir;
  const edited = `${fs.readFileSync(path.join(repo, FILE), 'utf8')}- A rule written after the migration.\n`;
  fs.writeFileSync(path.join(repo, FILE), edited);

  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'rolled_back');
  const message = (s.elicitations.at(-1) as { message: string }).message;
  assert.match(message, /edited after the migration: \.github\/copilot-instructions\.md/);
  assert.match(textOf(r), /edited-after-migration/);
  assert.equal(fs.readFileSync(path.join(repo, backupDir, 'edited-after-migration', FILE), 'utf8'), edited, 'the edit is kept');
  assert.equal(fs.readFileSync(path.join(repo, FILE), 'utf8'), MESSY_INSTRUCTIONS, 'the original is back');
});
