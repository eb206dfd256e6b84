import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';

/** Pseudo-headings decided per block: a run of numbered items, or parallel bold lead lines, read one way. */
const COPILOT = '.github/copilot-instructions.md';

test('a numbered item followed by prose at the end of a plain numbered list stays a list item', async (t) => {
  const list = ['1. Imports sorted', '2. No default exports', '3. Named constants', '4. CSS imports', ''].join('\n');
  const { first, second, read } = await plannedTwice(t, {
    'AGENTS.md': `# Style\n\n## Conventions\n\n${list}\nCSS modules are imported last, after every other import.\n`,
  });
  const out = read(COPILOT);
  assert.match(out, /^4\. CSS imports$/m, out);
  assert.doesNotMatch(out, /#+ 4\. CSS imports/);
  assert.ok(!first.notes.some((n) => n.includes('reads as a heading')));
  assert.deepEqual(second.operations, []);
});

test('numbered steps each with lines of their own are headings together', async (t) => {
  const steps =
    '1. Plan the change\n\n- Write the issue first.\n\n2. Build it\n\n- Keep commits small.\n\n3. Ship it\n\n- Tag the release.\n';
  const { first, read } = await plannedTwice(t, { 'AGENTS.md': `# Workflow\n\n${steps}` });
  const out = read(COPILOT);
  for (const step of ['1. Plan the change', '2. Build it', '3. Ship it']) assert.match(out, new RegExp(`^#+ ${step}$`, 'm'), out);
  assert.equal(first.notes.filter((n) => n.includes('reads as a heading')).length, 3);
});

test('a run where one numbered step has no lines under it stays a list, every item of it', async (t) => {
  const steps = '1. Plan the change\n\n- Write the issue first.\n\n2. Build it\n3. Ship it\n\n- Tag the release.\n';
  const { read } = await plannedTwice(t, { 'AGENTS.md': `# Workflow\n\n${steps}` });
  const out = read(COPILOT);
  assert.doesNotMatch(out, /^#+ \d\. /m, out);
});

test('parallel bold lead lines of the same shape are promoted together: one before prose, one before a list', async (t) => {
  const { first, second, read } = await plannedTwice(t, {
    'AGENTS.md':
      '# Releases\n\n## Changesets\n\n**Changeset Format:**\n\nStart with a capital letter and describe the change.\n\n**Changeset Rules:**\n\n- Major versions are forbidden.\n- One changeset per change.\n',
  });
  const out = read(COPILOT);
  assert.match(out, /^#+ \*\*Changeset Format:\*\*$/m, out);
  assert.match(out, /^#+ \*\*Changeset Rules:\*\*\n\n- Major versions are forbidden\./m, out);
  assert.equal(first.notes.filter((n) => n.includes('reads as a heading')).length, 2);
  assert.deepEqual(second.operations, []);
});

test('parallel bold rules too long for titles stay lines together', async (t) => {
  const { first, read } = await plannedTwice(t, {
    'AGENTS.md':
      '# CSS\n\n## Writing CSS\n\n**Mobile-first media queries only, never max-width:**\n\n```css\n@media (min-width: 768px) {}\n```\n\n**Prioritize design tokens over hardcoded pixel values:**\n\nUse the spacing tokens.\n',
  });
  const out = read(COPILOT);
  assert.match(out, /^\*\*Mobile-first media queries only, never max-width:\*\*$/m, out);
  assert.match(out, /^\*\*Prioritize design tokens over hardcoded pixel values:\*\*$/m, out);
  assert.ok(!first.notes.some((n) => n.includes('reads as a heading')));
});

test('a heading repeated among its siblings in one file is one section, with a note naming both lines', async (t) => {
  const { first, second, read } = await plannedTwice(t, {
    'AGENTS.md':
      '# Guide\n\n## Testing\n\n- Run pnpm test.\n\n## Style\n\n- Prefer named exports.\n\n## Testing\n\n- Use vitest for unit tests.\n',
  });
  const out = read(COPILOT);
  assert.equal(out.split('\n').filter((l) => l === '### Testing').length, 1, out);
  assert.match(out, /### Testing\n\n- Run pnpm test\.\n\n?- Use vitest for unit tests\.\n\n### Style/);
  const note = first.notes.find((n) => n.includes('repeated among its sibling headings'));
  assert.equal(
    note,
    'AGENTS.md:3 "## Testing" is repeated among its sibling headings (line 11): .github/copilot-instructions.md has one section with that heading, the lines of each in their order under it.',
  );
  assert.deepEqual(second.operations, []);
});

test('headings with the same words under different parents, or after a new title, stay apart', async (t) => {
  const { first, read } = await plannedTwice(t, {
    'AGENTS.md': '# Guide\n\n## API\n\n### Testing\n\n- Mock the network.\n\n## Web\n\n### Testing\n\n- Use Playwright.\n',
  });
  assert.equal(
    read(COPILOT)
      .split('\n')
      .filter((l) => l === '#### Testing').length,
    2,
  );
  assert.ok(!first.notes.some((n) => n.includes('repeated among its sibling headings')));
});

test('a stray `# ` heading inside a tool-managed block below the sections of a file titled by its name stays with its block in the file (issue 40), and moves no other chapter (trigger.dev AGENTS.md)', async (t) => {
  const files = {
    'AGENTS.md':
      '# AGENTS.md\n\n## Build\n\n- Run pnpm build.\n\n### Verify\n\n- Run typecheck.\n\n<!-- intent-skills:start -->\n\n# Skill mappings\n\n- Load the skill file.\n\n<!-- intent-skills:end -->\n\n## Testing\n\n- Use vitest.\n',
  };
  const { first, second } = await plannedTwice(t, files);
  assert.deepEqual(second.operations, [], 'a second plan after the migration changes nothing');
  assert.equal(
    first.operations[0]!.content,
    '# Copilot instructions\n\n<!-- copilot-onboard: top-level heading from AGENTS.md, kept as a comment (one title per file):\n# AGENTS.md\n-->\n\n## Build\n\n- Run pnpm build.\n\n### Verify\n\n- Run typecheck.\n\n## Testing\n\n- Use vitest.\n',
  );
});

test('a `# ` heading below the sections with chapters of its own stays an outline: every chapter one level down (coolify CLAUDE.md)', async (t) => {
  const { first, second } = await plannedTwice(t, {
    'AGENTS.md': '# AGENTS.md\n\n## Build\n\n- Run pnpm build.\n\n# Laravel Guidelines\n\n## Conventions\n\n- Follow the conventions.\n',
  });
  assert.deepEqual(second.operations, []);
  assert.equal(
    first.operations[0]!.content,
    '# Copilot instructions\n\n<!-- copilot-onboard: top-level heading from AGENTS.md, kept as a comment (one title per file):\n# AGENTS.md\n-->\n\n### Build\n\n- Run pnpm build.\n\n## Laravel Guidelines\n\n### Conventions\n\n- Follow the conventions.\n',
  );
});
