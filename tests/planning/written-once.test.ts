import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';
import { emptyHeadings } from '../helpers/debris.js';

/**
 * Written once (issue 40): a unit the plan reports as an exact duplicate of one written before it in
 * the same section is written once, and the plan names it in `merged` with its reason. A repeat that
 * stands after another lead-in, or in another section, is its own context's and stays.
 */
const COPILOT = '.github/copilot-instructions.md';

const BODY =
  '## Testing\n\n- Run the unit tests with vitest before each commit.\n- Keep fixtures small and named after the case.\n\n' +
  '## Style\n\n- Use two spaces for indentation in every file.\n';

test('a source whose body is written twice is written once: the repeated lines are named as merged, with the line they repeat', async (t) => {
  const repo = sandbox(t, { 'CLAUDE.md': `# Project\n\n${BODY}\n# Project\n\n${BODY}` });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === COPILOT)!.content;
  assert.equal(
    content,
    '# Copilot instructions\n\n## Project\n\n### Testing\n\n- Run the unit tests with vitest before each commit.\n' +
      '- Keep fixtures small and named after the case.\n\n### Style\n\n- Use two spaces for indentation in every file.\n',
  );
  const repeats = plan.merged.filter((m) => m.repeat).map((m) => [m.path, m.line, m.keptAt.path, m.keptAt.line]);
  assert.deepEqual(repeats, [
    ['CLAUDE.md', 16, 'CLAUDE.md', 5],
    ['CLAUDE.md', 17, 'CLAUDE.md', 6],
    ['CLAUDE.md', 21, 'CLAUDE.md', 10],
  ]);
  const note = plan.notes.find((n) =>
    n.startsWith('CLAUDE.md: lines 16, 17, 21 repeat what the same section says before (lines 5, 6, 10)'),
  );
  assert.ok(note?.includes(`written once in ${COPILOT}`), plan.notes.join('\n'));
});

test('a repeat after another lead-in, or under another heading, stands in its own context and is written again', async (t) => {
  const source =
    '# Integrations\n\n## Setup\n\n**Agent integration**:\n- Installed when the app starts.\n- The dependency must be added to the project.\n\n' +
    '**Manual integration**:\n- Set up by hand in code.\n- The dependency must be added to the project.\n\n' +
    '## Release\n\n- The dependency must be added to the project.\n';
  const repo = sandbox(t, { 'AGENTS.md': source });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.equal(content.split('- The dependency must be added to the project.').length - 1, 3, content);
  assert.deepEqual(
    plan.merged.filter((m) => m.repeat),
    [],
  );
});

test('a scoped file writes a list item its source repeats in one section once, and names it', async (t) => {
  const rules =
    '---\ndescription: Webapp code\nglobs: apps/webapp/**\n---\n\n## Where to look\n\n' +
    '- The routes are in app/routes and named after their path.\n- The services are in app/services, one class a file.\n\n' +
    '- The services are in app/services, one class a file.\n- Presenters move loader code into a class.\n';
  const repo = sandbox(t, { '.cursor/rules/webapp.mdc': rules });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === '.github/instructions/webapp.instructions.md')!.content!;
  assert.equal(
    content.slice(content.indexOf('## Where to look')),
    '## Where to look\n\n- The routes are in app/routes and named after their path.\n- The services are in app/services, one class a file.\n\n' +
      '- Presenters move loader code into a class.\n',
  );
  assert.deepEqual(
    plan.merged.filter((m) => m.repeat).map((m) => [m.path, m.line, m.keptAt.line]),
    [['.cursor/rules/webapp.mdc', 11, 9]],
  );
});

test('after the migration a second plan finds the repeated body written already: nothing to do', async (t) => {
  const repo = sandbox(t, { 'CLAUDE.md': `# Project\n\n${BODY}\n# Project\n\n${BODY}` });
  const first = buildPlan(await scanRepository(repo));
  for (const op of first.operations) writeFile(repo, op.path, op.content!);
  const second = buildPlan(await scanRepository(repo));
  assert.deepEqual(
    second.operations.map((o) => o.path),
    [],
  );
  assert.ok(fs.existsSync(path.join(repo, COPILOT)));
});

const DIGEST =
  '# Copilot instructions\n\nA digest of AGENTS.md for Copilot.\n\n## Setup\n\n- Install dependencies with `pnpm install`.\n\n' +
  '## Testing\n\n- Run `pnpm test` before every commit.\n- Run `pnpm test:e2e` for the browser tests.\n\n## Style\n\n- Use two spaces for indentation.\n';
const DIGESTED =
  '# Acme Widgets\n\nGuidance for coding agents working in this repository.\n\n## Setup\n\n- Install dependencies with `pnpm install`.\n- Use Node 20 or later.\n\n' +
  '## Testing\n\n- Run `pnpm test` before every commit.\n- Put new tests next to the code they cover.\n\n' +
  '## Style\n\n- Use two spaces for indentation.\n- Prefer named exports over default exports.\n';

test("a Copilot digest and the file it digests: the lines the digest has are written once, the source's new lines go after the digest under the source's title", async (t) => {
  const repo = sandbox(t, { [COPILOT]: DIGEST, 'AGENTS.md': DIGESTED });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.equal(
    content,
    DIGEST +
      '\n## Acme Widgets\n\nGuidance for coding agents working in this repository.\n\n### Setup\n\n- Use Node 20 or later.\n\n' +
      '### Testing\n\n- Put new tests next to the code they cover.\n\n### Style\n\n- Prefer named exports over default exports.\n',
  );
  // The digest's own line, which its source does not have, is kept and reported.
  const note = plan.notes.find((n) => n.startsWith(`${COPILOT} and AGENTS.md share rules in the sections "Setup", "Testing", "Style"`));
  assert.ok(note?.includes('line 12 "- Run `pnpm test:e2e` for the browser tests."'), plan.notes.join('\n'));
});

test('a source whose every rule the digest has already leaves no heading with only its kept title under it', async (t) => {
  const repo = sandbox(t, { [COPILOT]: DIGEST, 'CLAUDE.md': '# CLAUDE.md\n\n## Testing\n\n- Run `pnpm test` before every commit.\n' });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.equal(
    content,
    `${DIGEST}\n<!-- copilot-onboard: top-level heading from CLAUDE.md, kept as a comment (one title per file):\n# CLAUDE.md\n-->\n`,
  );
  assert.deepEqual(emptyHeadings(content.split('\n')), []);
});

test("a digest, its source and a third file with the same chapter leave the person's chapter as it is, write each new line once; a second plan is a no-op", async (t) => {
  const repo = sandbox(t, {
    [COPILOT]: DIGEST,
    'AGENTS.md': DIGESTED,
    'CLAUDE.md': '# CLAUDE.md\n\n## Testing\n\n- Run `pnpm test` before every commit.\n- Mock the network in unit tests.\n',
  });
  const first = buildPlan(await scanRepository(repo));
  const content = first.operations.find((o) => o.path === COPILOT)!.content!;
  assert.ok(content.startsWith(DIGEST), content);
  assert.equal(content.split('\n').filter((l) => /^## Testing$/.test(l)).length, 1, content);
  assert.equal(content.split('- Mock the network in unit tests.').length, 2, content);
  assert.equal(content.split('- Run `pnpm test` before every commit.').length, 2, content);
  for (const op of first.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});

test("a guide appended to the person's Copilot file drops the bullets the file holds already, each named in merged, and keeps the rest of the list; a second plan is a no-op", async (t) => {
  const code = '```bash\nnpm install\nnpm run dev\nnpm run lint\n```\n';
  const person = `# Guide for Copilot\n\n## Commands\n\n${code}\n## Review\n\n- Check the types.\n- Run the linter.\n`;
  const guide = `# Widgets agents guide\n\n## Essential commands\n\n${code}\nUse Node 20 or later.\n\n## Definition of done\n\n- Check the types.\n- Write a changelog entry.\n- Run the linter.\n`;
  const repo = sandbox(t, { [COPILOT]: person, 'AGENTS.md': guide });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.equal(
    content,
    `${person}\n## Widgets agents guide\n\n### Essential commands\n\nUse Node 20 or later.\n\n### Definition of done\n\n- Write a changelog entry.\n`,
  );
  // Its commands section is mostly the person's (three of its four lines): a twin section, whose code
  // block the person's section holds line for line is merged, line by line (issue 40).
  assert.deepEqual(
    plan.merged.map((m) => `${m.path}:${m.line} -> ${m.keptAt.path}:${m.keptAt.line}`),
    [5, 6, 7, 8, 9]
      .map((l) => `AGENTS.md:${l} -> ${COPILOT}:${l}`)
      .concat([`AGENTS.md:15 -> ${COPILOT}:13`, `AGENTS.md:17 -> ${COPILOT}:14`]),
  );
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});

test('two files that say the same words, one linking a file and one importing it with @, are written once: the link stands, the other is named as merged', async (t) => {
  const style = 'Read [docs/style.md](docs/style.md) before you change code, and keep commits small.\n';
  const repo = sandbox(t, {
    'docs/style.md': '# Style\n',
    'AGENTS.md': style,
    'CLAUDE.md': 'Read @docs/style.md before you change code, and keep commits small.\n',
    'GEMINI.md': 'Read [the style guide](docs/style.md) before you change code, and keep commits small.\n',
  });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === COPILOT)!.content!;
  // The link is rewritten from .github/; the words with another link text are not the same and stay.
  assert.equal(content.split('before you change code, and keep commits small.').length - 1, 2, content);
  assert.ok(content.includes('Read [docs/style.md](../docs/style.md) before you change code'), content);
  assert.ok(content.includes('Read [the style guide](../docs/style.md) before you change code'), content);
  assert.ok(!content.includes('@docs/style.md'), content);
  assert.deepEqual(
    plan.merged.map((m) => [m.path, m.line, m.keptAt.path, m.keptAt.line]),
    [['CLAUDE.md', 1, 'AGENTS.md', 1]],
  );
  // After the migration, a second plan has nothing to write.
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  const second = buildPlan(await scanRepository(repo));
  assert.deepEqual(
    second.operations.map((o) => o.path),
    [],
  );
});

test('a section two guides hold word for word, heading and all, is written once: the second copy is named as merged; one that differs by a line stays whole', async (t) => {
  const commands = '## Essential Commands\n\n```bash\n# Development\nnpm run dev\n\n# Build\nnpm run build\n```\n\n---\n\n';
  const review = '## Review\n\n- Ask for one reviewer.\n- Squash before merging.\n\n';
  const person = '# Guide\n\n## Build\n\n- Run npm run build before pushing.\n';
  const repo = sandbox(t, {
    [COPILOT]: person,
    '.agents/AGENTS.md': `# AGENTS.md - App\n\n## Rules\n\n- Keep modules small.\n\n${commands}${review}## Done\n\n- Tests pass.\n`,
    '.claude/CLAUDE.md': `# CLAUDE.md - App\n\n## Overview\n\n- A web app.\n\n${commands}${review.replace('- Squash', '- Rebase, then squash')}## Scope\n\n- No mobile.\n`,
  });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.equal(content.split('## Essential Commands').length - 1, 1, content);
  assert.equal(content.split('npm run dev').length - 1, 1, content);
  // The review sections differ by a line: both are written, nothing that differs is lost (a bullet
  // said word for word in both is one rule wherever it stands, written once as before).
  assert.equal(content.split('### Review').length - 1, 2, content);
  assert.ok(content.includes('- Rebase, then squash before merging.') && content.includes('\n- Squash before merging.'), content);
  assert.equal(
    content.slice(content.indexOf('## CLAUDE.md - App')),
    '## CLAUDE.md - App\n\n### Overview\n\n- A web app.\n\n### Review\n\n- Rebase, then squash before merging.\n\n### Scope\n\n- No mobile.\n',
  );
  assert.deepEqual(
    plan.merged.map((m) => [m.path, m.line, m.keptAt.path, m.keptAt.line]),
    [
      ['.claude/CLAUDE.md', 7, '.agents/AGENTS.md', 7],
      ['.claude/CLAUDE.md', 9, '.agents/AGENTS.md', 9],
      ['.claude/CLAUDE.md', 17, '.agents/AGENTS.md', 17],
      ['.claude/CLAUDE.md', 21, '.agents/AGENTS.md', 21],
    ],
  );
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  const second = buildPlan(await scanRepository(repo));
  assert.deepEqual(
    second.operations.map((o) => o.path),
    [],
  );
});
