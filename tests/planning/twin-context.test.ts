import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';

/**
 * A twin section's differing lines land with their context (issue 40): next to the counterpart they
 * differ from, inside its list or after its block, never as fragments after the section's last line;
 * a lead-in whose block is written once is one of a pair (the one written already stands with the
 * block, the other is named in merged and reported); a tree written in part keeps its root.
 */
const COPILOT = '.github/copilot-instructions.md';
const content = (plan: ReturnType<typeof buildPlan>) => plan.operations.find((o) => o.path === COPILOT)!.content!;

async function secondPlanIsEmpty(repo: string, plan: ReturnType<typeof buildPlan>): Promise<void> {
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
}

const CODE =
  '```bash\npixi run py-build              # Build into .venv\npixi run uvpy script.py        # Run via uv\npixi run uv run script.py      # Explicit uv run\n```\n';
const python = (leadIn: string, last: string) => `## Python workflow\n\n${leadIn}\n\n${CODE}\n${last}\n`;

test("a reworded lead-in of a block written once is not written without it: the one written already stands with the block, the twin's is named in merged and reported (rerun)", async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': `# Guide\n\nFor agents.\n\n${python("Python uses separate uv-managed .venv (not pixi's conda env):", '`uv` wrapper unsets `CONDA_PREFIX` for isolation.')}`,
    'CLAUDE.md': `# Guide for Claude\n\nFor Claude.\n\n${python("Python uses a separate uv-managed .venv (not pixi's conda env):", 'The `uv` wrapper script unsets `CONDA_PREFIX` to ensure isolation.')}`,
  });
  const plan = buildPlan(await scanRepository(repo));
  assert.equal(
    content(plan),
    "# Copilot instructions\n\n## Guide\n\nFor agents.\n\n### Python workflow\n\nPython uses separate uv-managed .venv (not pixi's conda env):\n\n" +
      `${CODE}\n\`uv\` wrapper unsets \`CONDA_PREFIX\` for isolation.\n\nThe \`uv\` wrapper script unsets \`CONDA_PREFIX\` to ensure isolation.\n\n` +
      '## Guide for Claude\n\nFor Claude.\n',
  );
  assert.ok(
    plan.merged.some((m) => m.path === 'CLAUDE.md' && m.line === 7 && m.keptAt.path === 'AGENTS.md' && m.keptAt.line === 7),
    JSON.stringify(plan.merged),
  );
  const note = plan.notes.find((n) => n.startsWith('CLAUDE.md: its section'));
  assert.ok(
    note?.includes('line 7 "Python uses a separate uv-managed .venv') &&
      note.includes('AGENTS.md:7 "Python uses separate uv-managed .venv'),
    plan.notes.join('\n'),
  );
  await secondPlanIsEmpty(repo, plan);
});

const RULES = (first: string) =>
  `1. **All frontend ${first}** MUST follow the style guide\n2. **All Python functions** MUST have type hints\n3. **Run \`npm run lint\`** before committing\n4. **Run \`npm run format\`** before committing\n5. **Log errors server-side**, return generic messages\n6. **Do NOT modify** workflows without a request\n`;
const TREE = (app: string, messages: string) =>
  '```\napps/\n├── backend/                 # FastAPI + Python\n│   ├── app/\n│   │   └── main.py          # Entry point\n│   └── data/                # Database storage\n│\n└── frontend/                # Next.js + React\n' +
  `    ├── app/                 # Pages${app}\n    ├── components/          # UI components\n    └── messages/            # i18n translations${messages}\n\`\`\`\n`;
const resume = (title: string, first: string, app: string, messages: string) =>
  `# ${title}\n\n> Context file.\n\n---\n\n## Non-Negotiable Rules\n\n${RULES(first)}\n---\n\n## Project Structure\n\n${TREE(app, messages)}\n---\n`;

test("a reworded numbered rule stays in its list, right after the rule it differs from; a tree's differing lines come right after the tree with their root, before the section's separator (Resume-Matcher)", async (t) => {
  const repo = sandbox(t, {
    '.agents/AGENTS.md': resume('AGENTS.md – App', 'changes', '', ''),
    '.claude/CLAUDE.md': resume('CLAUDE.md - App', 'UI changes', ' (dashboard, builder)', ' (en, es)'),
  });
  const plan = buildPlan(await scanRepository(repo));
  const text = content(plan);
  const rules = RULES('changes').split('\n');
  assert.ok(
    text.includes(
      `### Non-Negotiable Rules\n\n${rules[0]}\n1. **All frontend UI changes** MUST follow the style guide\n${rules.slice(1).join('\n')}\n---\n`,
    ),
    text,
  );
  assert.ok(
    text.includes(
      `${TREE('', '')}\n\`\`\`\napps/\n└── frontend/                # Next.js + React\n    ├── app/                 # Pages (dashboard, builder)\n    └── messages/            # i18n translations (en, es)\n\`\`\`\n\n---\n`,
    ),
    text,
  );
  assert.equal(text.split('1. **All frontend UI changes**').length - 1, 1, text);
  await secondPlanIsEmpty(repo, plan);
});

const LAYOUT = (extra: string) => `\`\`\`\nsrc/\n  api/\n    routes.ts\n  web/\n    app.tsx\n${extra}  shared/\n    types.ts\n\`\`\`\n`;
const widgets = (title: string, leadIn: string, third: string, extra: string) =>
  `# ${title}\n\nAbout widgets.\n\n## Checks\n\n${leadIn}\n\n- lint with eslint\n- typecheck with tsc\n\n## Habits\n\n- Keep pull requests small.\n- Write the test first.\n- ${third}\n- Name branches after the issue.\n- Squash before merging.\n\n## Layout\n\n${LAYOUT(extra)}`;

test('in other words: a CLAUDE.md copied from AGENTS.md with one lead-in reworded, one bullet reworded and one tree line added lands each line in its context', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': widgets('Widgets', 'Before you push, run:', 'Prefer composition over inheritance.', ''),
    'CLAUDE.md': widgets('Widgets for Claude', 'Run these before every push:', 'Favour composition to inheritance.', '    pages.tsx\n'),
  });
  const plan = buildPlan(await scanRepository(repo));
  assert.equal(
    content(plan),
    '# Copilot instructions\n\n## Widgets\n\nAbout widgets.\n\n### Checks\n\nBefore you push, run:\n\n- lint with eslint\n- typecheck with tsc\n\n' +
      '### Habits\n\n- Keep pull requests small.\n- Write the test first.\n- Prefer composition over inheritance.\n- Favour composition to inheritance.\n- Name branches after the issue.\n- Squash before merging.\n\n' +
      `### Layout\n\n${LAYOUT('')}\n\`\`\`\nsrc/\n  web/\n    pages.tsx\n\`\`\`\n\n## Widgets for Claude\n\nAbout widgets.\n`,
  );
  assert.ok(
    plan.merged.some((m) => m.path === 'CLAUDE.md' && m.line === 7 && m.keptAt.path === 'AGENTS.md' && m.keptAt.line === 7),
    JSON.stringify(plan.merged),
  );
  await secondPlanIsEmpty(repo, plan);
});

test("a twin of the person's section with a reworded lead-in: their text stays as it is, the lead-in is not written apart from its block, the other lines go after their text", async (t) => {
  const person = `# Guide\n\nFor Copilot.\n\n${python('Python uses separate venv:', '`uv` wrapper unsets `CONDA_PREFIX`.')}`;
  const repo = sandbox(t, {
    [COPILOT]: person,
    'CLAUDE.md': `# Guide for Claude\n\nFor Claude.\n\n${python('Python uses a separate venv:', '`uv` wrapper unsets `CONDA_PREFIX`.')}\nRun \`pixi run py-test\` after each change.\n`,
  });
  const plan = buildPlan(await scanRepository(repo));
  const text = content(plan);
  assert.ok(text.startsWith(person), text);
  assert.ok(!text.includes('Python uses a separate venv:'), text);
  assert.ok(text.includes('### Python workflow\n\nRun `pixi run py-test` after each change.\n'), text);
  assert.ok(
    plan.merged.some((m) => m.path === 'CLAUDE.md' && m.line === 7 && m.keptAt.path === COPILOT && m.keptAt.line === 7),
    JSON.stringify(plan.merged),
  );
  await secondPlanIsEmpty(repo, plan);
});

test('a differing item does not join a list item whose last line is a tag at the margin: past that line it would read as part of an HTML block (coolify)', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Rules\n\nFor agents.\n\n## Tests\n\n- Write a test for each change.\n- Run the tests.\n</rules>\n',
    'CLAUDE.md':
      '# Rules for Claude\n\nFor Claude.\n\n## Tests\n\n- Write a test for each change.\n- Run the tests you wrote, with a filter.\n</rules>\n',
  });
  const plan = buildPlan(await scanRepository(repo));
  assert.ok(
    content(plan).includes(
      '### Tests\n\n- Write a test for each change.\n- Run the tests.\n</rules>\n\n- Run the tests you wrote, with a filter.\n</rules>\n\n',
    ),
    content(plan),
  );
  await secondPlanIsEmpty(repo, plan);
});

test('a reworded lead-in whose list is written once from its second item on pairs with the lead-in of that list: no lead-in without its list', async (t) => {
  const steps = (leadIn: string, first: string) =>
    `## Release\n\n${leadIn}\n\n${first}- Tag the commit.\n- Push the tag.\n- Publish the notes.\n`;
  const repo = sandbox(t, {
    'AGENTS.md': `# Guide\n\nFor agents.\n\n${steps('To release:', '- Bump the version.\n')}`,
    'CLAUDE.md': `# Guide for Claude\n\nFor Claude.\n\n${steps('Release steps:', '')}`,
  });
  const plan = buildPlan(await scanRepository(repo));
  assert.ok(
    content(plan).includes(
      '### Release\n\nTo release:\n\n- Bump the version.\n- Tag the commit.\n- Push the tag.\n- Publish the notes.\n\n## Guide for Claude',
    ),
    content(plan),
  );
  assert.ok(!content(plan).includes('Release steps:'), content(plan));
  await secondPlanIsEmpty(repo, plan);
});

test("a twin section under a numbered step is not merged into a heading of other words: the step is a rule of the author's and lands", async (t) => {
  // Found by the fuzzed property (tests/planning/multiplicity.test.ts, seed -1056709842): every line under
  // "1. Install the tools" was in the Copilot file, so the step was merged into "## General" and lost.
  const files = {
    'AGENTS.md': '1. Install the tools\n\nPlain paragraph.\n\nOtherwise, use npm to install.\n',
    [COPILOT]: '## General\n\nPlain paragraph.\n\nOtherwise, use npm to install.\n',
  };
  const repo = sandbox(t, files);
  const plan = buildPlan(await scanRepository(repo));
  assert.equal(content(plan), `${files[COPILOT]}\n## 1. Install the tools\n\nPlain paragraph.\n\nOtherwise, use npm to install.\n`);
  assert.ok(!plan.merged.some((m) => m.path === 'AGENTS.md' && m.line === 1), 'the step is not named as merged');
  await secondPlanIsEmpty(repo, plan);
});

test('a twin section under a real heading of other words still goes into the section it repeats, named as merged', async (t) => {
  const files = {
    'CLAUDE.md': '## Database\n\nOtherwise, use npm to install.\n\n**Example:**\n',
    [COPILOT]: '## General\n\n**Example:**\n\nOtherwise, use npm to install.\n',
  };
  const plan = buildPlan(await scanRepository(sandbox(t, files)));
  assert.deepEqual(plan.operations, []);
  assert.deepEqual(plan.merged.find((m) => m.path === 'CLAUDE.md' && m.line === 1)?.keptAt, { path: COPILOT, line: 1 });
});
