import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isStructured } from '../../server/src/analysis/analyze.js';
import { readFrontMatter } from '../../server/src/model/frontmatter.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import type { InstructionDoc } from '../../server/src/model/model.js';
import { buildPlan, type Plan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { restructure } from '../../server/src/planning/structure.js';
import { sandbox, writeFile, type Cleanup } from '../helpers/sandbox.js';

const COPILOT = '.github/copilot-instructions.md';

const INTRO = [
  'This service takes orders and sends them to the warehouse.',
  'It talks to a Postgres database and a message queue.',
  'The code lives in src and is split by feature.',
  'Each feature folder owns its routes and its models.',
  'Shared helpers sit in src/lib and stay small.',
  'Configuration is read from the environment once, at start.',
  'Logs go to stdout as JSON lines.',
];

/** Plan, write every operation's content, and plan again, up to `rounds` times. */
async function migrate(t: Cleanup, files: Record<string, string>, rounds = 3) {
  const repo = sandbox(t, files);
  const plans: Plan[] = [];
  for (let i = 0; i < rounds; i++) {
    const plan = buildPlan(await scanRepository(repo));
    plans.push(plan);
    if (plan.operations.length === 0) break;
    for (const op of plan.operations) {
      if (op.content === null) fs.rmSync(path.join(repo, op.path));
      else writeFile(repo, op.path, op.content);
    }
  }
  const read = (p: string) => fs.readFileSync(path.join(repo, p), 'utf8');
  return { repo, plans, read };
}

const lines = (text: string) => text.replace(/\n$/, '').split('\n');
const h2s = (text: string) =>
  splitUnits('x.md', lines(text))
    .filter((u) => u.kind === 'heading' && u.level === 2)
    .map((u) => u.lines[0]!);
const h1s = (text: string) =>
  splitUnits('x.md', lines(text))
    .filter((u) => u.kind === 'heading' && u.level === 1)
    .map((u) => u.lines[0]!);
const count = (text: string, line: string) => lines(text).filter((l) => l === line).length;
/** Lines of the `## ` section with this heading, up to the next `## ` heading. */
function section(text: string, heading: string): string[] {
  const all = lines(text);
  const start = all.indexOf(heading);
  assert.ok(start >= 0, `no section ${heading} in:\n${text}`);
  const end = all.findIndex((l, i) => i > start && /^## /.test(l));
  return all.slice(start + 1, end < 0 ? all.length : end).filter((l) => l.trim() !== '');
}

function doc(text: string): InstructionDoc {
  return {
    path: COPILOT,
    kind: 'copilot-instructions',
    scope: { kind: 'repo' },
    units: splitUnits(COPILOT, lines(text)),
    role: 'copilot',
    description: null,
    excludeAgent: [],
    aliasOf: null,
    notRule: null,
  };
}

test('repro A: a title, a long intro and loose rules in the Copilot file the person wrote are left as they are: the plan changes nothing', async (t) => {
  const source = [
    '# Project',
    '',
    ...INTRO,
    '',
    '- Write tests for every new route with vitest.',
    '- Install dependencies with pnpm only.',
    '- Use camelCase naming for variables.',
    '',
  ].join('\n');
  // Sorting the person's flat file into topic sections would move their lines (issue 40): not done.
  const { plans, read } = await migrate(t, { [COPILOT]: source });
  assert.deepEqual(plans[0]!.operations, []);
  assert.equal(read(COPILOT), source);
});

test('repro B: a file with sections keeps its shape: loose rules above the sections stay in place, nothing is moved', async (t) => {
  const source = [
    '# Project',
    '',
    '- Write unit tests with vitest.',
    '- Install dependencies with pnpm.',
    '- Use camelCase naming.',
    '- Keep functions short.',
    '- Never commit secrets.',
    '- Update the README when behaviour changes.',
    '- Use strict TypeScript.',
    '',
    '## Testing',
    '',
    '- Run the e2e tests before merging.',
    '',
    '## Deployment',
    '',
    '- Deploy with the release script after a build.',
    '',
  ].join('\n');
  const { plans } = await migrate(t, { [COPILOT]: source });
  assert.deepEqual(plans[0]!.operations, [], 'sections give the file its structure: the plan changes nothing');
});

test('what restructure produces counts as structured, and restructuring it again gives the same lines', () => {
  const inputs = [
    ['# Project', '', ...INTRO, '', '- Write tests with vitest.', '- Use pnpm.'],
    [
      '# Project',
      'You are a careful engineer.',
      'Use pnpm to install dependencies.',
      'Write tests with vitest.',
      'Never commit secrets or API keys.',
    ],
    ['# UI', '', '🎨 Code Style', '- Use 2 spaces.', '', '**Release:**', 'Tag the commit.', 'Push the tag.'],
  ];
  for (const input of inputs) {
    const once = restructure(COPILOT, splitUnits(COPILOT, input)).lines;
    assert.ok(isStructured(doc(once.join('\n'))), `structured:\n${once.join('\n')}`);
    const twice = restructure(COPILOT, splitUnits(COPILOT, once)).lines;
    assert.deepEqual(twice, once);
  }
});

test('a flat Copilot file that has headings keeps its shape line for line when restructured', () => {
  const inputs = [
    [
      '# Project',
      '',
      'Short intro.',
      '',
      '- a rule',
      '- Write tests.',
      '',
      '## Testing',
      '',
      '- Run e2e.',
      '',
      '## Deployment',
      '',
      '- Ship it.',
    ],
    ['---', 'x: 1', '---', '# T', '', 'Intro.', '', 'Follow these rules:', '', '- one', '- two', '', '### Sub', '', 'Under sub.'],
    ['Loose paragraph first.', '', '- Use pnpm.', '', '## Testing', '', '- Run tests.'],
  ];
  for (const input of inputs) assert.deepEqual(restructure(COPILOT, splitUnits(COPILOT, input)).lines, input);
});

test('a title with a long intro and sections is structured', () => {
  assert.ok(isStructured(doc(['# Project', '', ...INTRO, '', '## Testing', '', '- Run tests.'].join('\n'))));
  assert.ok(
    !isStructured(doc(['# Project', '', ...INTRO, '', ...INTRO.map((l) => `- ${l}`), '', '## Testing', '', '- Run tests.'].join('\n'))),
  );
});

test("legacy H1 titles: the title names the file's chapter, its headings move down as a tree, nothing lost or doubled, no-op after", async (t) => {
  const files = {
    'AGENTS.md': [
      '# Security',
      '',
      '- Never log access tokens.',
      '- Rotate signing keys every quarter.',
      '',
      '## Testing',
      '',
      '- Run the whole suite before a release.',
      '',
    ].join('\n'),
    'CLAUDE.md': ['# House style', '', 'Always prefer small modules.', '', '## Details', '', '- Avoid global state.', ''].join('\n'),
  };
  const { plans, read } = await migrate(t, files);
  assert.deepEqual(plans[1]?.operations ?? [], [], 'the second plan is a no-op');
  const out = read(COPILOT);
  assert.equal(h1s(out).length, 1, `one H1 title:\n${out}`);
  assert.match(lines(out)[0]!, /^# /);
  assert.deepEqual(h2s(out), ['## Security', '## House style']);
  assert.deepEqual(section(out, '## Security'), [
    '- Never log access tokens.',
    '- Rotate signing keys every quarter.',
    '### Testing',
    '- Run the whole suite before a release.',
  ]);
  assert.deepEqual(section(out, '## House style'), ['Always prefer small modules.', '### Details', '- Avoid global state.']);
  assert.ok(!out.includes('<!-- copilot-onboard'), 'no comment where the heading itself can stand');
  assert.ok(
    plans[0]!.notes.some((n) => /AGENTS\.md: 2 headings move down a level/.test(n)),
    plans[0]!.notes.join('\n'),
  );
  for (const text of Object.values(files)) {
    for (const l of lines(text).filter((x) => x.trim() !== ''))
      assert.equal(count(out, l) + (/^#+\s/.test(l) ? count(out, `#${l}`) : 0), 1, l);
  }
});

test('a legacy title that names a file (# AGENTS.md) is no subject: it is kept in a comment on top, and the chapters stay ## sections', async (t) => {
  const files = {
    'AGENTS.md': ['# AGENTS.md', '', 'This file guides coding agents.', '', '## Commands', '', '- Build with make.', ''].join('\n'),
  };
  const { plans, read } = await migrate(t, files);
  assert.deepEqual(plans[1]?.operations ?? [], []);
  const out = read(COPILOT);
  assert.equal(h1s(out).length, 1, out);
  assert.deepEqual(h2s(out), ['## Commands']);
  assert.equal(count(out, '# AGENTS.md'), 1);
  assert.ok(lines(out).indexOf('# AGENTS.md') < lines(out).indexOf('This file guides coding agents.'));
  assert.ok(
    lines(out).indexOf('This file guides coding agents.') < lines(out).indexOf('## Commands'),
    'the intro stays above the first section',
  );
});

test('two files with a ## Database chapter about different packages keep two sections', async (t) => {
  const { plans, read } = await migrate(t, {
    'AGENTS.md': ['# Orders API', '', '## Database', '', '- Use Postgres.', ''].join('\n'),
    'CLAUDE.md': ['# Billing worker', '', '## Database', '', '- Read from the replica.', ''].join('\n'),
  });
  assert.deepEqual(plans[1]?.operations ?? [], []);
  const out = read(COPILOT);
  assert.deepEqual(h2s(out), ['## Orders API', '## Billing worker']);
  assert.deepEqual(section(out, '## Orders API'), ['### Database', '- Use Postgres.']);
  assert.deepEqual(section(out, '## Billing worker'), ['### Database', '- Read from the replica.']);
  assert.deepEqual(plans[0]!.merged, []);
});

test('a pseudo-heading in a legacy file becomes a heading, named in the notes, with its lines under it', async (t) => {
  const { plans, read } = await migrate(t, {
    'AGENTS.md': [
      '# Release guide',
      '',
      '**Release:**',
      'Tag the commit.',
      'Push the tag.',
      '',
      "⚠️ Don'ts",
      "- Don't push on Friday.",
      '',
    ].join('\n'),
  });
  assert.deepEqual(plans[1]?.operations ?? [], []);
  const out = read(COPILOT);
  assert.deepEqual(section(out, '## Release guide'), [
    '### **Release:**',
    'Tag the commit.',
    'Push the tag.',
    "### ⚠️ Don'ts",
    "- Don't push on Friday.",
  ]);
  assert.ok(
    plans[0]!.notes.some((n) => n.includes('AGENTS.md:3 "**Release:**" reads as a heading')),
    plans[0]!.notes.join('\n'),
  );
  assert.match(plans[0]!.operations[0]!.diff, /^\+### \*\*Release:\*\*$/m);
});

test('drifted copies: a unit equal under the same heading is written once, what differs stays under its heading', async (t) => {
  const a = ['# Orders', '', '## Testing', '', '- Run pnpm test.', '- Use vitest.', ''].join('\n');
  const b = ['# Orders', '', '## Testing', '', '- Run pnpm test:unit.', '- Use vitest.', ''].join('\n');
  const { plans, read } = await migrate(t, { 'AGENTS.md': a, 'CLAUDE.md': b });
  assert.deepEqual(plans[1]?.operations ?? [], []);
  const out = read(COPILOT);
  assert.deepEqual(section(out, '## Orders'), ['### Testing', '- Run pnpm test.', '- Use vitest.', '- Run pnpm test:unit.']);
});

test('a lead-in line ending with ":" stays right before its list, in every kind of source', async (t) => {
  const rule = [
    'There are four major object types:',
    '',
    '- Tools',
    '- Resources',
    '- Resource templates',
    '- Prompts',
    '',
    'Changes to one usually need testing on all the others.',
    '',
  ];
  const { plans, read } = await migrate(t, {
    '.cursor/rules/objects.mdc': ['---', 'description:', 'globs:', 'alwaysApply: true', '---', ...rule].join('\n'),
    'CLAUDE.md': ['# Guide', '', 'Before a release, check these:', '- The changelog has an entry', '- The version is bumped', ''].join(
      '\n',
    ),
  });
  assert.deepEqual(plans[1]?.operations ?? [], []);
  const out = lines(read(COPILOT));
  const at = out.indexOf('There are four major object types:');
  assert.deepEqual(out.slice(at, at + 6), rule.slice(0, 6));
  const at2 = out.indexOf('Before a release, check these:');
  assert.deepEqual(out.slice(at2, at2 + 3), ['Before a release, check these:', '- The changelog has an entry', '- The version is bumped']);
});

test('a lead-in in a flat Copilot file stays with its list when restructured', () => {
  const input = ['# T', '', 'Intro.', '', 'Run these before you push:', '', '- npm test', '- npm run lint', '', '- Use pnpm to install.'];
  const out = restructure(COPILOT, splitUnits(COPILOT, input)).lines;
  const at = out.indexOf('Run these before you push:');
  assert.ok(at > 0 && out.slice(0, at).some((l) => l.startsWith('## ')), `the lead-in left the intro:\n${out.join('\n')}`);
  assert.deepEqual(out.slice(at, at + 4), ['Run these before you push:', '', '- npm test', '- npm run lint']);
});

test('front matter is found exactly as frontmatter.ts finds it', () => {
  const cases = [
    ['---', 'a: 1', '---', 'body'],
    ['--- ', 'a: 1', '---', 'body'],
    ['---\t', 'a: 1', '---  ', 'body'],
    ['  ---', 'a: 1', '...', 'body'],
    ['---', 'a: 1', ' --- ', 'body'],
    ['---', 'a: 1', 'body'],
    ['x', '---', 'a: 1', '---'],
    ['----', 'a: 1', '----'],
    ['---', '---'],
  ];
  for (const c of cases) {
    const fm = splitUnits('f.md', c).find((u) => u.kind === 'frontmatter');
    assert.equal(fm?.lines.length ?? null, readFrontMatter(c)?.lineCount ?? null, JSON.stringify(c));
  }
});

test('front matter opened with trailing spaces does not leak into the migrated body', async (t) => {
  const { plans, read } = await migrate(t, {
    '.cursor/rules/api.mdc': ['--- ', 'globs: src/api/**', 'alwaysApply: false', '---', '- Validate every request body.', ''].join('\n'),
    '.github/instructions/web.instructions.md': ['---  ', 'applyTo: "web/**"', '---', '- Use semantic HTML.', ''].join('\n'),
  });
  assert.deepEqual(plans[1]?.operations ?? [], []);
  const created = plans[0]!.operations.find((o) => o.path.endsWith('api.instructions.md'));
  assert.ok(created, plans[0]!.operations.map((o) => o.path).join());
  const body = read(created.path);
  assert.equal(count(body, 'globs: src/api/**'), 0, body);
  assert.equal(count(body, 'alwaysApply: false'), 0, body);
  assert.equal(count(body, '- Validate every request body.'), 1);
});

test('HTML comments spanning lines are one unit, headings inside them are not headings', () => {
  const units = splitUnits('f.md', ['<!--', '# Not a title', '', '- not a rule', '-->', '', '# Title']);
  assert.deepEqual(
    units.map((u) => [u.kind, u.line, u.lines.length]),
    [
      ['html', 1, 5],
      ['heading', 7, 1],
    ],
  );
  const open = splitUnits('f.md', ['<!-- never closed', '# Title', '', 'Text.']);
  assert.deepEqual(
    open.map((u) => u.kind),
    ['html', 'heading', 'paragraph'],
    'an unclosed comment does not swallow the file',
  );
});

test('the plan is the same bytes twice', async (t) => {
  const files = {
    [COPILOT]: ['# Project', '', ...INTRO, '', '- Write tests with vitest.', '- Use pnpm.', ''].join('\n'),
    'AGENTS.md': ['# Security', '', '- Never log access tokens.', ''].join('\n'),
  };
  const a = await migrate(t, files, 1);
  const b = await migrate(t, files, 1);
  assert.deepEqual(a.plans[0]!.operations, b.plans[0]!.operations);
});

test('a conflict mark from an earlier migration is not written again when its topics come in another order', async (t) => {
  const { plans, read } = await migrate(t, {
    [COPILOT]: ['# Project', '', '## Testing', '', '- Use vitest for tests.', '', '## Tooling', '', '- Use pnpm for everything.', ''].join(
      '\n',
    ),
    'AGENTS.md': ['- Use jest for tests, and use npm for packages.', ''].join('\n'),
  });
  assert.ok(plans[0]!.conflicts.length > 0, 'the fixture has contradictions');
  assert.deepEqual(plans[1]?.operations ?? [], [], 'the second plan is a no-op');
  const marks = lines(read(COPILOT)).filter((l) => l.startsWith('<!-- copilot-onboard: conflicting'));
  assert.ok(marks.length > 0);
});

test("a legacy H1 over a one-line rule Copilot's file has already writes it once, and its chapters move under it", async (t) => {
  const { plans, read } = await migrate(t, {
    [COPILOT]: ['# Project', '', '## Rules', '', '- Never log access tokens.', ''].join('\n'),
    'AGENTS.md': ['# Security', '', '- Never log access tokens.', '', '## Commands', '', '- Build with make.', ''].join('\n'),
  });
  assert.deepEqual(plans[1]?.operations ?? [], []);
  const out = read(COPILOT);
  assert.deepEqual(h2s(out), ['## Rules', '## Security']);
  assert.deepEqual(section(out, '## Security'), ['### Commands', '- Build with make.']);
  assert.equal(count(out, '- Never log access tokens.'), 1);
  assert.deepEqual(
    plans[0]!.merged.map((m) => `${m.path}:${m.line}`),
    ['AGENTS.md:3'],
  );
});

test("a legacy file whose every rule Copilot's file has under the same headings adds nothing", async (t) => {
  const { plans } = await migrate(t, {
    [COPILOT]: ['# Project', '', '## Security', '', '- Never log access tokens.', ''].join('\n'),
    'AGENTS.md': ['## Security', '', '- Never log access tokens.', ''].join('\n'),
  });
  assert.deepEqual(plans[0]!.operations, []);
  assert.deepEqual(
    plans[0]!.merged.map((m) => `${m.path}:${m.line}`),
    ['AGENTS.md:1', 'AGENTS.md:3'],
  );
});

test('a mark the tool wrote stays with the rule it marks when a flat file is restructured', () => {
  const mark = '<!-- copilot-onboard: conflicting rules about package manager; decide which one stands -->';
  const input = ['# T', '', '- Keep functions short.', mark, '### Install', '', '- Use pnpm to install.', '', '- Write tests with vitest.'];
  const out = restructure(COPILOT, splitUnits(COPILOT, input)).lines;
  const at = out.indexOf(mark);
  assert.deepEqual(out.slice(at, at + 4), [mark, '### Install', '', '- Use pnpm to install.'], out.join('\n'));
});

test('code left open to the end of a legacy file is closed where it lands, so it swallows nothing after it', async (t) => {
  const { plans, read } = await migrate(t, {
    [COPILOT]: ['# Project', '', '## Testing', '', '- Run the tests.', '', '## Style', '', '- Keep lines short.', ''].join('\n'),
    'AGENTS.md': ['## Testing', '', 'Example:', '', '```sh', 'npm test', ''].join('\n'),
  });
  assert.deepEqual(plans[1]?.operations ?? [], [], 'the second plan is a no-op');
  const out = read(COPILOT);
  assert.deepEqual(section(out, '## Testing'), ['- Run the tests.']);
  assert.deepEqual(section(out, '### Testing'), ['Example:', '```sh', 'npm test', '```']);
  assert.deepEqual(h2s(out), ['## Testing', '## Style', '## General']);
});

test('code left open in a flat Copilot file is closed when restructure moves it', () => {
  const input = ['# T', '', '- Use pnpm to install.', '', '## Testing', '', '- Run tests.', '', '```sh', 'pnpm test'];
  const out = restructure(COPILOT, splitUnits(COPILOT, input));
  assert.deepEqual(out.lines.slice(-3), ['```sh', 'pnpm test', '```']);
  const again = splitUnits(COPILOT, out.lines);
  assert.ok(isStructured(doc(out.lines.join('\n'))));
  assert.deepEqual(restructure(COPILOT, again).lines, out.lines);
});
