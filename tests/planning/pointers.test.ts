import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * A pointer file's other lines (issue 40): a file whose first line points at the Copilot file and
 * whose next line is a real rule is no pointer. The rule lands like any rule; the line pointing at
 * the file it now lives in is not copied into it, and the notes say so. A file that only points
 * stays a pointer.
 */
const COPILOT = '# Copilot instructions\n\n## Testing\n\n- Use vitest.\n';

test('a rule after the pointer line lands in the Copilot file; the pointer line is named, not copied', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': COPILOT,
    '.cursor/rules/main.mdc':
      '---\nalwaysApply: true\n---\nSee [the instructions](mdc:.github/copilot-instructions.md).\nRun the tests you wrote until they pass.\n',
  });
  const plan = buildPlan(await scanRepository(repo));
  const copilot = plan.operations.find((o) => o.path === '.github/copilot-instructions.md');
  assert.equal(copilot?.content, `${COPILOT}\n## Main\n\nRun the tests you wrote until they pass.\n`);
  const note = plan.notes.find((n) => n.startsWith('.cursor/rules/main.mdc:4 '));
  assert.ok(note, plan.notes.join('\n'));
  assert.match(note, /points at \.github\/copilot-instructions\.md, where the file's other lines now go: it is not copied/);
  assert.ok(!plan.notes.some((n) => n.includes('main.mdc points at')), plan.notes.join('\n'));
});

test('a rule after an @import of the Copilot file lands, the import line is not written into the file it names', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': COPILOT,
    '.cursor/rules/review.mdc':
      '---\nalwaysApply: true\n---\n@.github/copilot-instructions.md\n\nRun the tests you wrote until they pass.\n',
  });
  const plan = buildPlan(await scanRepository(repo));
  const copilot = plan.operations.find((o) => o.path === '.github/copilot-instructions.md');
  assert.equal(copilot?.content, `${COPILOT}\n## Review\n\nRun the tests you wrote until they pass.\n`);
});

test('a file that only points, or points and says what the file is, stays a pointer', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': COPILOT,
    'CLAUDE.md': '# Rules\n\nSee [the instructions](.github/copilot-instructions.md). It is the single source of truth.\n',
  });
  const plan = buildPlan(await scanRepository(repo));
  assert.deepEqual(plan.operations, []);
  assert.ok(
    plan.notes.some((n) => n.startsWith('CLAUDE.md points at .github/copilot-instructions.md')),
    plan.notes.join('\n'),
  );
});

test('a heading whose only line points at the Copilot file goes with it, and a note names it: no line is dropped silently', async (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': '# Guide\n\n## Setup\n\n- Install node.\n',
    'CLAUDE.md':
      '# CLAUDE.md\n\n## Conventions\n\nSee [the Copilot instructions](.github/copilot-instructions.md).\n\n## Testing\n\n- Run the unit tests before each commit.\n',
  });
  const plan = buildPlan(await scanRepository(repo));
  const copilot = plan.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content!;
  assert.ok(!copilot.includes('Conventions'), copilot);
  const note = plan.notes.find((n) => n.startsWith('CLAUDE.md:3 "## Conventions"'));
  assert.ok(note?.includes('every line under it is left out of'), plan.notes.join('\n'));
});
