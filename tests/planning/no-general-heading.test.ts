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
