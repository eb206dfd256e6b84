import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * No note about a line the plan does not write (issue 40, spring-ai): CLAUDE.md's `@CONTRIBUTING.md` line is
 * merged into AGENTS.md's same line written as a link, so no note says it "is migrated as written" and approve
 * offers no choice to leave it out; a line for another assistant that the plan does write is still offered.
 */
test('a line merged into the same line of another file gets no note and no choice; one that is written keeps both', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agents\n\nFollow [CONTRIBUTING.md](CONTRIBUTING.md) for code style and pull requests.\n',
    'CLAUDE.md':
      'Follow @CONTRIBUTING.md for code style and pull requests.\n\n- Use Claude Code slash commands to run the linter.\n- Follow @docs/missing.md for the API rules.\n',
  });
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan));
  assert.deepEqual(
    plan.merged.filter((m) => m.path === 'CLAUDE.md').map((m) => [m.line, m.keptAt]),
    [[1, { path: 'AGENTS.md', line: 3 }]],
  );
  const aboutClaude = plan.notes.filter((n) => n.startsWith('CLAUDE.md: '));
  assert.equal(aboutClaude.length, 1, plan.notes.join('\n'));
  assert.match(aboutClaude[0]!, /^CLAUDE\.md: one line is written for or about another assistant, .*: line 4 "- Follow @docs\/missing\.md/);
  assert.doesNotMatch(aboutClaude[0]!, /@CONTRIBUTING\.md/);
  assert.deepEqual(
    plan.assistants.flatMap((o) => o.lines.map((l) => `${o.path}:${l.line}`)),
    ['CLAUDE.md:4'],
  );
});
