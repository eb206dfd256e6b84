import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedSandbox, plannedTwice } from '../helpers/sandbox.js';
import { insertMarks } from '../../server/src/planning/render/marks.js';
import { LineMap } from '../../server/src/planning/render/line-map.js';
import { KeyMap, anywhereHeadingKey, anywhereKey, headKey, ruleKey } from '../../server/src/planning/render/keys.js';

/**
 * The rendering of the written files, piece by piece: what a written unit is found again under, the
 * conflict marks, and the topics the plan names them by.
 */
const COPILOT = '.github/copilot-instructions.md';
const mark = (topics: string) => `<!-- copilot-onboard: conflicting rules about ${topics}; decide which one stands -->`;

test('a rule and a heading are found under keys of their own kind: "Hello" is not the heading "# Ello"', () => {
  const keys = new KeyMap<string>();
  keys.ensure(anywhereHeadingKey('# Ello'), () => 'heading');
  assert.equal(keys.get(anywhereKey('Hello')), undefined);
  assert.equal(keys.get(anywhereHeadingKey('## ello')), 'heading', 'a heading is found by its words, level and case aside');
  keys.ensure(ruleKey('setup', 'Run it.'), () => 'rule');
  assert.equal(keys.get(headKey('setup', 'Run it.')), undefined);
  assert.equal(keys.get(ruleKey('', 'Run it.')), undefined, 'a rule under a heading is not the rule under none');
});

test('a one-word rule in GEMINI.md is written, not merged into a heading of AGENTS.md with the same letters but one', async (t) => {
  const { plan, content } = await plannedSandbox(t, { 'AGENTS.md': '# Ello\n\n- Keep it short.\n', 'GEMINI.md': 'Hello\n' });
  assert.deepEqual(plan.merged, []);
  assert.match(content(COPILOT)!, /^Hello$/m);
});

test('lines by source line: set once keeps its first place, and equal paths with other lines stay apart', () => {
  const m = new LineMap<string>([[{ path: 'a.md', line: 1 }, 'one']]);
  m.set({ path: 'a.md:1', line: 2 }, 'other file');
  m.set({ path: 'a.md', line: 12 }, 'twelve');
  m.set({ path: 'a.md', line: 1 }, 'one again');
  assert.equal(m.size, 3);
  assert.deepEqual(m.values(), ['one again', 'other file', 'twelve']);
  assert.equal(m.has({ path: 'a.md', line: 2 }), false);
});

test('a conflict mark names its topics sorted, and one already above that names them in another order stands alone', () => {
  const at = { path: 'AGENTS.md', line: 3 };
  const marks = new LineMap([[at, ['test framework', 'package manager']]]);
  const fresh = insertMarks({ lines: ['- Use npm.'], refs: [at] }, marks);
  assert.deepEqual(fresh.lines, [mark('package manager and test framework'), '- Use npm.']);
  const again = insertMarks({ lines: [mark('test framework and package manager'), '- Use npm.'], refs: [null, at] }, marks);
  assert.deepEqual(again.lines, [mark('test framework and package manager'), '- Use npm.']);
});

test('a topic with "and" in it is found in a mark written before, read as the words between its "and"s', () => {
  const at = { path: 'AGENTS.md', line: 1 };
  const marks = new LineMap([[at, ['build and test']]]);
  const r = insertMarks({ lines: [mark('build and test'), '- Run make.'], refs: [null, at] }, marks);
  assert.deepEqual(r.lines, [mark('build and test'), '- Run make.']);
});

test("a contradiction's marks name the topic analysis found, the one its description says in words", async (t) => {
  const { analysis, plan, content } = await plannedSandbox(t, {
    'AGENTS.md': '# Agents\n\n- Use npm to install dependencies.\n',
    'CLAUDE.md': '# Claude\n\n- Use pnpm to install dependencies.\n',
  });
  const contradiction = analysis.problems.find((p) => p.type === 'contradiction')!;
  const topic = contradiction.topic;
  assert.ok(contradiction.description.startsWith(`Contradicting rules about ${topic}: `), contradiction.description);
  assert.equal(plan.conflicts[0]!.description, contradiction.description);
  assert.ok(content(COPILOT)!.includes(mark(topic)), content(COPILOT)!);
  // The topic travels as data, on the problem and on the plan's conflict: never read back from the words.
  assert.equal(plan.conflicts[0]!.topic, topic);
});

test('a plan written and planned again finds every unit it wrote: the second plan is a no-op', async (t) => {
  const { second } = await plannedTwice(t, {
    [COPILOT]: '# Copilot instructions\n\n## Testing\n\n- Run the tests.\n',
    'AGENTS.md': '# CLAUDE.md\n\n**Release:**\n\n- Tag the release.\n\n## Testing\n\n- Run the tests.\n- Keep them fast.\n',
    'CLAUDE.md': '- Use pnpm.\n\nHello\n',
  });
  assert.deepEqual(second.operations, []);
});
