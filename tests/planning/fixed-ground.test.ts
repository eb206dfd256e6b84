import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { insertMarks } from '../../server/src/planning/render/marks.js';
import { LineMap } from '../../server/src/planning/render/line-map.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';

/**
 * The person's text is fixed ground (issue 40): in an existing Copilot file with sections, nothing
 * the person wrote moves and nothing is put above their sections; new text goes after it. Managed
 * blocks (`<!-- BEGIN … -->` … `<!-- END … -->`, any tool) are written byte for byte, and nothing is
 * put inside or across them.
 */
const PERSON =
  '# Guide\n\nIntro of the person.\n\n## Overview\n\n- Keep it small.\n\n' +
  '<!-- BEGIN beads managed -->\n## Beads\n\n- Use bd.\n\n## Beads workflow\n\n- Sync with bd.\n<!-- END beads managed -->\n\n' +
  '## Testing\n\n- Use vitest.\n';

const copilotOf = async (repo: string) =>
  buildPlan(await scanRepository(repo)).operations.find((o) => o.path === '.github/copilot-instructions.md')?.content;

test("an existing Copilot file with sections keeps its text in place: a legacy file goes after it, its chapters under a heading of their own, never into the person's section of the same name", async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': PERSON,
    'CLAUDE.md':
      '# CLAUDE.md\n\nGuidance for the assistant.\n\n- Run the linter.\n\n## Testing\n\n- Run tests twice.\n\n## Style\n\n- Tabs.\n',
  });
  const content = await copilotOf(repo);
  assert.equal(
    content,
    PERSON +
      '\n## General\n\n<!-- copilot-onboard: top-level heading from CLAUDE.md, kept as a comment (one title per file):\n# CLAUDE.md\n-->\n\n' +
      'Guidance for the assistant.\n\n- Run the linter.\n\n### Testing\n\n- Run tests twice.\n\n### Style\n\n- Tabs.\n',
  );
});

test('nothing is put inside or across a managed block of the Copilot file: a section ending inside one takes no text', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': PERSON,
    'AGENTS.md': '# AGENTS.md\n\n## Beads\n\n- Close issues with bd close.\n',
  });
  const content = (await copilotOf(repo))!;
  assert.ok(content.startsWith(PERSON), content);
  assert.ok(content.includes('- Close issues with bd close.'), content);
});

test('a title and the lead-in under it stay together in an existing Copilot file without sections: no heading is put between them, new sections go after', async (t) => {
  const cases = [
    '# Review notes\n\nWhen you review a pull request here:\n\n- Treat files under `samples/` as examples.\n- Flag a missing changelog entry.\n',
    '# Notes for the assistant\n\nBefore you commit, run these:\n\n```sh\npnpm test\npnpm lint\n```\n',
  ];
  for (const person of cases) {
    const repo = sandbox(t, {
      '.github/copilot-instructions.md': person,
      'AGENTS.md': '# Project\n\n## Build\n\n- Build with make.\n\n## Style\n\n- Use tabs.\n',
    });
    const content = (await copilotOf(repo))!;
    assert.ok(content.startsWith(`${person}\n## `), content);
    assert.ok(content.includes('- Build with make.') && content.includes('- Use tabs.'), content);
  }
});

test('a conflict mark for a side inside a managed block goes above the block, never inside it', () => {
  const lines = ['## Tools', '', '<!-- pkg-start -->', '## pkg usage', '', '- Use npm.', '<!-- pkg-end -->'];
  const at = { path: 'AGENTS.md', line: 6 };
  const marked = insertMarks(
    { lines, refs: lines.map((_, i) => ({ path: 'AGENTS.md', line: i + 1 })) },
    new LineMap([[at, ['package manager']]]),
  );
  assert.deepEqual(marked.lines, [
    '## Tools',
    '',
    '<!-- copilot-onboard: conflicting rules about package manager; decide which one stands -->',
    ...lines.slice(2),
  ]);
});

test("a guide moved into the person's Copilot file goes after their text under its own title, never into their sections of the same name", async (t) => {
  const person =
    '# Widgets for Copilot\n\n## Project Overview\n\nWidgets is a CLI.\n\n## Setup\n\n### Server\nUse the server for calls:\n- Install: `pip install widgets-server`\n\n## Testing\n\n- Run `make test`.\n';
  const cases: Record<string, string> = {
    // A guide whose title names a file: its chapters go one level down under a heading of their own.
    'CLAUDE.md':
      '# CLAUDE.md\n\n## Project Overview\n\nWidgets has three layers.\n\n## Build\n\n> Do NOT use `go install` directly.\n> Always use `make install`.\n\n## Testing\n\n- Run `make test` with `-race`.\n',
    // A guide with a subject of its own: under its title, whatever its chapters share with the person's.
    'AGENTS.md': '# Widgets guide\n\n## Project Overview\n\nWidgets has three layers.\n\n## Testing\n\n- Run `make test` with `-race`.\n',
  };
  for (const [source, text] of Object.entries(cases)) {
    const repo = sandbox(t, { '.github/copilot-instructions.md': person, [source]: text });
    const plan = buildPlan(await scanRepository(repo));
    const content = plan.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content!;
    const unmarked = content.replace(/^<!-- copilot-onboard: conflicting rules about [^\n]*\n/gm, '');
    assert.ok(unmarked.startsWith(`${person}\n## `), content);
    const added = unmarked.slice(person.length);
    assert.ok(!/^## (Project Overview|Testing)$/m.test(added), `no second section of the person's name:\n${added}`);
    assert.match(added, /^### Project Overview\n\nWidgets has three layers\.$/m);
    assert.match(added, /^### Testing\n\n- Run `make test` with `-race`\.$/m);
  }
});

test("one source's text is not split apart: its title, kept as a comment, stands right above its first chapter wherever that lands, and a second plan has nothing to do", async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md':
      '# AGENTS.md\n\nGuidance for agents working here.\n\n## Build\n\n- Run make before pushing.\n\n## Testing\n\n- Run make test.\n',
    'CLAUDE.md': '# CLAUDE.md\n\n## Required reading\n\nRead the design notes in docs/design.md before any change.\n',
  });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content!;
  const comment = (name: string) =>
    `<!-- copilot-onboard: top-level heading from ${name}, kept as a comment (one title per file):\n# ${name}\n-->`;
  assert.equal(
    content,
    `# Copilot instructions\n\n${comment('AGENTS.md')}\n\nGuidance for agents working here.\n\n## Build\n\n- Run make before pushing.\n\n` +
      `## Testing\n\n- Run make test.\n\n${comment('CLAUDE.md')}\n\n## Required reading\n\nRead the design notes in docs/design.md before any change.\n`,
  );
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});
