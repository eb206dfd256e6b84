import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';

/**
 * A line keeps its place among the lines it came with (issue 40): gathering the sides of a conflict
 * into one place moves a block only from another source, never a source's own lines toward each
 * other, and never a block of a source that holds the topic in more than one place (moving one would
 * split them, moving all would regroup them). The other side may sit in a file of its own.
 */
const COPILOT = '.github/copilot-instructions.md';
const MARK = '<!-- copilot-onboard: conflicting rules about package manager; decide which one stands -->';

/** The other side, in a file of its own: the site's commands with npm. */
const SITE =
  '---\ndescription: The site\nglobs: site/**\nalwaysApply: false\n---\n## Commands\n\n```bash\nnpm install\nnpm run build\nnpm run format\n```\n';

const GUIDE = [
  '# Contributor guide',
  '',
  '## Setup',
  '',
  '- Use pnpm (with Corepack) for every script.',
  '- Check out the submodules before the first build.',
  '',
  '## Style',
  '',
  '- Two-space indent. Run `pnpm run format` before you push.',
  '- Name files in kebab-case.',
  '',
].join('\n');

test('one side of a conflict spread over two sections of one source: each line stays in its section, each marked', async (t) => {
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': GUIDE,
    '.cursor/rules/site.mdc': SITE,
  });
  assert.equal(
    read(COPILOT),
    [
      '# Copilot instructions',
      '',
      '## Contributor guide',
      '',
      '### Setup',
      '',
      MARK,
      '- Use pnpm (with Corepack) for every script.',
      '- Check out the submodules before the first build.',
      '',
      '### Style',
      '',
      MARK,
      '- Two-space indent. Run `pnpm run format` before you push.',
      '- Name files in kebab-case.',
      '',
    ].join('\n'),
  );
  assert.deepEqual(second.operations, []);
});

test("a second source's side that came with other lines stays with them too: nothing is regrouped, each side is marked", async (t) => {
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': GUIDE,
    '.cursorrules': '- Install with `npm install`; run scripts with npm.\n- Keep pull requests small.\n',
  });
  const out = read(COPILOT);
  // The guide's own order: Setup's two lines together, Style's two lines together, Setup before Style.
  const at = (s: string) => out.indexOf(s);
  assert.ok(at('- Use pnpm (with Corepack) for every script.\n- Check out the submodules') >= 0, out);
  assert.ok(at('### Style\n\n') < at('- Two-space indent'), out);
  assert.ok(at('- Two-space indent. Run `pnpm run format` before you push.\n- Name files in kebab-case.') >= 0, out);
  assert.ok(at('### Setup') < at('### Style'), out);
  assert.ok(at(`${MARK}\n- Install with \`npm install\`; run scripts with npm.\n- Keep pull requests small.`) >= 0, out);
  assert.deepEqual(second.operations, []);
});
