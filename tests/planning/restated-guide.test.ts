import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan, DEFAULT_CHOICES } from '../../server/src/planning/plan.js';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';
import { planFidelity } from '../helpers/plan-fidelity.js';

/**
 * A guide that restates, in its own words, the guide its target already holds (issue 40, "a Copilot
 * digest plus its source give one section per topic"; Resume-Matcher's three guides beside its Copilot
 * file, 0–10% of their lines word for word): approve's first round offers to leave it out whole, "the
 * Copilot file is already this guide", its lines listed; kept by default, as every such offer.
 */
const COPILOT = [
  '# Orders service',
  '',
  '## Setup',
  '',
  '- Install dependencies with `pnpm install` (Node 20 or newer).',
  '- Copy `.env.example` to `.env` before the first run.',
  '',
  '## Build and test',
  '',
  '```bash',
  'pnpm build          # compile to dist/',
  'pnpm test           # unit tests with vitest',
  'pnpm lint           # eslint',
  '```',
  '',
  '## Code style',
  '',
  '- TypeScript strict mode, 2-space indents, single quotes.',
  '- PascalCase for classes, camelCase for functions and variables.',
  '',
  '## Error handling',
  '',
  '- Log full errors on the server; return generic messages to clients.',
  '- Never swallow an exception without logging it.',
  '',
  '## Pull requests',
  '',
  '- Reference the issue (`Fixes #123`) in the description.',
  '- Attach screenshots for UI changes.',
  '',
].join('\n');

/** The same five sections in other words, numbered, plus one rule of its own. */
const CLAUDE = [
  '# CLAUDE.md - Orders service',
  '',
  '## 1. Setup (first run)',
  '',
  '1. Run `pnpm install` to install dependencies (Node 20 or newer)',
  '2. Copy `.env.example` to `.env` before the first run',
  '',
  '## 2. Build and Test',
  '',
  '```bash',
  'pnpm build   # Build to dist/',
  'pnpm test    # Run the vitest unit tests',
  'pnpm lint    # Lint with eslint',
  '```',
  '',
  '## 3. Code Style',
  '',
  '- Strict TypeScript, 2-space indents, single quotes',
  '- Use PascalCase for classes and camelCase for functions, variables',
  '- Keep modules under 300 lines.',
  '',
  '## 4. Error Handling',
  '',
  '- **Log full errors server-side**, return generic messages to clients',
  '',
  '## 5. Pull Requests',
  '',
  '- Always reference the issue (`Fixes #123`)',
  '- Attach screenshots to UI changes',
  '',
].join('\n');

const WHY = '.github/copilot-instructions.md is already this guide, in other words (5 of its 5 sections on its topics): not rules to add';

test('a CLAUDE.md restating the Copilot file in its own words: what it restates is merged, its new rule kept under its heading; the file is offered to leave out whole, with why', async (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': COPILOT, 'CLAUDE.md': CLAUDE });
  const plan = buildPlan(await scanRepository(repo));
  // The person's file only grows at its end, by the one rule it lacks, under its own heading.
  const written =
    COPILOT + ['', '## CLAUDE.md - Orders service', '', '### 3. Code Style', '', '- Keep modules under 300 lines.', ''].join('\n');
  assert.equal(plan.operations.find((o) => o.path === '.github/copilot-instructions.md')?.content, written);
  // Every other line is named as merged, with the line of the person's file that says it.
  assert.deepEqual(
    plan.merged.filter((m) => m.path === 'CLAUDE.md').map((m) => [m.line, m.keptAt.line]),
    [
      [3, 3],
      [5, 5],
      [6, 6],
      [8, 8],
      [10, 11],
      [11, 11],
      [12, 12],
      [13, 13],
      [14, 11],
      [18, 18],
      [19, 19],
      [22, 21],
      [24, 23],
      [26, 26],
      [28, 28],
      [29, 29],
    ],
  );
  const note = plan.notes.find((n) =>
    n.startsWith('CLAUDE.md: 16 lines say what .github/copilot-instructions.md says already, in other words'),
  );
  assert.ok(
    note?.endsWith("its other 3 lines are written, under its own headings; approve's first round can leave the whole file out."),
    note,
  );
  const offered = plan.assistants.find((o) => o.path === 'CLAUDE.md');
  assert.deepEqual(
    offered?.lines.map((l) => [l.line, l.names]),
    [[1, WHY]],
  );
  assert.ok(offered.fates.includes('leave_out'));
  // Leaving it out takes what is written of it.
  assert.deepEqual(
    offered.leftOut.map((l) => l.line),
    [1, 16, 20],
  );
  // Left out: nothing is written to the Copilot file, and every line is named as merged or dropped with why.
  const chosen = buildPlan(await scanRepository(repo), undefined, { ...DEFAULT_CHOICES, assistants: { 'CLAUDE.md': 'leave_out' } });
  assert.equal(
    chosen.operations.find((o) => o.path === '.github/copilot-instructions.md'),
    undefined,
  );
  assert.deepEqual(
    chosen.dropped.filter((d) => d.path === 'CLAUDE.md').map((d) => [d.line, d.reason]),
    CLAUDE.split('\n')
      .flatMap((l, i) => (l.trim() === '' ? [] : [i + 1]))
      .map((line) => [line, `${WHY}: left out as you chose`]),
  );
  // A second plan after the migration has nothing to do.
  fs.writeFileSync(path.join(repo, '.github/copilot-instructions.md'), written);
  assert.deepEqual(buildPlan(await scanRepository(repo)).operations, []);
});

test('a guide on other topics, or one that shares headings but says other things, is not offered', async (t) => {
  const other = [
    '# CLAUDE.md',
    '',
    '## Setup',
    '',
    '- Start the database with `docker compose up db` and seed it with `make seed`.',
    '- The admin user is `admin@example.com`; reset it with `make reset-admin`.',
    '',
    '## Code style',
    '',
    '- Prefer composition over inheritance in the domain layer.',
    '- Each aggregate lives in its own folder with its events.',
    '',
    '## Deployment',
    '',
    '- Deploy with `fly deploy` from the `main` branch only.',
    '',
  ].join('\n');
  const plan = buildPlan(await scanRepository(sandbox(t, { '.github/copilot-instructions.md': COPILOT, 'CLAUDE.md': other })));
  assert.equal(
    plan.assistants.find((o) => o.path === 'CLAUDE.md'),
    undefined,
  );
});

test('a GEMINI.md restating an AGENTS.md (no Copilot file): the later guide is offered, the first is written', async (t) => {
  const agents = COPILOT.replace('# Orders service', '# AGENTS.md');
  const gemini = CLAUDE.replace('# CLAUDE.md - Orders service', '# Gemini context for the orders service');
  const plan = buildPlan(await scanRepository(sandbox(t, { 'AGENTS.md': agents, 'GEMINI.md': gemini })));
  assert.equal(
    plan.assistants.find((o) => o.path === 'AGENTS.md'),
    undefined,
  );
  assert.deepEqual(
    plan.assistants.find((o) => o.path === 'GEMINI.md')?.lines.map((l) => [l.line, l.names]),
    [[1, WHY]],
  );
});

test("approve's first round lists the restating guide with why; leave out leaves the person's Copilot file byte for byte", async (t) => {
  const rule = [
    '---',
    'description: API handlers',
    'globs: api/**',
    'alwaysApply: false',
    '---',
    '- Keep handlers under 50 lines.',
    '',
  ].join('\n');
  const repo = sandbox(t, { '.github/copilot-instructions.md': COPILOT, 'CLAUDE.md': CLAUDE, '.cursor/rules/api.mdc': rule });
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) =>
      Object.fromEntries(Object.keys(props).flatMap((k) => (k.startsWith('assistant_') ? [[k, 'leave_out']] : []))),
    ),
  });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  const message = (s.elicitations[0] as any).message as string;
  assert.ok(message.includes(`  CLAUDE.md:1: # CLAUDE.md - Orders service (${WHY})`), message);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8'), COPILOT);
  assert.equal(fs.readFileSync(path.join(repo, 'CLAUDE.md'), 'utf8'), CLAUDE);
  assert.ok(fs.existsSync(path.join(repo, '.github/instructions/api.instructions.md')));
});

test("the fidelity measure counts a heading's topic written twice from two files, not two packages' sections nor the guide left out", async (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': COPILOT, 'CLAUDE.md': CLAUDE });
  const linesOf = (p: string) => fs.readFileSync(path.join(repo, p), 'utf8').split('\n');
  const scan = await scanRepository(repo);
  assert.deepEqual(
    planFidelity(repo, buildPlan(scan), 'x', linesOf).topicsTwice.map((c) => c.replace(/^x: \.github\/copilot-instructions\.md:\d+ /, '')),
    // The rule it adds stands under its own heading, after the person's text (fixed ground): that topic is written twice.
    ['"### 3. Code Style" (first at line 16)'],
  );
  const left = buildPlan(scan, undefined, { ...DEFAULT_CHOICES, assistants: { 'CLAUDE.md': 'leave_out' } });
  assert.deepEqual(planFidelity(repo, left, 'x', linesOf).topicsTwice, []);
  const orders = ['# Orders API', '', '## Database', '', '- Use Postgres through the query builder.', ''].join('\n');
  const billing = ['# Billing worker', '', '## Database', '', '- Read from the replica only.', ''].join('\n');
  const two = sandbox(t, { 'AGENTS.md': orders, 'CLAUDE.md': billing });
  const twoLines = (p: string) => fs.readFileSync(path.join(two, p), 'utf8').split('\n');
  assert.deepEqual(planFidelity(two, buildPlan(await scanRepository(two)), 'x', twoLines).topicsTwice, []);
});

test('a restated line whose value differs is kept, and so is a command that differs; a lead-in is never parted from its list', async (t) => {
  const copilot = [
    '# Billing',
    '',
    '## Limits',
    '',
    '- Request timeout: 30 seconds.',
    '- Retry a failed call at most 3 times.',
    '',
    '## Commands',
    '',
    '```bash',
    'pnpm test unit      # fast tests',
    'pnpm lint',
    '```',
    '',
  ].join('\n');
  const guide = [
    '# AGENTS.md',
    '',
    '## Limits',
    '',
    '- Request timeout: 60 seconds.',
    '- Retry a failed call 3 times at most.',
    '',
    '## Commands',
    '',
    'Before you push:',
    '',
    '```bash',
    'pnpm test e2e',
    'pnpm lint           # eslint',
    '```',
    '',
  ].join('\n');
  const plan = buildPlan(await scanRepository(sandbox(t, { '.github/copilot-instructions.md': copilot, 'AGENTS.md': guide })));
  assert.equal(
    plan.operations.find((o) => o.path === '.github/copilot-instructions.md')?.content,
    copilot +
      [
        '',
        '## General',
        '',
        '<!-- copilot-onboard: top-level heading from AGENTS.md, kept as a comment (one title per file):',
        '# AGENTS.md',
        '-->',
        '',
        '### Limits',
        '',
        '- Request timeout: 60 seconds.',
        '',
        '### Commands',
        '',
        'Before you push:',
        '',
        '```bash',
        'pnpm test e2e',
        'pnpm lint           # eslint',
        '```',
        '',
      ].join('\n'),
  );
  assert.deepEqual(
    plan.merged.filter((m) => m.path === 'AGENTS.md').map((m) => [m.line, m.keptAt.line]),
    [[6, 6]],
  );
});

test('a line that contradicts the line it shares most words with is no restatement: both land, each marked', async (t) => {
  // Found by the fuzzed property (tests/planning/multiplicity.test.ts, seed -1245604974): three words in
  // four shared made "Use pnpm to install." a restatement of "Use npm to install dependencies." and the
  // plan dropped the pnpm side of the conflict it reported.
  const files = {
    'CLAUDE.md': '## General\n\n```sh\nnpm test\n```\n\n## General\n\n- Use pnpm to install.\n',
    '.github/copilot-instructions.md': '- Use npm to install dependencies.\n\n## General\n',
  };
  const plan = buildPlan(await scanRepository(sandbox(t, files)));
  const written = plan.operations.find((o) => o.path === '.github/copilot-instructions.md')?.content ?? '';
  const lines = written.split('\n');
  for (const rule of ['- Use npm to install dependencies.', '- Use pnpm to install.']) {
    const at = lines.indexOf(rule);
    assert.ok(at > 0, `${rule} is written:\n${written}`);
    assert.match(lines[at - 1]!, /^<!-- copilot-onboard: conflicting rules about package manager/, `${rule} is marked`);
  }
  assert.ok(!plan.merged.some((m) => m.text === '- Use pnpm to install.'), 'not named as merged');
});

test('a guide line with a word of its own the target line lacks is no restatement: another tool, a dropped object, a link to another file; other forms of words and grammar are', async (t) => {
  // Found by the fuzzed property (tests/planning/multiplicity.test.ts, seed 1050702485): with no contradiction
  // reported (the guide says npm too, as a fallback), seven terms in ten made "Use pnpm to install." a
  // restatement of "Use npm to install dependencies.", and the plan wrote no pnpm at all.
  const copilot = [
    '# Shop',
    '',
    '## Setup',
    '',
    '- Use npm to install dependencies.',
    '- Otherwise, use Docker to start the services.',
    '- Start development servers with `npm run dev`.',
    '',
    '## Docs',
    '',
    '- [backend-architecture.md](docs/backend-architecture.md): backend modules, API endpoints, services',
    '- Reference the issue (`Fixes #123`) in the description.',
    '',
  ].join('\n');
  const guide = [
    '# AGENTS.md',
    '',
    '## Setup',
    '',
    '- Use pnpm to install dependencies.',
    '- Otherwise, use npm to install dependencies.',
    '- Use Docker to start the services on login.',
    '- Start dev servers with `npm run dev`.',
    '',
    '## Docs',
    '',
    '- [Backend guide](docs/backend-guide.md): backend modules, API endpoints, services',
    '- Always reference the issue (`Fixes #123`).',
    '',
  ].join('\n');
  const plan = buildPlan(await scanRepository(sandbox(t, { '.github/copilot-instructions.md': copilot, 'AGENTS.md': guide })));
  const written = plan.operations.find((o) => o.path === '.github/copilot-instructions.md')?.content ?? '';
  const mergedLines = plan.merged.filter((m) => m.path === 'AGENTS.md').map((m) => m.text);
  // Said again in other forms of its words, or with grammar only: merged, not written again.
  for (const line of ['- Start dev servers with `npm run dev`.', '- Always reference the issue (`Fixes #123`).']) {
    assert.ok(mergedLines.includes(line), `${line} is merged:\n${written}`);
    assert.ok(!written.includes(line), `${line} is not written again`);
  }
  // A word of its own where the target's line has another, or none: written, not merged.
  for (const line of [
    '- Use pnpm to install dependencies.',
    '- Use Docker to start the services on login.',
    '- [Backend guide](docs/backend-guide.md): backend modules, API endpoints, services',
  ]) {
    assert.ok(written.split('\n').includes(line), `${line} is written:\n${written}`);
    assert.ok(!mergedLines.includes(line), `${line} is not named as merged`);
  }
});
