import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { plannedTwice, sandbox } from '../helpers/sandbox.js';

/**
 * The sides of a reported conflict written into one Copilot file, each marked. A side that came
 * alone (the only line of its source in its section) moves next to the other, so the person
 * resolving the mark by hand sees the choice in one place; a side that came with other lines keeps
 * its place among them (issue 40: a line keeps its place among the lines it came with).
 */
const COPILOT = '.github/copilot-instructions.md';
const MARK = '<!-- copilot-onboard: conflicting rules about package manager; decide which one stands -->';
const FILES = {
  'AGENTS.md': '# Agent guide\n\n### Setup\n\n- Use pnpm for all package management.\n- Keep functions small.\n',
  'CLAUDE.md': '# Project\n\n## Dependencies\n\n- Use yarn to install packages.\n\n## Style\n\n- Prefer named exports.\n',
  '.cursorrules': '- Use npm to install dependencies.\n- Write tests first.\n',
};
const WRITTEN = [
  '# Copilot instructions',
  '',
  MARK,
  '- Use npm to install dependencies.',
  '- Write tests first.',
  '',
  '## Agent guide',
  '',
  '### Setup',
  '',
  MARK,
  '- Use pnpm for all package management.',
  '- Keep functions small.',
  '',
  '## Project',
  '',
  '### Dependencies',
  '',
  MARK,
  '- Use yarn to install packages.',
  '',
  '### Style',
  '',
  '- Prefer named exports.',
  '',
].join('\n');

test('three files disagreeing about the package manager, each side among the lines it came with: each stays there, marked, byte for byte after migrate', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  const plan = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/plan.json'), 'utf8'));
  const op = plan.operations.find((o: { path: string }) => o.path === COPILOT);
  assert.equal(op.content, WRITTEN);
  const a = await s.call('onboarding_approve');
  assert.equal(outcomeOf(a), 'approved', textOf(a));
  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'migrated', textOf(m));
  assert.equal(fs.readFileSync(path.join(repo, COPILOT), 'utf8'), WRITTEN);
});

test('sides left in place: the next plan is a no-op', async (t) => {
  const { second, read } = await plannedTwice(t, FILES);
  assert.equal(read(COPILOT), WRITTEN);
  assert.deepEqual(second.operations, []);
});

test('sides are not gathered where it would leave a heading with nothing under it: each stays under its own, marked', async (t) => {
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': '# Agent guide\n\n### Setup\n\n- Use pnpm for all package management.\n\n### Style\n\n- Indent with 2 spaces.\n',
    'CLAUDE.md': '# Project\n\n## Dependencies\n\n- Use yarn to install packages.\n',
  });
  const out = read(COPILOT);
  assert.match(out, new RegExp(`### Setup\n\n${MARK}\n- Use pnpm for all package management\\.\n`));
  assert.match(out, new RegExp(`### Dependencies\n\n${MARK}\n- Use yarn to install packages\\.\n`));
  assert.deepEqual(second.operations, []);
});

test('a side that came alone joins the other, a blank line between a paragraph and a list, under the one mark', async (t) => {
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': '# Agent guide\n\n## Setup\n\nUse pnpm for all package management.\n\n- Keep functions small.\n',
    '.cursorrules': '- Use npm to install dependencies.\n',
  });
  assert.equal(
    read(COPILOT),
    [
      '# Copilot instructions',
      '',
      '## Agent guide',
      '',
      '### Setup',
      '',
      MARK,
      'Use pnpm for all package management.',
      '',
      '- Use npm to install dependencies.',
      '',
      '- Keep functions small.',
      '',
    ].join('\n'),
  );
  assert.deepEqual(second.operations, []);
});

test('a side in a paragraph that came with other lines stays with them: each side marked where it is', async (t) => {
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': '# Agent guide\n\n## Setup\n\nUse pnpm for all package management.\n\n- Keep functions small.\n',
    '.cursorrules': '- Use npm to install dependencies.\n- Write tests first.\n',
  });
  assert.equal(
    read(COPILOT),
    [
      '# Copilot instructions',
      '',
      MARK,
      '- Use npm to install dependencies.',
      '- Write tests first.',
      '',
      '## Agent guide',
      '',
      '### Setup',
      '',
      MARK,
      'Use pnpm for all package management.',
      '',
      '- Keep functions small.',
      '',
    ].join('\n'),
  );
  assert.deepEqual(second.operations, []);
});
