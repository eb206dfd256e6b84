import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox } from '../helpers/sandbox.js';

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

test('an existing Copilot file with sections keeps its text in place: a legacy intro and loose rules go after it, under a heading of their own', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': PERSON,
    'CLAUDE.md':
      '# CLAUDE.md\n\nGuidance for the assistant.\n\n- Run the linter.\n\n## Testing\n\n- Run tests twice.\n\n## Style\n\n- Tabs.\n',
  });
  const content = await copilotOf(repo);
  assert.equal(
    content,
    PERSON.replace('- Use vitest.\n', '- Use vitest.\n\n- Run tests twice.\n') +
      '\n## General\n\n<!-- copilot-onboard: top-level heading from CLAUDE.md, kept as a comment (one title per file):\n# CLAUDE.md\n-->\n\n' +
      'Guidance for the assistant.\n\n- Run the linter.\n\n## Style\n\n- Tabs.\n',
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

test('a managed block moved from a legacy file is written byte for byte: its headings keep their level, nothing joins it', async (t) => {
  const block =
    '<!-- BEGIN TOOL INTEGRATION -->\n## Tool\n\n- Use the tool.\n\n### Tool setup\n\n- Install it.\n<!-- END TOOL INTEGRATION -->\n';
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': '# Guide\n\n## Setup\n\n- Install node.\n',
    'AGENTS.md': `# Project rules\n\n## Build\n\n- Run make.\n\n${block}`,
    'CLAUDE.md': '# Project rules\n\n## Tool\n\n- Use the tool in CI too.\n',
  });
  const content = (await copilotOf(repo))!;
  assert.ok(content.includes(block), content);
  assert.ok(content.startsWith('# Guide\n\n## Setup\n\n- Install node.\n\n'), content);
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
