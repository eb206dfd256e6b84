import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Folders that are not what a file speaks about (issue 40): an assistant's dot-folder is where the tool
 * keeps its files, so `.agents/AGENTS.md` or `.gemini/GEMINI.md` speaks for the folder holding it; a
 * guide kept in a `docs/` folder that speaks of the code around it applies to the folder holding the
 * docs folder, with a note saying why; a guide about the docs stays on the docs folder.
 */
const plan = async (repo: string) => buildPlan(await scanRepository(repo));
const applyTo = (content: string | null | undefined) => /applyTo: "([^"]*)"/.exec(content ?? '')?.[1];

test('a file in an assistant dot-folder speaks for the folder holding it, not for the dot-folder', async (t) => {
  const repo = sandbox(t, {
    '.agents/AGENTS.md': '# Shop\n\n**Entrypoint for AI agents.**\n\n## Build\n\n- Build with make.\n',
    '.gemini/GEMINI.md': '# Shop for Gemini\n\n## Style\n\n- Use tabs.\n',
    'web/.codex/AGENTS.md': '# Web\n\n## Test\n\n- Run vitest in web.\n',
  });
  const p = await plan(repo);
  const copilot = p.operations.find((o) => o.path === '.github/copilot-instructions.md')?.content ?? '';
  assert.ok(copilot.includes('- Build with make.') && copilot.includes('- Use tabs.'), copilot);
  assert.ok(
    !p.operations.some((o) => /applyTo: "\.(agents|gemini)\/\*\*"/.test(o.content ?? '')),
    p.operations.map((o) => o.path).join(', '),
  );
  const web = p.operations.find((o) => (o.content ?? '').includes('- Run vitest in web.'));
  assert.equal(applyTo(web?.content), 'web/**');
});

test('a guide in a docs folder about the code around it applies to the folder holding the docs folder, and the plan says why', async (t) => {
  const repo = sandbox(t, {
    'tools/packer/docs/CLAUDE.md': '# Packer - assistant guide\n\n## Layout\n\n- The passes live in `src/passes/`; add one per file.\n',
    'tools/packer/src/passes/a.rs': '\n',
    'docs/AGENTS.md':
      '# Notes\n\nThis file guides agents when working with code in this repository.\n\n## Architecture\n\n- The store is a SQLite file.\n',
    'site/docs/AGENTS.md': '# Site documentation\n\n## Pages\n\n- Every page has a front matter title; see `src/pages/` for examples.\n',
  });
  const p = await plan(repo);
  const packer = p.operations.find((o) => (o.content ?? '').includes('add one per file'));
  assert.equal(applyTo(packer?.content), 'tools/packer/**');
  const copilot = p.operations.find((o) => o.path === '.github/copilot-instructions.md')?.content ?? '';
  assert.ok(copilot.includes('- The store is a SQLite file.'), copilot);
  // A guide about the docs keeps the docs folder, though it names a src/ path.
  const site = p.operations.find((o) => (o.content ?? '').includes('front matter title'));
  assert.equal(applyTo(site?.content), 'site/docs/**');
  const why = p.notes.find((n) => n.startsWith('tools/packer/docs/CLAUDE.md applies to tools/packer/**'));
  assert.ok(why, p.notes.join('\n'));
  assert.match(why, /documentation folder but speaks of the code around it/);
  assert.match(why, /can make it repo-wide instead/);
  assert.ok(
    p.notes.some((n) => n.startsWith('docs/AGENTS.md applies to the whole repository') && n.includes('docs/** only instead')),
    p.notes.join('\n'),
  );
});
