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

test("a flat Copilot file is already in Copilot's layout: the plan leaves the person's text as it is (issue 40), titled or not", async (t) => {
  for (const text of ['Be kind and concise in answers.\nPrefer small diffs.\n', '# Rules\n\n- Use npm.\n- Run the tests.\n']) {
    const settled = sandbox(t, { '.github/copilot-instructions.md': text });
    const scan = await scanRepository(settled);
    const a = analyze(scan);
    assert.equal(buildPlan(scan, a).operations.length, 0);
    assert.equal(buildPlan(scan, a).pattern, 'structured');
    assert.equal(analysisLabel(scan, a).pattern, 'structured');
    assert.match(analysisLabel(scan, a).patternDetail, /^the instructions are already in Copilot's layout, and the plan changes nothing/);
    assert.deepEqual(await disagreements(settled), []);
  }

  // A legacy file whose rules move is work to do, whatever else holds.
  const moving = sandbox(t, { '.github/copilot-instructions.md': 'Prefer small diffs.\n', 'AGENTS.md': '- Use npm.\n' });
  const m = await scanRepository(moving);
  assert.equal(analysisLabel(m, analyze(m)).pattern, 'unstructured');
});

test('a repository whose files are organised in sections is structured, though a few flat ones move as they are or are Copilot files left as they are (issue 40: agent-framework, oxc)', async (t) => {
  const sectioned = (n: number) => `# Package ${n}\n\n## Build\n\n- Build package ${n} with tsc.\n`;
  const files: Record<string, string> = {
    '.github/copilot-instructions.md': 'Review every pull request for tests.\n',
    'AGENTS.md': '# Repo\n\n## Tools\n\n- Use pnpm.\n',
    'pkg9/AGENTS.md': '- Keep package 9 free of circular imports.\n',
  };
  for (let n = 0; n < 4; n++) files[`pkg${n}/AGENTS.md`] = sectioned(n);
  const repo = sandbox(t, files);
  const scan = await scanRepository(repo);
  const a = analyze(scan);
  assert.equal(a.pattern, 'structured');
  assert.equal(
    a.patternDetail,
    "most files are organised in sections, and the plan groups none (rule: a repository the plan does not group is structured); the rules in 6 files (AGENTS.md, pkg0/AGENTS.md, pkg1/AGENTS.md and 3 more) are not in Copilot's files yet; " +
      'pkg9/AGENTS.md holds rules outside headed sections, which move as they are into its scoped file; ' +
      ".github/copilot-instructions.md holds rules outside headed sections; it is Copilot's own file, which the plan leaves as it is",
  );
  assert.equal(buildPlan(scan, a).pattern, 'structured');
  assert.deepEqual(await disagreements(repo), []);

  // Most files flat: unstructured still, and a flat repo-wide file the plan groups makes it unstructured whatever else holds.
  const flatMost = sandbox(t, {
    'a/AGENTS.md': '- Keep a tidy.\n',
    'b/AGENTS.md': '- Keep b small.\n',
    'AGENTS.md': '# Repo\n\n## Tools\n\n- Use pnpm.\n',
  });
  assert.equal(analyze(await scanRepository(flatMost)).pattern, 'unstructured');
  const grouped = sandbox(t, { ...files, 'CLAUDE.md': '- Prefer small diffs.\n' });
  assert.equal(analyze(await scanRepository(grouped)).pattern, 'unstructured');
});
