import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { labelDisagreements } from '../helpers/pattern-agreement.js';
import { analysisLabel, buildPlan, type Plan } from '../../server/src/planning/plan.js';
import { CORPUS, corpusRepos, requireCorpus } from '../helpers/corpus.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * The pattern label analyze prints and the plan propose builds say the same: every file the label
 * says still has to move, or can be grouped, is written by an operation of the plan; a plan with
 * nothing to do is never labelled as one that groups or moves rules; a cluster of copies is not
 * "structured".
 */
async function disagreements(root: string): Promise<string[]> {
  return labelDisagreements(await scanRepository(root));
}

test('corpus: for every repository the pattern label and the plan agree', async (t) => {
  if (!requireCorpus(t)) return;
  const found: string[] = [];
  for (const repo of corpusRepos()) for (const d of await disagreements(path.join(CORPUS, repo))) found.push(`${repo}: ${d}`);
  assert.deepEqual(found, []);
});

test('a cluster of copies is messy, naming the copies; a flat scoped Copilot file is left as it is and not said to be grouped', async (t) => {
  const rules =
    '# Rules\n\n## Tools\n\n- Use pnpm.\n- Run the tests before pushing.\n- Keep functions short.\n- Write a test for every bug fix.\n- Name branches after their issue.\n';
  const copies = sandbox(t, { 'AGENTS.md': rules, 'CLAUDE.md': rules });
  const a = analyze(await scanRepository(copies));
  assert.equal(a.pattern, 'messy');
  assert.match(
    a.patternDetail,
    /CLAUDE\.md is a copy of AGENTS\.md: the plan migrates that file and leaves the copy out \(rule: copies of one file are messy\)/,
  );
  assert.deepEqual(await disagreements(copies), []);

  const flat = sandbox(t, {
    '.github/copilot-instructions.md': '# Rules\n\n## Tools\n\n- Use pnpm.\n',
    '.github/instructions/api.instructions.md': '---\napplyTo: "src/api/**"\n---\n- Validate request bodies.\n- Log every error.\n',
  });
  const scan = await scanRepository(flat);
  const b = analyze(scan);
  const plan: Plan = buildPlan(scan, b);
  assert.equal(plan.operations.length, 0);
  // Nothing to do: the repository is already in Copilot's layout, and the label says so (issue 40; before: "unstructured").
  assert.equal(plan.pattern, 'structured');
  assert.deepEqual(analysisLabel(scan, b), {
    pattern: 'structured',
    patternDetail:
      "the instructions are already in Copilot's layout, and the plan changes nothing (rule: a repository the plan leaves as it is is structured); .github/instructions/api.instructions.md holds rules outside headed sections, which the plan leaves as they are",
  });
  assert.deepEqual(await disagreements(flat), []);
});

test("a flat Copilot file the plan has nothing to group in is already in Copilot's layout; one it groups stays unstructured", async (t) => {
  const settled = sandbox(t, { '.github/copilot-instructions.md': 'Be kind and concise in answers.\nPrefer small diffs.\n' });
  const scan = await scanRepository(settled);
  const a = analyze(scan);
  assert.equal(buildPlan(scan, a).operations.length, 0);
  assert.equal(buildPlan(scan, a).pattern, 'structured');
  assert.equal(analysisLabel(scan, a).pattern, 'structured');
  assert.match(analysisLabel(scan, a).patternDetail, /^the instructions are already in Copilot's layout, and the plan changes nothing/);
  assert.deepEqual(await disagreements(settled), []);

  const grouped = sandbox(t, { '.github/copilot-instructions.md': '# Rules\n\n- Use npm.\n- Run the tests.\n' });
  const g = await scanRepository(grouped);
  const ga = analyze(g);
  assert.equal(buildPlan(g, ga).operations.length, 1);
  assert.deepEqual(analysisLabel(g, ga), { pattern: 'unstructured', patternDetail: ga.patternDetail });
  assert.equal(buildPlan(g, ga).pattern, 'unstructured');

  // A legacy file whose rules move is work to do, whatever else holds.
  const moving = sandbox(t, { '.github/copilot-instructions.md': 'Prefer small diffs.\n', 'AGENTS.md': '- Use npm.\n' });
  const m = await scanRepository(moving);
  assert.equal(analysisLabel(m, analyze(m)).pattern, 'unstructured');
});
