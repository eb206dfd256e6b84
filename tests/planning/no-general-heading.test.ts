import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';

/**
 * A heading-less file whose rules go to a new scoped file with another file's sections is written
 * first, under no heading, as it had none (issue 40: "## General" was the tool's own heading over a
 * nested Copilot file's text, appended after the sections, where without it the text would read as
 * part of the last one).
 */
test('a heading-less body leads a new scoped file, with no heading of the tool; the sections of the other file follow', async (t) => {
  const { second, read } = await plannedTwice(t, {
    'web/AGENTS.md': '# Web app\n\n## Components\n\n- One component per file.\n\n## Styles\n\n- Use CSS modules.\n',
    'web/.github/instructions/web.instructions.md':
      "---\napplyTo: 'web/**'\n---\n\nRun `pnpm dev` from this folder.\nKeep the bundle under 200 kB.\n",
  });
  assert.equal(
    read('.github/instructions/web.instructions.md'),
    [
      '---',
      'applyTo: "web/**"',
      '---',
      '',
      'Run `pnpm dev` from this folder.',
      'Keep the bundle under 200 kB.',
      '',
      '# Web app',
      '',
      '## Components',
      '',
      '- One component per file.',
      '',
      '## Styles',
      '',
      '- Use CSS modules.',
      '',
    ].join('\n'),
  );
  assert.deepEqual(second.operations, []);
});

test("a legacy file's text before its first heading goes under a General naming its source where the Copilot file has a General; a second plan finds it written", async (t) => {
  // Found by the fuzzed property (tests/planning/multiplicity.test.ts, seed 117156592): the table went under
  // a second "## General", and the next plan merged the two Generals and wrote the table again.
  const { second, read } = await plannedTwice(t, {
    '.github/copilot-instructions.md': '## General\n\n**Example:**\n\n- X rule.\n',
    'CLAUDE.md': '| a | b |\n\n---\n\n## Build and dependencies\n\n**Example:**\n\n- X rule.\n',
  });
  assert.equal(
    read('.github/copilot-instructions.md'),
    '## General\n\n**Example:**\n\n- X rule.\n\n## General (CLAUDE.md)\n\n| a | b |\n\n---\n',
  );
  assert.deepEqual(second.operations, []);
});

test('a lone tag a legacy file has on top, written after the text of a Copilot file without sections, is found there by a second plan', async (t) => {
  const { second, read } = await plannedTwice(t, {
    '.github/copilot-instructions.md': '### Example\n\nOtherwise, use npm to install.\n\nUse the cache.\n',
    'CLAUDE.md': '</Tab>\n\n## General\n\nOtherwise, use npm to install.\n\nUse the cache.\n',
  });
  const copilot = '### Example\n\nOtherwise, use npm to install.\n\nUse the cache.\n';
  assert.equal(read('.github/copilot-instructions.md'), `${copilot}\n</Tab>\n`);
  assert.deepEqual(second.operations, []);
});
