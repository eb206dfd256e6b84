import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, isStructured } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { sandbox, type Cleanup } from '../helpers/sandbox.js';

/** analysis/analyze.ts in process: the finders run over one scan, each finding once, with its certainty. */

async function analyzed(t: Cleanup, files: Record<string, string>) {
  return analyze(await scanRepository(sandbox(t, files)));
}

const at = (p: { locations: { path: string; line: number }[] }) => p.locations.map((l) => `${l.path}:${l.line}`);

test('instruction files that agree and repeat nothing have no problem, and a file with sections is structured', async (t) => {
  const a = await analyzed(t, {
    '.github/copilot-instructions.md': '# Rules\n\n## Build\n\n- Use pnpm for every install.\n',
    'AGENTS.md': '# Agents\n\n- Write a test for every bug fix.\n',
  });
  assert.deepEqual(a.problems, []);
  assert.deepEqual(
    a.sources.map((s) => s.path),
    ['.github/copilot-instructions.md', 'AGENTS.md'],
  );
  assert.deepEqual(a.structured, { '.github/copilot-instructions.md': true, 'AGENTS.md': false });
});

test('a rule written in two files is one duplication naming both places; opposite rules are one contradiction', async (t) => {
  const a = await analyzed(t, {
    'AGENTS.md': '# Agents\n\n- Always run the linter before committing.\n- Use pnpm for every install.\n',
    'CLAUDE.md': '# Claude\n\n- Always run the linter before committing.\n- Use npm for every install.\n',
  });
  const duplicates = a.problems.filter((p) => p.type === 'duplication');
  assert.deepEqual(duplicates.map(at), [['AGENTS.md:3', 'CLAUDE.md:3']]);
  const contradictions = a.problems.filter((p) => p.type === 'contradiction');
  assert.equal(contradictions.length, 1, JSON.stringify(a.problems));
  assert.deepEqual(at(contradictions[0]!).sort(), ['AGENTS.md:4', 'CLAUDE.md:4']);
  assert.match(contradictions[0]!.description, /package manager/);
  for (const p of a.problems) assert.ok(['high', 'medium', 'low'].includes(p.certainty!), `${p.type} has no certainty`);
});

test('a character a reader cannot see is reported at its line, by name', async (t) => {
  const a = await analyzed(t, { 'AGENTS.md': '# Agents\n\n- Use pnpm.\u200b Always.\n' });
  const hidden = a.problems.filter((p) => p.type === 'ambiguity');
  assert.deepEqual(hidden.map(at), [['AGENTS.md:3']]);
  assert.match(hidden[0]!.description, /ZERO WIDTH SPACE|U\+200B/i);
});

test('a rule written three times in one file is one report naming the three places', async (t) => {
  const a = await analyzed(t, {
    '.github/copilot-instructions.md':
      '# Rules\n\n## A\n\n- Keep functions short.\n\n## B\n\n- Keep functions short.\n\n- Keep functions short.\n',
  });
  const duplicates = a.problems.filter((p) => p.type === 'duplication');
  assert.equal(duplicates.length, 1, JSON.stringify(duplicates.map(at)));
  assert.deepEqual(at(duplicates[0]!), [
    '.github/copilot-instructions.md:5',
    '.github/copilot-instructions.md:9',
    '.github/copilot-instructions.md:11',
  ]);
});

test('a file with more than a few lines before its first section is not structured', async (t) => {
  const a = await analyzed(t, {
    '.github/copilot-instructions.md': `# Rules\n\n${Array.from({ length: 8 }, (_, i) => `- Rule number ${i}.`).join('\n')}\n\n## Build\n\n- Use pnpm.\n`,
  });
  assert.equal(a.structured['.github/copilot-instructions.md'], false);
  const scan = await scanRepository(sandbox(t, { 'AGENTS.md': '# A\n\nIntro.\n\n## B\n\n- b.\n' }));
  assert.equal(isStructured(scan.docs[0]!), true);
});
