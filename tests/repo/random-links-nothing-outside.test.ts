import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fc from 'fast-check';
import { connect, yesToAll } from '../helpers/mcp.js';
import { round, sandbox } from '../helpers/sandbox.js';
import { RULES, SCOPED, outsideDir, snapshot, placeLink } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: Property: random links, a whole accepted flow, nothing outside changes.
 */

const STATE_PLACES = [
  '.copilot-state',
  '.copilot-state/backups',
  '.copilot-state/elicitation-traces',
  '.copilot-state/sampling-traces',
  '.copilot-state/trace-chain.json',
  '.copilot-state/plan.json',
  '.copilot-state/onboarding.json',
  '.copilot-state/journal.json',
  '.copilot-state/operation.lock',
  '.copilot-state/traces.lock',
  '.copilot-state/operation.lock-owner.json',
  '.copilot-state/.gitignore',
];
const SOURCE_PLACES = [
  'AGENTS.md',
  'CLAUDE.md',
  'GEMINI.md',
  '.github',
  '.github/copilot-instructions.md',
  '.github/instructions',
  '.github/instructions/api.instructions.md',
  '.cursor/rules',
  '.cursor/rules/api.mdc',
];
const TARGETS = ['victim.txt', 'folder', 'folder/inner.md', 'empty', 'missing-file', 'missing-folder/x.json'];
const STEPS = [
  'onboarding_analyze',
  'onboarding_propose',
  'onboarding_approve',
  'onboarding_migrate',
  'onboarding_rollback',
  'onboarding_status',
];

test('property: links to outside files and folders under .copilot-state and at source places, then a whole accepted flow: nothing outside changes', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(
        fc.record({
          place: fc.constantFrom(...STATE_PLACES, ...SOURCE_PLACES),
          target: fc.constantFrom(...TARGETS),
          before: fc.nat({ max: STEPS.length - 1 }),
        }),
        { minLength: 1, maxLength: 3, selector: (l) => l.place },
      ),
      async (links) => {
        const cleanup = round();
        const repo = sandbox(cleanup, { 'CLAUDE.md': RULES, '.cursor/rules/api.mdc': SCOPED, 'GEMINI.md': '- Prefer small modules.\n' });
        const outside = outsideDir(cleanup);
        try {
          const before = snapshot(outside);
          const s = await connect({ repo, elicit: yesToAll });
          try {
            for (const [i, step] of STEPS.entries()) {
              for (const l of links.filter((x) => x.before === i)) placeLink(repo, l.place, path.join(outside, l.target));
              await s.call(step);
            }
          } finally {
            await s.close();
          }
          assert.deepEqual(snapshot(outside), before, `links: ${JSON.stringify(links)}`);
        } finally {
          await cleanup.done();
        }
      },
    ),
    { numRuns: 20 },
  );
});
