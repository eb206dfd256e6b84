// A legacy document whose first headings are deeper than its sections (`### ` before any `## `):
// those sections go after the Copilot file's own, under one `## ` heading of their own, never above
// the person's sections (which would precede them) nor right after them (which would cut into the last).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';

const COPILOT = '.github/copilot-instructions.md';
const REVIEW = '## PR Review Guidelines\n\nWhen reviewing pull requests:\n\n- Only comment on bugs.\n';
const LEAD =
  '### Monorepo Packages\n\n| Package | Purpose |\n|---|---|\n| `core` | engine |\n\n### Key Directories\n\n- `tests/`: all suites\n';
const BUILD = '## Build\n\n```bash\nnpm run build\n```\n';

test("opening `### ` sections follow the Copilot file's own sections, under a `## ` heading named after their topic", async (t) => {
  const { first, second, read } = await plannedTwice(t, { [COPILOT]: REVIEW, 'CLAUDE.md': `${LEAD}\n${BUILD}` });
  assert.equal(first.operations.find((o) => o.path === COPILOT)?.content, `${REVIEW}\n## Project structure\n\n${LEAD}\n${BUILD}`);
  assert.equal(read(COPILOT), `${REVIEW}\n## Project structure\n\n${LEAD}\n${BUILD}`);
  assert.deepEqual(second.operations, []);
});

test("opening `### ` sections never join the person's section of the name they would be given: they go after it, under `## General`", async (t) => {
  const own = '## Project structure\n\n- Code lives in `src/`.\n';
  const { first, second } = await plannedTwice(t, { [COPILOT]: `${REVIEW}\n${own}`, 'CLAUDE.md': `${LEAD}\n${BUILD}` });
  assert.equal(first.operations.find((o) => o.path === COPILOT)?.content, `${REVIEW}\n${own}\n## General\n\n${LEAD}\n${BUILD}`);
  assert.deepEqual(second.operations, []);
});

test('opening `### ` sections with no confident topic go under `## General`, in the order the file gives', async (t) => {
  const lead = '### Tone\n\n- Be brief.\n';
  const { first, second } = await plannedTwice(t, { [COPILOT]: REVIEW, 'AGENTS.md': `${lead}\n${BUILD}` });
  assert.equal(first.operations.find((o) => o.path === COPILOT)?.content, `${REVIEW}\n## General\n\n${lead}\n${BUILD}`);
  assert.deepEqual(second.operations, []);
});

test('a heading of their own never repeats one of theirs: `### Build` goes under `## General`, not `## Build`', async (t) => {
  const agents = '# AGENTS.md\n\n## Build\n\n- Run pnpm build.\n\n# Laravel Guidelines\n\n## Conventions\n\n- Follow the conventions.\n';
  const { first, second } = await plannedTwice(t, { [COPILOT]: REVIEW, 'AGENTS.md': agents });
  assert.equal(
    first.operations.find((o) => o.path === COPILOT)?.content,
    // Nothing goes above the person's sections (issue 40): the title kept as a comment goes under the heading of their own.
    `${REVIEW}\n## General\n\n<!-- copilot-onboard: top-level heading from AGENTS.md, kept as a comment (one title per file):\n# AGENTS.md\n-->\n\n` +
      '### Build\n\n- Run pnpm build.\n\n## Laravel Guidelines\n\n### Conventions\n\n- Follow the conventions.\n',
  );
  assert.deepEqual(second.operations, []);
});

test('a target without sections of its own keeps opening `### ` sections under its title, where they precede nothing', async (t) => {
  const { first, second } = await plannedTwice(t, { 'CLAUDE.md': `${LEAD}\n${BUILD}` });
  assert.equal(first.operations.find((o) => o.path === COPILOT)?.content, `# Copilot instructions\n\n${LEAD}\n${BUILD}`);
  assert.deepEqual(second.operations, []);
});
