import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * A sub-project's own `.github/` (issue 40): Copilot reads `.github/` at the repository's root only, so
 * `tools/py/.github/instructions/*.instructions.md` and `tools/py/.github/copilot-instructions.md`
 * reach nobody. They are read as legacy files scoped to the sub-project and migrated, their rules landing
 * in the root's `.github/instructions/`; an `applyTo` written from the sub-project is put below it.
 */
test("a sub-project's own Copilot files are migrated, scoped to the sub-project", async (t) => {
  const repo = sandbox(t, {
    'tools/py/.github/instructions/style.instructions.md':
      "---\napplyTo: '**/*.py'\n---\n\n- Keep the export list and the stub file in step.\n",
    'tools/py/.github/instructions/api.instructions.md':
      "---\napplyTo: 'tools/py/api/**'\n---\n\n- Deprecations live in the owning module.\n",
    'tools/web/.github/copilot-instructions.md': '# Web\n\n- Use the design tokens, never raw colours.\n',
    'tools/py/main.py': '\n',
  });
  const scan = await scanRepository(repo);
  assert.deepEqual(
    scan.docs.filter((d) => d.kind === 'nested-copilot').map((d) => [d.path, d.scope]),
    [
      ['tools/py/.github/instructions/api.instructions.md', { kind: 'globs', globs: ['tools/py/api/**'] }],
      ['tools/py/.github/instructions/style.instructions.md', { kind: 'globs', globs: ['tools/py/**/*.py'] }],
      ['tools/web/.github/copilot-instructions.md', { kind: 'globs', globs: ['tools/web/**'] }],
    ],
  );
  const plan = buildPlan(scan);
  const holding = (line: string) =>
    plan.operations.find((o) => o.path.startsWith('.github/instructions/') && (o.content ?? '').includes(line));
  assert.match(holding('Keep the export list')?.content ?? '', /^---\napplyTo: "tools\/py\/\*\*\/\*\.py"\n---/);
  assert.match(holding('Deprecations live')?.content ?? '', /^---\napplyTo: "tools\/py\/api\/\*\*"\n---/);
  assert.match(holding('design tokens')?.content ?? '', /^---\napplyTo: "tools\/web\/\*\*"\n---/);
});
