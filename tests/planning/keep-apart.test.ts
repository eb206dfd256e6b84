import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';
import { keepUnitsApart, LIST_END } from '../../server/src/planning/render/keep-apart.js';

/**
 * A unit whose first line is indented, written after a list item it did not follow in its own file,
 * would read as part of that item (past a blank line an indented line continues an item). A comment
 * line at the margin ends the list first; lines that stood together in their file keep their reading.
 */
const COPILOT = '.github/copilot-instructions.md';

test("an indented line from AGENTS.md written after Copilot's last list item stays its own, and the next plan is a no-op", async (t) => {
  const { first, second, read } = await plannedTwice(t, {
    [COPILOT]: '- Keep functions short.\n',
    'AGENTS.md': '   Ask before you rename a public function.\n',
  });
  assert.equal(read(COPILOT), `- Keep functions short.\n\n${LIST_END}\n   Ask before you rename a public function.\n`);
  assert.ok(
    first.notes.some((n) => n.startsWith('AGENTS.md:1 "Ask before you rename a public function." starts indented') && n.includes(COPILOT)),
    first.notes.join('\n'),
  );
  assert.deepEqual(second.operations, []);
});

test('an indented list item from another file does not nest under the item above it', async (t) => {
  const { second, read } = await plannedTwice(t, {
    [COPILOT]: '# Project\n\n- Keep functions short.\n',
    'CLAUDE.md': '  - Name tests after what they check.\n',
  });
  const lines = read(COPILOT).split('\n');
  const at = lines.indexOf('  - Name tests after what they check.');
  assert.deepEqual(lines.slice(at - 2, at + 1), ['', LIST_END, '  - Name tests after what they check.'], lines.join('\n'));
  assert.deepEqual(second.operations, []);
});

test('an item and its indented lines after a blank line, as they stood in one file, get no comment', async (t) => {
  const body = '- Keep functions short.\n\n  Split a function that needs a comment to explain its steps.\n';
  const { first, second, read } = await plannedTwice(t, { 'AGENTS.md': `# Agents\n\n${body}` });
  assert.ok(!read(COPILOT).includes(LIST_END), read(COPILOT));
  assert.ok(read(COPILOT).includes(body));
  assert.ok(!first.notes.some((n) => n.includes('starts indented')));
  assert.deepEqual(second.operations, []);
});

test('keepUnitsApart cuts where lines from two places meet inside one list item, and only there', () => {
  const ref = (path: string, line: number) => ({ path, line });
  const rendered = {
    lines: ['- a', '', '  b', '', '  c', '', '  d'],
    refs: [ref('A.md', 1), null, ref('A.md', 3), null, ref('B.md', 1), null, ref('B.md', 9)],
  };
  const { rendered: out, before } = keepUnitsApart(rendered);
  assert.deepEqual(out.lines, ['- a', '', '  b', '', LIST_END, '  c', '', LIST_END, '  d']);
  assert.deepEqual(before, [ref('B.md', 1), ref('B.md', 9)]);
  assert.equal(out.refs.length, out.lines.length);
});
