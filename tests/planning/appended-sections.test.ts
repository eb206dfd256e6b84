import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * A body appended to a file with sections starts at the file's top section level (issue 40): text
 * without a heading of its own, or under deeper headings only, would read as part of the file's last
 * subsection. A line that points at another file whose rules land in the same file stays: that file
 * is kept by default, and dropping the line made a second plan append the rest of its paragraph again.
 */
const TARGET = '.github/instructions/python.instructions.md';
const AGENTS =
  '# AGENTS.md\n\nInstructions for agents in the Python code.\n\n## Packages\n\n### Core\n- core: the base.\n\n### Experimental\n- lab: experiments.\n';
const NESTED =
  "---\napplyTo: 'python/**'\n---\n\nSee [AGENTS.md](../../AGENTS.md) for the package list.\n\nKeep the export registry and `__all__` in sync.\n";

test('a headless body goes first in a new scoped file, under no heading of the tool; the sections of the other file follow', async (t) => {
  const repo = sandbox(t, {
    'python/AGENTS.md': AGENTS,
    'python/.github/instructions/python.instructions.md': NESTED,
    'python/pyproject.toml': '',
  });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === TARGET)?.content ?? '';
  // A line pointing at the other file whose rules land here stays, its link rewritten to lead there: that file is kept by default.
  assert.equal(
    content,
    '---\napplyTo: "python/**"\n---\n\nSee [AGENTS.md](../../python/AGENTS.md) for the package list.\n\nKeep the export registry and `__all__` in sync.\n\n' +
      '# AGENTS.md\n\nInstructions for agents in the Python code.\n\n## Packages\n\n### Core\n- core: the base.\n\n### Experimental\n- lab: experiments.\n',
  );
  assert.deepEqual(plan.dropped, []);
});

test("a headless body appended after the last subsection of a scoped file that is there goes under a heading at the file's top section level", async (t) => {
  const repo = sandbox(t, {
    [TARGET]: "---\napplyTo: 'python/**'\n---\n\n## Packages\n\n### Core\n- core: the base.\n\n### Experimental\n- lab: experiments.\n",
    'python/AGENTS.md': 'Keep the export registry and `__all__` in sync.\n',
    'python/pyproject.toml': '',
  });
  const plan = buildPlan(await scanRepository(repo));
  const content = plan.operations.find((o) => o.path === TARGET)?.content ?? '';
  assert.ok(
    content.endsWith('### Experimental\n- lab: experiments.\n\n## General\n\nKeep the export registry and `__all__` in sync.\n'),
    content,
  );
});

test('a body that opens with a heading at the top section level, or a file without sections, gets no heading of the tool', async (t) => {
  const cases = [
    {
      nested: "---\napplyTo: 'python/**'\n---\n\n## Exports\n\nKeep the export registry in sync.\n",
      tail: '- lab: experiments.\n\n## Exports\n\nKeep the export registry in sync.\n',
    },
  ];
  for (const c of cases) {
    const repo = sandbox(t, {
      'python/AGENTS.md': AGENTS,
      'python/.github/instructions/python.instructions.md': c.nested,
      'python/pyproject.toml': '',
    });
    const content = buildPlan(await scanRepository(repo)).operations.find((o) => o.path === TARGET)?.content ?? '';
    assert.ok(content.endsWith(c.tail), content);
  }
});
