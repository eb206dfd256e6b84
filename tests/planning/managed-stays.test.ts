import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * A managed block is not copied (issue 40): the text a tool writes between its markers (`<!-- BEGIN
 * … -->` … `<!-- END … -->`, `<!-- x-start -->` … `<!-- x-end -->`) stays in the one file the tool
 * manages. The file's other rules move; the block's lines are named in `dropped` with the reason, a
 * note says where the block stays, and the file is not offered for removal (the block would be lost).
 */
const COPILOT = '.github/copilot-instructions.md';
const PERSON = '# Copilot rules\n\n## Issues\n\n- Track every task with tk.\n';
const BLOCK =
  '<!-- BEGIN TK INTEGRATION -->\n## Issue Tracking with tk\n\n- Run `tk ready` to find work.\n\n### Priorities\n\n- `0` - Critical\n<!-- END TK INTEGRATION -->\n';
const AGENTS = `# Agents\n\n## Build\n\n- Run make before each commit.\n\n${BLOCK}`;
const read = (repo: string, p: string) => fs.readFileSync(path.join(repo, p), 'utf8');

test('a managed block of a migrated file stays in that file: migrate writes its other rules only, and the file is kept byte for byte', async (t) => {
  const repo = sandbox(t, { [COPILOT]: PERSON, 'AGENTS.md': AGENTS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  const proposed = await s.call('onboarding_propose');
  assert.match(textOf(proposed), /AGENTS\.md:7-15 \(from "<!-- BEGIN TK INTEGRATION -->" to its end marker\) is a block a tool writes/);
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(read(repo, COPILOT), `${PERSON}\n## Agents\n\n### Build\n\n- Run make before each commit.\n`);
  assert.equal(read(repo, 'AGENTS.md'), AGENTS);
  // A second plan has nothing to do: the block stays where it is.
  const again = buildPlan(await scanRepository(repo));
  assert.deepEqual(
    again.operations.map((o) => o.path),
    [],
  );
});

test("the block's lines are named as dropped, with the reason the person sees, and the file can only be kept", async (t) => {
  const repo = sandbox(t, { [COPILOT]: PERSON, 'AGENTS.md': AGENTS });
  const plan = buildPlan(await scanRepository(repo));
  const stays = plan.dropped.filter((d) => d.path === 'AGENTS.md');
  assert.deepEqual(
    stays.map((d) => d.line),
    [7, 8, 9, 10, 11, 12, 13, 14, 15],
  );
  assert.match(stays[0]!.reason!, /inside <!-- BEGIN TK INTEGRATION -->, a block a tool writes and rewrites in AGENTS\.md: it stays there/);
  assert.deepEqual(plan.legacy.find((o) => o.path === 'AGENTS.md')!.fates, ['keep']);
  assert.ok(!plan.operations.some((o) => o.content?.includes('TK INTEGRATION')));
});

test('a named pair in a nested file stays there too; a file that is only a managed block writes nothing', async (t) => {
  const named = '<!-- usage-rules-start -->\n## pkg usage\n\n- Call pkg.init first.\n<!-- usage-rules-end -->\n';
  const repo = sandbox(t, {
    'CLAUDE.md': named,
    'web/AGENTS.md': `# Web\n\n## Build\n\n- Run make web.\n\n${named}`,
  });
  const plan = buildPlan(await scanRepository(repo));
  assert.deepEqual(
    plan.operations.map((o) => [o.path, o.content]),
    [['.github/instructions/web.instructions.md', '---\napplyTo: "web/**"\n---\n\n# Web\n\n## Build\n\n- Run make web.\n']],
  );
  assert.deepEqual(
    plan.legacy.map((o) => [o.path, o.fates]),
    [
      ['web/AGENTS.md', ['keep']],
      ['CLAUDE.md', ['keep']],
    ],
  );
  assert.ok(
    plan.notes.some((n) => n.startsWith('CLAUDE.md:1-5 (from "<!-- usage-rules-start -->"')),
    plan.notes.join('\n'),
  );
});
