import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';
import { emptyHeadings } from '../helpers/debris.js';

/**
 * Twins and digests (issue 40, "written once"): a source's section whose lines are mostly written
 * already, in one section of the person's Copilot file or of another source, is no new section. Its
 * lines that section holds are merged into theirs (named in `merged`), its lines that differ are kept
 * (under that section when a source wrote it, after the person's text when it is theirs) and reported.
 */
const COPILOT = '.github/copilot-instructions.md';

const RULES =
  '1. Write a test for every bug you fix.\n2. Keep functions under fifty lines.\n3. Log errors on the server, show generic messages to users.\n';
const COMMANDS = '```bash\nnpm install\nnpm run dev          # both servers\nnpm run lint\nnpm run build\n```\n';
const LAYOUT = '| Folder | What |\n|--------|------|\n| `api/` | the server |\n| `web/` | the client |\n| `docs/` | the documentation |\n';
const guide = (title: string, intro: string, rules = RULES, commands = COMMANDS, layout = LAYOUT) =>
  `# ${title}\n\n${intro}\n\n## Rules\n\n${rules}\n## Commands\n\n${commands}\n## Layout\n\n${layout}`;

/** CLAUDE.md: AGENTS.md's guide with two lines changed (a numbered rule, a command's comment) and one added (a table row). */
const CLAUDE = guide(
  'Claude guide for widgets',
  'Context for Claude Code in the widgets repository.',
  RULES.replace('fifty', 'forty'),
  COMMANDS.replace('# both servers', '# api and web'),
  `${LAYOUT}| \`tools/\` | the release scripts |\n`,
);
const AGENTS = guide('Widgets guide', 'Guidance for agents in the widgets repository.');

const content = (plan: ReturnType<typeof buildPlan>) => plan.operations.find((o) => o.path === COPILOT)!.content!;

test("a CLAUDE.md that is AGENTS.md's guide with two lines changed and one added: its sections join AGENTS.md's, only the differing lines written there, the rest named in merged", async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': AGENTS, 'CLAUDE.md': CLAUDE });
  const plan = buildPlan(await scanRepository(repo));
  assert.equal(
    content(plan),
    '# Copilot instructions\n\n## Widgets guide\n\nGuidance for agents in the widgets repository.\n\n' +
      // The rule that differs stays in its list, right after the rule it differs from (issue 40: no "2." fragment after the list).
      `### Rules\n\n${RULES.replace('fifty lines.\n', 'fifty lines.\n2. Keep functions under forty lines.\n')}\n` +
      `### Commands\n\n${COMMANDS}\n\`\`\`bash\nnpm run dev          # api and web\n\`\`\`\n\n` +
      `### Layout\n\n${LAYOUT}\n| Folder | What |\n|--------|------|\n| \`tools/\` | the release scripts |\n\n` +
      '## Claude guide for widgets\n\nContext for Claude Code in the widgets repository.\n',
  );
  const merged = plan.merged.filter((m) => m.path === 'CLAUDE.md').map((m) => `${m.line}->${m.keptAt.path}:${m.keptAt.line}`);
  // The three headings, rules 1 and 3, four commands and the three rows the section has.
  assert.deepEqual(merged, [
    '5->AGENTS.md:5',
    '7->AGENTS.md:7',
    '9->AGENTS.md:9',
    '11->AGENTS.md:11',
    '14->AGENTS.md:14',
    '16->AGENTS.md:16',
    '17->AGENTS.md:17',
    '20->AGENTS.md:20',
    '24->AGENTS.md:24',
    '25->AGENTS.md:25',
    '26->AGENTS.md:26',
  ]);
  const note = plan.notes.find((n) =>
    n.startsWith('CLAUDE.md: its sections "### Rules" (line 5), "### Commands" (line 11), "### Layout" (line 20) repeat'),
  );
  assert.ok(note, plan.notes.join('\n'));
  assert.ok(
    note.includes('line 8 "2. Keep functions under forty lines."') && note.includes('line 27 "| `tools/` | the release scripts |"'),
    note,
  );
  assert.deepEqual(emptyHeadings(content(plan).split('\n')), []);
});

test('after the migration, a second plan over the twins has nothing to do', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': AGENTS, 'CLAUDE.md': CLAUDE });
  const first = buildPlan(await scanRepository(repo));
  for (const op of first.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});

test('three twins of one guide in three assistant folders: each differing line is written once, under the section it differs in', async (t) => {
  const gemini = guide(
    'Gemini guide for widgets',
    'Context for Gemini in the widgets repository.',
    RULES.replace('fifty', 'forty'),
    COMMANDS.replace('npm run lint\n', 'npm run lint\nnpm run typecheck\n'),
  );
  const repo = sandbox(t, { '.agents/AGENTS.md': AGENTS, '.claude/CLAUDE.md': CLAUDE, '.gemini/GEMINI.md': gemini });
  const first = buildPlan(await scanRepository(repo));
  const text = content(first);
  assert.equal(text.split('Keep functions under forty lines.').length - 1, 1, text);
  assert.equal(text.split('npm run build').length - 1, 1, text);
  assert.equal(text.split('### Rules').length - 1, 1, text);
  assert.ok(text.includes('```bash\nnpm run typecheck\n```'), text);
  for (const op of first.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});

test("a generated twin of the person's Copilot file is not appended: its lines the file has are merged, the ones that differ go after the person's text, under its own headings", async (t) => {
  const person = guide('Widgets guide', 'Guidance for Copilot in the widgets repository.');
  const repo = sandbox(t, { [COPILOT]: person, 'CLAUDE.md': CLAUDE });
  const plan = buildPlan(await scanRepository(repo));
  assert.equal(
    content(plan),
    `${person}\n## Claude guide for widgets\n\nContext for Claude Code in the widgets repository.\n\n` +
      '### Rules\n\n2. Keep functions under forty lines.\n\n' +
      '### Commands\n\n```bash\nnpm run dev          # api and web\n```\n\n' +
      '### Layout\n\n| Folder | What |\n|--------|------|\n| `tools/` | the release scripts |\n',
  );
  const note = plan.notes.find((n) => n.startsWith('CLAUDE.md: its sections'));
  assert.ok(note?.includes(`${COPILOT}`), plan.notes.join('\n'));
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});

test('a section with the same heading that holds other rules is no twin: it is written whole, as before', async (t) => {
  const other = guide(
    'Claude guide for widgets',
    'Context for Claude Code.',
    '1. Prefer small pull requests.\n2. Keep functions under fifty lines.\n3. Pin every dependency.\n',
  );
  const repo = sandbox(t, { 'AGENTS.md': AGENTS, 'CLAUDE.md': other });
  const text = content(buildPlan(await scanRepository(repo)));
  assert.ok(text.includes('1. Prefer small pull requests.\n2. Keep functions under fifty lines.\n3. Pin every dependency.'), text);
  assert.equal(text.split('### Rules').length - 1, 2, text);
});

test('a section of other words whose every line another file wrote in one section goes into that section: its heading is named in merged, not written alone or again', async (t) => {
  const packages =
    '```\nAdmin Catalog Checkout Customer\nPayment Sales Shipping Tax\n```\n\nEach package registers twice, in providers.php and in concord.php.\n';
  const repo = sandbox(t, {
    'AGENTS.md': `# Shop guide\n\nFor agents.\n\n## Repository map\n\nThe packages:\n\n${packages}`,
    'CLAUDE.md': `# CLAUDE.md\n\nGuidance for Claude Code.\n\n## The packages\n\n${packages}`,
  });
  const plan = buildPlan(await scanRepository(repo));
  const text = content(plan);
  assert.equal(text.split('Each package registers twice').length - 1, 1, text);
  assert.ok(!text.includes('The packages\n'), text);
  assert.ok(
    plan.merged.some((m) => m.path === 'CLAUDE.md' && m.line === 5 && m.keptAt.path === 'AGENTS.md' && m.keptAt.line === 5),
    JSON.stringify(plan.merged),
  );
  assert.deepEqual(emptyHeadings(text.split('\n')), []);
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});

test('a code block of a twin section written in part keeps no blank line of it: nothing reads as a new unit inside the fence', async (t) => {
  const code = (extra: string) =>
    `\`\`\`php\nif ($this->canGate) {\n    $allowed = Gate::allows($this->canGate);\n    \n${extra}    if (! $allowed) {\n        $this->disabled = true;\n    }\n}\n\`\`\`\n`;
  const repo = sandbox(t, {
    'AGENTS.md': `# Forms\n\nFor agents.\n\n## Authorization\n\n${code('')}`,
    'CLAUDE.md': `# Forms for Claude\n\nFor Claude.\n\n## Authorization\n\n${code('    // checkboxes also stop instant saves\n')}`,
  });
  const plan = buildPlan(await scanRepository(repo));
  const text = content(plan);
  assert.ok(text.includes('```php\n    // checkboxes also stop instant saves\n```\n'), text);
  assert.ok(!text.includes('copilot-onboard'), text);
  for (const op of plan.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});

test('a second plan after the migration finds a code block a twin section wrote in part, line by line: nothing to do, the separators under the title too', async (t) => {
  const tree = (web: string) => `\`\`\`\napps/\n  api/   # server\n  web/   # ${web}\n  docs/  # documentation\n\`\`\`\n`;
  const repo = sandbox(t, {
    '.agents/AGENTS.md': `# App guide\n\nFor agents.\n\n---\n\n## Structure\n\n${tree('client')}\n---\n`,
    '.claude/CLAUDE.md': `# CLAUDE.md - App\n\n> Context file for Claude Code.\n\n---\n\n## Structure\n\n${tree('client (Next.js)')}\n---\n`,
  });
  const first = buildPlan(await scanRepository(repo));
  // A tree's line written in part keeps its root (issue 40).
  assert.ok(content(first).includes('```\napps/\n  web/   # client (Next.js)\n```'), content(first));
  for (const op of first.operations) writeFile(repo, op.path, op.content!);
  assert.deepEqual(
    buildPlan(await scanRepository(repo)).operations.map((o) => o.path),
    [],
  );
});
