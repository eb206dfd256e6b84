import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan, DEFAULT_CHOICES } from '../../server/src/planning/plan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * No note about a file the plan does not write (issue 40): a scoped file whose every line the person
 * chose to leave out is not created, so no note and no option speaks of it, and the file it would
 * have come from can be kept only (removing it, or pointing it at a file that is not there, would lose its text).
 */
const SCOPED = '.github/instructions/composer.instructions.md';
const FILES = {
  'AGENTS.md': '# Rules\n\n- Run the tests before each commit.\n',
  '.cursor/rules/composer.mdc':
    '---\ndescription: Composer usage\nglobs: src/api/**\n---\n\n- Cursor should use `apply_diff` for multi-file edits in src/api.\n',
  '.cursor/rules/migrations.mdc':
    '---\ndescription: How to write database migrations\n---\n\n- Cursor should use `write_to_file` for each new migration.\n',
};

test('a scoped file whose every line is left out is not written, and no note or option names it', async (t) => {
  const repo = sandbox(t, FILES);
  const scan = await scanRepository(repo);
  const base = buildPlan(scan);
  assert.ok(
    base.operations.some((o) => o.path === SCOPED),
    'written by default',
  );
  const plan = buildPlan(scan, undefined, {
    ...DEFAULT_CHOICES,
    assistants: { '.cursor/rules/composer.mdc': 'leave_out', '.cursor/rules/migrations.mdc': 'leave_out' },
  });
  const written = plan.operations.map((o) => o.path);
  assert.deepEqual(written, ['.github/copilot-instructions.md']);
  const said = [...plan.notes, ...plan.legacy.map((l) => l.note)];
  assert.deepEqual(
    said.filter((n) => n.includes('.github/instructions/')),
    [],
  );
  for (const p of ['.cursor/rules/composer.mdc', '.cursor/rules/migrations.mdc']) {
    const option = plan.legacy.find((l) => l.path === p)!;
    assert.deepEqual(option.fates, ['keep']);
    assert.match(option.note, /none of its lines go to Copilot's files/);
  }
});
