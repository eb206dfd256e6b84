import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';

/**
 * A conflict mark stands above the whole block its rule moves with: a rule with its code, a lead-in
 * with its list, a line with the line that answers it. Put inside the block, it would cut the block
 * in two when the file is read again, and the next plan would move the halves apart.
 */
const COPILOT = '.github/copilot-instructions.md';
const MARK = '<!-- copilot-onboard: conflicting rules about package manager; decide which one stands -->';
const PNPM = { '.cursor/rules/pnpm.mdc': '---\nglobs: docs/**\nalwaysApply: false\n---\n- Use pnpm to install.\n' };

/** The lines from the mark on, as many as `n`. */
function fromMark(text: string, n: number): string[] {
  const lines = text.split('\n');
  const at = lines.indexOf(MARK);
  assert.ok(at >= 0, `no mark in:\n${text}`);
  return lines.slice(at, at + n);
}

const marks = (text: string) => text.split('\n').filter((l) => l === MARK).length;

test('a mark goes above a rule followed by its code, not between them, and the next plan is a no-op', async (t) => {
  const { first, second, read } = await plannedTwice(t, {
    'AGENTS.md': '# Agents\n\n- Run the tests with vitest.\n\n```sh\nnpm test\n```\n',
    ...PNPM,
  });
  assert.ok(first.operations.some((o) => o.path === COPILOT));
  assert.deepEqual(fromMark(read(COPILOT), 6), [MARK, '- Run the tests with vitest.', '', '```sh', 'npm test', '```']);
  assert.equal(marks(read(COPILOT)), 1);
  assert.deepEqual(second.operations, []);
});

test('a mark goes above the lead-in of a list whose item conflicts, and the list stays whole', async (t) => {
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': '# Agents\n\nSet up in this order:\n- Clone the repository.\n- Use npm to install dependencies.\n- Start the server.\n',
    ...PNPM,
  });
  const out = read(COPILOT);
  assert.deepEqual(fromMark(out, 5), [
    MARK,
    'Set up in this order:',
    '- Clone the repository.',
    '- Use npm to install dependencies.',
    '- Start the server.',
  ]);
  assert.equal(marks(out), 1);
  assert.deepEqual(second.operations, []);
});

test('a mark goes above a line whose answer conflicts', async (t) => {
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': '# Agents\n\nInstall what the lockfile names.\n\nOtherwise, use npm to install.\n',
    ...PNPM,
  });
  const out = read(COPILOT);
  assert.deepEqual(fromMark(out, 4), [MARK, 'Install what the lockfile names.', '', 'Otherwise, use npm to install.']);
  assert.deepEqual(second.operations, []);
});

test('when the first rule of a marked block is merged into an equal rule of another file, the mark goes above the side that is written', async (t) => {
  const rule = (body: string) => `---\nglobs: docs/**\nalwaysApply: false\n---\n${body}`;
  const { first, second, read } = await plannedTwice(t, {
    '.cursor/rules/a.mdc': rule('- Use pnpm to install.\n\n## General\n'),
    '.cursor/rules/b.mdc': rule('- Use pnpm to install.\n\n```sh\nnpm test\n```\n'),
  });
  const target = first.operations.find((o) => o.path.endsWith('.instructions.md'))!.path;
  const out = read(target);
  assert.deepEqual(fromMark(out.slice(out.indexOf('## General')), 4), [MARK, '```sh', 'npm test', '```']);
  assert.equal(marks(out), 2, out);
  assert.deepEqual(second.operations, []);
});

test('when a lead-in is merged into an equal lead-in of another file, the mark goes above the lead-in its list now follows', async (t) => {
  const rule = (body: string) => `---\nglobs: docs/**\nalwaysApply: false\n---\n${body}`;
  const { first, second, read } = await plannedTwice(t, {
    'CLAUDE.md': '```sh\nnpm test\n```\n',
    '.cursor/rules/a.mdc': rule('Steps:\n'),
    '.cursor/rules/b.mdc': rule('Steps:\n\n- Check the docs build.\n\n- Use pnpm to install.\n'),
  });
  const target = first.operations.find((o) => o.path.endsWith('.instructions.md'))!.path;
  const out = read(target);
  assert.deepEqual(fromMark(out, 6), [MARK, 'Steps:', '', '- Check the docs build.', '', '- Use pnpm to install.'], out);
  assert.equal(marks(out), 1, out);
  assert.deepEqual(second.operations, []);
});

test('a list item under a numbered step that reads as a heading is marked under the heading, not above the lead-in before it', async (t) => {
  const { second, read } = await plannedTwice(t, {
    'CLAUDE.md': '**Example:**\n\n1. Install the tools\n\n- Use npm to install dependencies.\n',
    ...PNPM,
  });
  const out = read(COPILOT);
  assert.deepEqual(fromMark(out, 2), [MARK, '- Use npm to install dependencies.'], out);
  assert.equal(marks(out), 1, out);
  assert.deepEqual(second.operations, []);
});

test('two conflicts in one block give one mark above it, naming both topics', async (t) => {
  const both = '<!-- copilot-onboard: conflicting rules about package manager and test framework; decide which one stands -->';
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': '# Agents\n\nBefore a pull request:\n- Use npm to install dependencies.\n- Run the tests with jest.\n',
    '.cursor/rules/docs.mdc': '---\nglobs: docs/**\nalwaysApply: false\n---\n- Use pnpm to install.\n- Run the tests with vitest.\n',
  });
  const out = read(COPILOT);
  const lines = out.split('\n');
  assert.deepEqual(lines.slice(lines.indexOf(both), lines.indexOf(both) + 2), [both, 'Before a pull request:'], out);
  assert.equal(lines.filter((l) => l.startsWith('<!-- copilot-onboard: conflicting')).length, 1, out);
  assert.deepEqual(second.operations, []);
});
