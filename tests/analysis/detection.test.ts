import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { analyze, findContradictions } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import { actionClaims } from '../../server/src/analysis/contradictions/claim-reader.js';
import { normalizeCommand } from '../../server/src/analysis/contradictions/tools.js';
import { CERTAINTY } from '../../server/src/analysis/certainty.js';
import { loadJudgedCases } from '../fixtures/judged-detection/cases.js';
import { analyzeFiles, judge, precision, recall } from '../fixtures/judged-detection/judge.js';
import { CLI } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';
import { CORPUS, corpusRepos, requireCorpus } from '../helpers/corpus.js';

/** Issue 12: contradictions and duplicates a careful reader sees. */

const contradictions = (files: Record<string, string>) =>
  findContradictions(Object.entries(files).flatMap(([p, text]) => splitUnits(p, text.split('\n'))));

test('the judged set: contradiction recall 0.85 or more at precision 0.9 or more; duplicates without fragments or headings', async () => {
  const cases = loadJudgedCases();
  assert.ok(cases.filter((c) => c.expect === 'contradiction').length >= 30);
  assert.ok(cases.filter((c) => c.expect === 'no-contradiction').length >= 20);
  const r = await judge(cases);
  assert.ok(recall(r.contradiction) >= 0.85, `recall ${recall(r.contradiction)}\n${r.misses.join('\n')}`);
  assert.ok(precision(r.contradiction) >= 0.9, `precision ${precision(r.contradiction)}\n${r.misses.join('\n')}`);
  assert.ok(precision(r.duplication) >= 0.9, r.misses.join('\n'));
  // A "high" certainty is earned there: right at least 95% of the time over at least 5 reports.
  for (const [kind, c] of Object.entries(CERTAINTY)) {
    if (c !== 'high' || kind.startsWith('ambiguity/')) continue;
    const k = r.kinds.get(kind);
    assert.ok(k && k.right + k.wrong >= 5 && k.right / (k.right + k.wrong) >= 0.95, `${kind}: ${JSON.stringify(k)}`);
  }
});

test('the reproductions of the issue are found, each with its reason and both sides quoted', () => {
  const one = (files: Record<string, string>) => {
    const found = contradictions(files);
    assert.equal(found.length, 1, JSON.stringify(found));
    return found[0]!.description;
  };
  assert.equal(
    one({
      'AGENTS.md': '- Always regenerate `openapi.json` after changing a route.\n',
      'CLAUDE.md': '- Never touch `openapi.json` by hand or by script.\n',
    }),
    'Contradicting rules about openapi.json: always regenerate vs never touch, same file openapi.json: "Always regenerate `openapi.json` after changing a route." (AGENTS.md:1) vs "Never touch `openapi.json` by hand or by script." (CLAUDE.md:1)',
  );
  assert.match(
    one({ 'AGENTS.md': '- Always update CHANGELOG.md with each change.\n', 'CLAUDE.md': "- Don't edit CHANGELOG.md.\n" }),
    /always update vs never edit, same file CHANGELOG\.md/,
  );
  assert.match(
    one({ 'AGENTS.md': '- Force-pushing to main is forbidden.\n', 'CLAUDE.md': '- You may force-push to main to fix a bad merge.\n' }),
    /never force-push vs may force-push, same branch main/,
  );
  assert.match(
    one({ 'AGENTS.md': '- Mock the database in unit tests.\n', 'CLAUDE.md': '- Never mock the database.\n' }),
    /always mock vs never mock, same object database/,
  );
  assert.match(
    one({ 'AGENTS.md': '```bash\nnvm use 18\n```\n', 'CLAUDE.md': '```sh\nnvm use 20\n```\n' }),
    /Node\.js version: "18" \(AGENTS\.md:2\) vs "20" \(CLAUDE\.md:2\)/,
  );
  assert.match(
    one({ 'AGENTS.md': '| Task | Command |\n|---|---|\n| Start | `yarn dev` |\n', 'CLAUDE.md': '- Never use yarn.\n' }),
    /"yarn" both required \(AGENTS\.md:3\) and ruled out \(CLAUDE\.md:1\)/,
  );
  assert.match(
    one({ 'AGENTS.md': '```bash\npip install -r requirements.txt\n```\n', 'CLAUDE.md': '- Always use uv instead of pip.\n' }),
    /Python package manager/,
  );
  assert.match(
    one({
      'a.md': '- **Build**: `bun run compile` — NOT `bun run build`.\n',
      'AGENTS.md': '- **Build:** `bun run build:webview` then `bun esbuild.mjs`. `bun run package` does the full build.\n',
    }),
    /^Contradicting rules about the build command: `bun run compile` vs `bun run build:webview`/,
  );
  assert.match(
    one({
      'a.md': '- **MUST** run inside Docker: `docker exec app php artisan test`\n',
      'b.md': '- To run all tests: `php artisan test`.\n',
    }),
    /the test command: `docker exec app php artisan test` vs `php artisan test`/,
  );
});

test('look-alikes do not contradict: an exception, a narrower prohibition, a permission in another section', () => {
  assert.deepEqual(
    contradictions({
      'AGENTS.md': '- Never use `console.log`, except in `scripts/`.\n',
      'CLAUDE.md': '- Use `console.log` in `scripts/` to report progress.\n',
    }),
    [],
  );
  assert.deepEqual(
    contradictions({
      'AGENTS.md': '- Never run `yarn lint` with file arguments.\n',
      'CLAUDE.md': '- Run `yarn lint` before committing.\n',
    }),
    [],
  );
  assert.deepEqual(contradictions({ 'AGENTS.md': '- Prefer pnpm.\n', 'CLAUDE.md': '- npm is also fine for one-off scripts.\n' }), []);
  assert.deepEqual(
    contradictions({ 'AGENTS.md': '## Unit tests\n\n- Never use the database.\n\n## Feature tests\n\n- You may use the database.\n' }),
    [],
  );
  assert.deepEqual(
    contradictions({ 'AGENTS.md': '- **Unit Tests**: Should NOT use database.\n- **Feature Tests**: May use database.\n' }),
    [],
  );
  // Adding one named package is a snippet for a reader, not the project's setup.
  assert.deepEqual(contradictions({ 'AGENTS.md': '```bash\nnpm add @acme/react-hooks\n```\n', 'CLAUDE.md': '- Always use pnpm.\n' }), []);
});

test('claims read polarity, action with synonyms and object; commands are normalised', () => {
  assert.deepEqual(
    actionClaims('- Always update CHANGELOG.md.').map((c) => [c.polarity, c.action, c.object]),
    [['must', 'edit', 'changelog.md']],
  );
  assert.deepEqual(
    actionClaims('- You may commit directly to `main`.').map((c) => [c.polarity, c.action, c.object]),
    [['may', 'commit', 'main']],
  );
  assert.deepEqual(
    actionClaims('- Never modify files in `migrations/`.').map((c) => [c.polarity, c.object]),
    [['never', 'migrations/']],
  );
  assert.deepEqual(actionClaims('- The bot updates CHANGELOG.md.'), []);
  assert.equal(normalizeCommand('$ npm i'), 'npm install');
  assert.equal(normalizeCommand('python3 -m pytest -q'), 'pytest -q');
  assert.equal(normalizeCommand('npx jest --watch'), 'jest --watch');
});

test('a copied file is one report, with how alike the files are; reworded rules are reported; fragments and headings are not', async () => {
  const rules = Array.from({ length: 10 }, (_, i) => `- Rule number ${i} keeps module ${i} small and tested.`);
  const body = (list: string[]) => `# Guide\n\n## One\n\n${list.slice(0, 5).join('\n')}\n\n## Two\n\n${list.slice(5).join('\n')}\n`;
  const changed = [...rules];
  changed[7] = '- Something else entirely about logging.';
  const problems = await analyzeFiles({ 'AGENTS.md': body(rules), 'CLAUDE.md': body(changed) });
  const dups = problems.filter((p) => p.type === 'duplication');
  assert.equal(dups.length, 1, JSON.stringify(dups));
  assert.equal(dups[0]!.description, 'AGENTS.md and CLAUDE.md are 90% the same (9 of their rules repeat); 1 section differs');
  assert.equal(dups[0]!.kind, 'copied-file');

  const reworded = await analyzeFiles({
    'AGENTS.md': '- Wrap lines at 100 characters.\n- Keep lines under 100 characters.\n- See above.\n- See above.\n',
  });
  assert.deepEqual(
    reworded.map((p) => p.kind),
    ['reworded'],
  );
});

test('six copies of one file are one report naming the six, in analyze text, --json and check SARIF', (t) => {
  const body = `# Rules\n\n${Array.from({ length: 6 }, (_, i) => `- Rule number ${i} keeps module ${i} small and tested.`).join('\n')}\n`;
  const folders = ['pka', 'pkb', 'pkc', 'pkd', 'pke'];
  const repo = sandbox(t, Object.fromEntries([['AGENTS.md', body], ...folders.map((f) => [`${f}/AGENTS.md`, body])]));
  const paths = ['AGENTS.md', ...folders.map((f) => `${f}/AGENTS.md`)];
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args, '--repo', repo], { encoding: 'utf8' }).stdout;
  const dups = JSON.parse(run('analyze', '--json')).problems.filter((p: { type: string }) => p.type === 'duplication');
  assert.equal(dups.length, 1, JSON.stringify(dups));
  assert.equal(dups[0].kind, 'copied-file');
  assert.equal(dups[0].description, `6 files are copies of one another (100% the same): ${paths.join(', ')}; no section differs`);
  assert.deepEqual(
    dups[0].locations.map((l: { path: string; line: number }) => `${l.path}:${l.line}`),
    paths.map((p) => `${p}:3`),
  );
  assert.equal(run('analyze').match(/copies of one another/g)?.length, 1);
  const results = JSON.parse(run('check', '--format', 'sarif')).runs[0].results.filter(
    (r: { ruleId: string }) => r.ruleId === 'copilot-onboard/duplicate',
  );
  assert.equal(results.length, 1);
  assert.equal(results[0].locations.length + results[0].relatedLocations.length, 6);
});

test('one rule said alike in three files is one report naming the three places, not three pairs', async () => {
  const problems = await analyzeFiles({
    'AGENTS.md': '# Agents\n\n- Write descriptive variable and method names.\n',
    'CLAUDE.md': '# Claude\n\n- Use descriptive names for variables and methods.\n',
    'GEMINI.md': '# Gemini\n\n- Write descriptive names for variables and methods.\n',
  });
  const dups = problems.filter((p) => p.type === 'duplication');
  assert.equal(dups.length, 1, JSON.stringify(dups));
  assert.equal(dups[0]!.kind, 'reworded');
  assert.match(dups[0]!.description, /^The same rule in 3 places, said alike: "Write descriptive variable and method names\.", /);
  assert.deepEqual(
    dups[0]!.locations.map((l) => `${l.path}:${l.line}`),
    ['AGENTS.md:3', 'CLAUDE.md:3', 'GEMINI.md:3'],
  );
});

test("analyze --json and the report carry each problem's certainty and kind", (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '- Use npm.\n', 'CLAUDE.md': '- Always use pnpm.\n' });
  const json = JSON.parse(spawnSync(process.execPath, [CLI, 'analyze', '--json', '--repo', repo], { encoding: 'utf8' }).stdout);
  assert.equal(json.pattern, 'messy');
  assert.match(json.patternDetail, /rule: a repository with contradictions is messy/);
  assert.deepEqual(
    json.problems.map((p: { kind: string; certainty: string }) => [p.kind, p.certainty]),
    [['tool-choice', 'high']],
  );
  const text = spawnSync(process.execPath, [CLI, 'analyze', '--repo', repo], { encoding: 'utf8' }).stdout;
  assert.match(
    text,
    /contradiction: the package manager: "npm" \(AGENTS\.md:1\) or "pnpm" \(CLAUDE\.md:1\) \(certainty high, tool-choice\)/,
  );
});

test("corpus: the issue's reproductions are found and no repository gets more than 20 duplicate reports", async (t) => {
  if (!requireCorpus(t)) return;
  const found: string[] = [];
  for (const name of corpusRepos()) {
    const problems = analyze(await scanRepository(path.join(CORPUS, name))).problems;
    const dups = problems.filter((p) => p.type === 'duplication');
    assert.ok(dups.length <= 20, `${name}: ${dups.length} duplicate reports`);
    assert.ok(
      !dups.some((p) => p.kind === 'heading' && p.locations.some((l) => l.path !== p.locations[0]!.path)),
      `${name}: a heading repeated across files`,
    );
    found.push(...problems.filter((p) => p.type === 'contradiction').map((p) => `${name}: ${p.description}`));
  }
  assert.ok(
    found.some((f) => /^cline__cline: .*the build command: `bun run compile`/.test(f)),
    found.join('\n'),
  );
  assert.ok(
    found.some((f) => /^coollabsio__coolify: .*the test command: `docker exec coolify php artisan test` vs `php artisan test`/.test(f)),
    found.join('\n'),
  );
});

test('the approve form names how certain each contradiction is', async () => {
  const { choicesForm } = await import('../../server/src/gate/choices-round.js');
  const description = 'Contradicting rules about package manager: "npm" (AGENTS.md:1) vs "pnpm" (CLAUDE.md:1)';
  const form = choicesForm({
    legacy: [],
    conflicts: [
      {
        id: 'conflict_1',
        description,
        locations: [
          { path: 'AGENTS.md', line: 1, text: '- Use npm.', side: 0 },
          { path: 'CLAUDE.md', line: 1, text: '- Always use pnpm.', side: 1 },
        ],
        topic: 'package manager',
        said: '"npm" (AGENTS.md:1) vs "pnpm" (CLAUDE.md:1)',
      },
    ],
    problems: [{ type: 'contradiction', description, certainty: 'high' }],
  });
  const props = form.requestedSchema.properties as Record<string, { title: string }>;
  assert.match(props.conflict_1!.title, /^Which rule stands\? Contradicting rules about package manager: .* \(certainty high\)$/);
});
