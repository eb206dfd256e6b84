import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';
import { flatSectionName, isRuleList } from '../../server/src/planning/render/flat-document.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';

/** A heading-less file or `.mdc` body is one unit, under a heading named after it, unless it is a list of rules. */
const COPILOT = '.github/copilot-instructions.md';
const always = (description: string, body: string) => `---\ndescription: ${description}\nglobs:\nalwaysApply: true\n---\n${body}`;

test('a heading-less .mdc body stays whole, in order, under a heading built from its description', async (t) => {
  const body =
    'Almost all commands should be run with `pnpm run` from the root. For example:\n\n```\npnpm run dev --filter webapp\n```\n\nBut when running tests, `cd` into the package first:\n\n```\ncd apps/webapp\npnpm run test --run\n```\n';
  const { first, second, read } = await plannedTwice(t, {
    'AGENTS.md': '# Shop\n\n## Dependencies\n\n- Pin exact versions.\n',
    '.cursor/rules/executing-commands.mdc': always('how to run commands in the monorepo', body),
  });
  const out = read(COPILOT);
  assert.ok(out.includes(`## How to run commands in the monorepo\n\n${body}`), out);
  assert.match(out, /## Shop\n\n### Dependencies\n\n- Pin exact versions\.\n/);
  assert.ok(!first.notes.some((n) => n.includes('"description" is not carried')), 'the description is the heading: carried');
  assert.deepEqual(second.operations, []);
});

test('a one-line pointer file keeps its topic: under its description, not loose at the top', async (t) => {
  const { read } = await plannedTwice(t, {
    'AGENTS.md': '# Shop\n\n- Use pnpm.\n',
    '.cursor/rules/repo.mdc': always(
      'understanding the structure of the monorepo',
      "We've documented the structure here: [repo.md](docs/repo.md)\n",
    ),
  });
  assert.match(read(COPILOT), /## Understanding the structure of the monorepo\n\nWe've documented the structure here/);
});

test('without a description, a rule file is named after its file; a tree stays with the sentence that introduces it', async (t) => {
  const body = 'The project is laid out like this\n\n```\nsrc/\n  api/\n  web/\n```\n\n- Write tests next to the code.\n';
  const { read } = await plannedTwice(t, { '.cursor/rules/10-project-layout.always.mdc': `---\nalwaysApply: true\n---\n${body}` });
  assert.ok(read(COPILOT).includes(`## Project layout\n\n${body}`), read(COPILOT));
});

test('a flat list of independent one-line imperatives is still split and sorted by topic', async (t) => {
  const { read } = await plannedTwice(t, {
    '.cursorrules': '- Use pnpm to install dependencies.\n- Write tests with vitest for every module.\n- Never commit secrets.\n',
  });
  const out = read(COPILOT);
  assert.match(out, /^## Testing$/m, out);
  assert.doesNotMatch(out, /^## Cursorrules$/im);
});

test('what reads as a list of rules, and the names a heading-less file gets', () => {
  const units = (text: string) => splitUnits('f.md', text.split('\n'));
  assert.equal(isRuleList(units('- Use pnpm.\n- Never commit secrets.\n- Keep functions small.')), true);
  assert.equal(isRuleList(units('- Use pnpm.\n- Never commit secrets.')), false, 'two lines are no list to split');
  assert.equal(isRuleList(units('- Use pnpm.\n- All packages publish from the workspace.\n- Keep functions small.')), false);
  assert.equal(
    flatSectionName({ path: '.cursor/rules/a.mdc', description: 'Repository conventions. Always applied.' }),
    'Repository conventions',
  );
  assert.equal(flatSectionName({ path: 'src/.cursor/rules/20-typescript.auto.mdc', description: null }), 'Typescript');
  assert.equal(flatSectionName({ path: '.clinerules/release_steps.md', description: null }), 'Release steps');
  assert.equal(flatSectionName({ path: 'AGENTS.md', description: null }), null);
});
