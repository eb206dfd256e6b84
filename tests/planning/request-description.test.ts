import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';

/**
 * A rule file Copilot applies on request is picked by its description, so the description says what
 * the rules are about, in the source's own words (issue 40: "Rules from .cursor/rules/agent.mdc"
 * told Copilot nothing): a "Description:" line the file opens with, else its title, else its file's
 * name; "Rules from <path>" only where two files would get the same words.
 */
const ON_REQUEST = '---\ndescription: \nglobs: \nalwaysApply: false\n---\n';

test('a rule file applied on request gets a description from its own words; a second plan has nothing to do', async (t) => {
  const { first, second, read } = await plannedTwice(t, {
    '.cursor/rules/release.mdc': `${ON_REQUEST}# Cutting a release\n\n- Tag from main only.\n`,
    '.cursor/rules/db-migrations.mdc': `${ON_REQUEST}Rule: db-migrations\nDescription: How to write and check a database migration. Run it on a copy first.\n\n- Every migration has a down step.\n`,
    '.cursor/rules/theme-notes.mdc': `${ON_REQUEST}### Colours\n\n- Use the tokens in \`theme.ts\`.\n`,
    '.cursor/rules/api.mdc': `${ON_REQUEST}# Rules\n\n- Version every endpoint.\n`,
    '.cursor/rules/cli.mdc': `${ON_REQUEST}# Rules\n\n- Every flag has a long name.\n`,
  });
  const description = (p: string) => /^description: (.*)$/m.exec(read(p))?.[1];
  assert.equal(description('.github/instructions/release.instructions.md'), '"Cutting a release"');
  assert.equal(description('.github/instructions/db-migrations.instructions.md'), '"How to write and check a database migration"');
  assert.equal(description('.github/instructions/theme-notes.instructions.md'), '"Theme notes"');
  assert.equal(description('.github/instructions/api.instructions.md'), '"Rules from .cursor/rules/api.mdc"');
  assert.equal(description('.github/instructions/cli.instructions.md'), '"Rules from .cursor/rules/cli.mdc"');
  assert.equal(first.operations.length, 5);
  assert.deepEqual(second.operations, []);
});
