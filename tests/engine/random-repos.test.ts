import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { connect, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, makeRepo, removeRepo } from '../helpers/sandbox.js';

/** A random repository: nested instruction files at random depths, with long or short folder names, front matter, line ends and sizes of its own. */
const segment = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/),
  fc.integer({ min: 60, max: 200 }).map((n) => 'x'.repeat(n)),
);
const eol = fc.constantFrom('\n', '\r\n', '\r');
const rules = fc.array(fc.stringMatching(/^[A-Z][a-z ]{3,30}\.$/), { minLength: 1, maxLength: 12 });
const file = fc.record({
  folders: fc.array(segment, { maxLength: 8 }),
  name: fc.constantFrom('AGENTS.md', 'CLAUDE.md', '.cursor/rules/style.mdc'),
  eol,
  bom: fc.boolean(),
  frontMatter: fc.option(
    fc.constantFrom('alwaysApply: true', 'alwaysApply: maybe', 'globs: src/**', 'globs: a/**\nglobs: b/**', 'description: Style'),
    { nil: null },
  ),
  rules,
});

function render(f: {
  folders: string[];
  name: string;
  eol: string;
  bom: boolean;
  frontMatter: string | null;
  rules: string[];
}): [string, string] {
  const rel = [...f.folders, f.name].join('/');
  const fm = f.name.endsWith('.mdc') && f.frontMatter ? ['---', ...f.frontMatter.split('\n'), '---'] : [];
  const lines = [...fm, '# Rules', '', ...f.rules.map((r) => `- ${r}`)];
  return [rel, (f.bom ? '\uFEFF' : '') + lines.join(f.eol) + f.eol];
}

/** A repository every version so far migrates: run first, so that a run of random ones that migrates nothing still fails. */
const PLAIN = [{ folders: [], name: 'AGENTS.md' as const, eol: '\n' as const, bom: false, frontMatter: null, rules: ['Use pnpm.'] }];

test('every plan propose offers on a random repository applies and rolls back byte for byte, or was refused at propose', async (t) => {
  const seen = { migrated: 0, refused: 0, nothingToDo: 0 };
  await fc.assert(
    fc.asyncProperty(fc.array(file, { minLength: 1, maxLength: 5 }), async (files) => {
      const repo = makeRepo(Object.fromEntries(files.map(render)));
      const s = await connect({ repo, elicit: yesToAll });
      try {
        const before = hashTree(repo);
        const p = await s.call('onboarding_propose');
        if (outcomeOf(p) !== 'proposed') {
          assert.equal(outcomeOf(p), 'precondition_failed', textOf(p));
          assert.deepEqual(hashTree(repo), before);
          seen.refused++;
          return;
        }
        if ((p.structuredContent as { operations: unknown[] }).operations.length === 0) {
          seen.nothingToDo++;
          return;
        }
        const a = await s.call('onboarding_approve');
        assert.equal(outcomeOf(a), 'approved', textOf(a));
        const m = await s.call('onboarding_migrate');
        assert.equal(outcomeOf(m), 'migrated', textOf(m));
        seen.migrated++;
        const r = await s.call('onboarding_rollback');
        assert.equal(outcomeOf(r), 'rolled_back', textOf(r));
        assert.deepEqual(hashTree(repo), before);
      } finally {
        await s.close();
        removeRepo(repo);
      }
    }),
    {
      numRuns: Number(process.env.PROPERTY_RUNS ?? 4),
      seed: process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined,
      examples: [[PLAIN]],
    },
  );
  t.diagnostic(`migrated and rolled back ${seen.migrated}, refused at propose ${seen.refused}, nothing to do ${seen.nothingToDo}`);
  // A run where every repository was refused or had nothing to do proves nothing about migrate and rollback.
  assert.ok(seen.migrated > 0, `no repository was migrated: ${JSON.stringify(seen)}`);
});
