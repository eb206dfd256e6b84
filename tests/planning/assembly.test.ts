// planning/render/assembly.ts on its own: what the legacy documents add to Copilot's file (the
// sections, their blocks, what merges into a copy), before it is appended and written out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Assembly } from '../../server/src/planning/render/assembly.js';
import { WrittenUnits } from '../../server/src/planning/render/written-units.js';
import type { Addition } from '../../server/src/planning/render/addition.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import type { Merged } from '../../server/src/model/plan.js';
import type { Unit } from '../../server/src/model/model.js';

const COPILOT = '.github/copilot-instructions.md';

/** An addition as a plain tree: its heading, whether a source wrote it, its blocks as `path:line text`, its children. */
type Shown = { before?: string[][]; heading: string; fromSource: boolean; top?: true; blocks: string[][]; children: Shown[] };
const shownBlocks = (blocks: Unit[][]) => blocks.map((b) => b.map((u) => `${u.path}:${u.line} ${u.lines.join('\n')}`));
const show = (a: Addition): Shown => ({
  ...(a.before ? { before: shownBlocks(a.before) } : {}),
  heading: a.heading,
  fromSource: a.headingUnit !== null,
  ...(a.top ? { top: true as const } : {}),
  blocks: shownBlocks(a.blocks),
  children: a.children.map(show),
});

/** Assemble documents (path, lines, the name a heading-less one is put under) onto a target that holds `existing`. */
function assemble(docs: [string, string[], string | null][], existing: string[] = []) {
  const written = new WrittenUnits();
  for (const u of splitUnits(COPILOT, existing)) written.add(u);
  const merged: Merged[] = [];
  const assembly = new Assembly(written, merged);
  for (const [p, lines, flatName] of docs) assembly.addDocument(splitUnits(p, lines), flatName);
  return {
    additions: assembly.additions().map(show),
    merged: merged.map((m) => `${m.path}:${m.line} -> ${m.keptAt.path}:${m.keptAt.line}`),
  };
}

test("a document's headings move as a tree, all levels together, below one `## ` heading named after its title", () => {
  const { additions, merged } = assemble([
    ['AGENTS.md', ['# Guide', '', '## Testing', '', '- Run the tests.', '', '### Fast', '', '- Keep them fast.'], null],
  ]);
  assert.deepEqual(additions, [
    {
      heading: '## Guide',
      fromSource: true,
      blocks: [],
      children: [
        {
          heading: '### Testing',
          fromSource: true,
          blocks: [['AGENTS.md:5 - Run the tests.']],
          children: [{ heading: '#### Fast', fromSource: true, blocks: [['AGENTS.md:9 - Keep them fast.']], children: [] }],
        },
      ],
    },
  ]);
  assert.deepEqual(merged, []);
});

test("a title that only names a file names no subject: it stays as it is, right above the file's first chapter, and the chapters are `## ` sections", () => {
  const { additions } = assemble([['CLAUDE.md', ['# CLAUDE.md', '', '## Build', '', '- Run make.'], null]]);
  assert.deepEqual(additions, [
    { before: [['CLAUDE.md:1 # CLAUDE.md']], heading: '## Build', fromSource: true, blocks: [['CLAUDE.md:5 - Run make.']], children: [] },
  ]);
});

test("a second file's title stays with its first chapter, after the first file's sections: never on top, apart from its text", () => {
  const { additions } = assemble([
    ['AGENTS.md', ['# AGENTS.md', '', 'Guidance for agents.', '', '## Build', '', '- Run make.'], null],
    ['CLAUDE.md', ['# CLAUDE.md', '', '## Required reading', '', '- Read the design notes first.'], null],
  ]);
  assert.deepEqual(additions, [
    {
      heading: '',
      fromSource: false,
      top: true,
      blocks: [['AGENTS.md:1 # AGENTS.md'], ['AGENTS.md:3 Guidance for agents.']],
      children: [],
    },
    { heading: '## Build', fromSource: true, blocks: [['AGENTS.md:7 - Run make.']], children: [] },
    {
      before: [['CLAUDE.md:1 # CLAUDE.md']],
      heading: '## Required reading',
      fromSource: true,
      blocks: [['CLAUDE.md:5 - Read the design notes first.']],
      children: [],
    },
  ]);
});

test('the same heading from a second file is one section: what the first wrote merges into its copy, only the new rule is added', () => {
  const { additions, merged } = assemble([
    ['AGENTS.md', ['## Testing', '', '- Run the tests.'], null],
    ['CLAUDE.md', ['## Testing', '', '- Run the tests.', '- Use vitest.'], null],
  ]);
  assert.deepEqual(additions, [
    { heading: '## Testing', fromSource: true, blocks: [['AGENTS.md:3 - Run the tests.'], ['CLAUDE.md:4 - Use vitest.']], children: [] },
  ]);
  assert.deepEqual(merged, ['CLAUDE.md:1 -> AGENTS.md:1', 'CLAUDE.md:3 -> AGENTS.md:3']);
});

test('a document whose every unit the target holds already adds nothing: each unit is merged into the copy in the target', () => {
  const { additions, merged } = assemble(
    [['AGENTS.md', ['## Testing', '', '- Run the tests.'], null]],
    ['# Copilot', '', '## Testing', '', '- Run the tests.'],
  );
  assert.deepEqual(additions, []);
  assert.deepEqual(merged, [`AGENTS.md:1 -> ${COPILOT}:3`, `AGENTS.md:3 -> ${COPILOT}:5`]);
});

test('a heading-less document goes under a heading the tool names after it, each of its units a block of its own', () => {
  const { additions } = assemble([['.cursorrules', ['Use pnpm.', 'Write tests first.'], 'Cursor rules']]);
  assert.deepEqual(additions, [
    {
      heading: '## Cursor rules',
      fromSource: false,
      blocks: [['.cursorrules:1 Use pnpm.'], ['.cursorrules:2 Write tests first.']],
      children: [],
    },
  ]);
});
