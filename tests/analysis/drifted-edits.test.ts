import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFiles } from '../fixtures/judged-detection/judge.js';

/**
 * Issue 39, the reported tier: a copied rule edited in one file beyond one token is still a drifted
 * copy when every replaced run is a value and, in several places, the same edit. Each case is next to
 * a look-alike that stays unreported. Every text is invented.
 */

const drifted = async (files: Record<string, string>) =>
  (await analyzeFiles(files)).filter((p) => p.type === 'contradiction' && p.certainty !== 'low' && p.kind === 'drifted-copy');
const said = (found: { description: string }[]) => JSON.stringify(found.map((p) => p.description));

test('one edit made in several places of a copied line is one drifted copy', async () => {
  const found = await drifted({
    'AGENTS.md':
      '# Docs site\n\n- When the preview looks stale, rebuild it with `brix make site` and then `brix serve site` before you report it.\n',
    'CLAUDE.md':
      '# Docs site\n\n- When the preview looks stale, rebuild it with `quill make site` and then `quill serve site` before you report it.\n',
  });
  assert.equal(found.length, 1, said(found));
  assert.deepEqual(found[0]!.locations, [
    { path: 'AGENTS.md', line: 3 },
    { path: 'CLAUDE.md', line: 3 },
  ]);
  assert.match(found[0]!.description, /"brix" vs "quill"/);
});

test('two unrelated values in one frame are two rules side by side, not a copy', async () => {
  const found = await drifted({
    'AGENTS.md':
      '# Docs site\n\n- When the preview looks stale, rebuild it with `brix make site` and then `brix serve site` before you report it.\n',
    'CLAUDE.md':
      '# Docs site\n\n- When the preview looks stale, rebuild it with `quill make site` and then `brix serve docs` before you report it.\n',
  });
  assert.deepEqual(found, [], said(found));
});

test('a value changed with a short note added at the end is a drifted copy; a changed word that is no value is not', async () => {
  const base = '# Layout\n\n- Shared widgets for the settings pages and the onboarding wizard live in `web/ui/panels`';
  const found = await drifted({
    'AGENTS.md': `${base}.\n`,
    '.github/copilot-instructions.md':
      '# Layout\n\n- Shared widgets for the settings pages and the onboarding wizard live in `web/shell/panels` (kept small).\n',
  });
  assert.equal(found.length, 1, said(found));
  const lookAlike = await drifted({
    'AGENTS.md': `${base}.\n`,
    '.github/copilot-instructions.md':
      '# Layout\n\n- Shared widgets for the billing pages and the onboarding wizard live in `web/shell/panels`.\n',
  });
  assert.deepEqual(lookAlike, [], said(lookAlike));
});

test('a value only extended, or parallel items of one list, are no drifted copy', async () => {
  const extended = await drifted({
    'AGENTS.md': '# Storage\n\n- Reports are written by the nightly job into `store/reports` and `store/logs` for the dashboard.\n',
    'CLAUDE.md': '# Storage\n\n- Reports are written by the nightly job into `store/reports/v2` and `store/logs/v2` for the dashboard.\n',
  });
  assert.deepEqual(extended, [], said(extended));
  const listed = await drifted({
    'AGENTS.md':
      '# Modules\n\n- The `alpha` module and the `alpha-cli` wrapper are built by the same release step.\n- The `gamma` module and the `gamma-cli` wrapper are built by the same release step.\n',
    'CLAUDE.md': '# Modules\n\n- The `beta` module and the `beta-cli` wrapper are built by the same release step.\n',
  });
  assert.deepEqual(listed, [], said(listed));
});

const names = async (files: Record<string, string>) =>
  (await analyzeFiles(files)).filter((p) => p.type === 'contradiction' && p.certainty !== 'low' && p.kind === 'drifted-name');

test('a name spelled with other separators in a copy of its line is one name written two ways, even alone on its line', async () => {
  const found = await names({
    'AGENTS.md': '# Widgets\n\n- **aria-row-key must be unique** within one grid\n- Read first:\n  `@docs/grid/row-keys.notes.md`\n',
    'CLAUDE.md': '# Widgets\n\n- **aria-rowkey must be unique** within one grid\n- Read first:\n  `@docs/grid/row-keys-notes.md`\n',
  });
  assert.equal(found.length, 2, said(found));
  assert.match(found[0]!.description + found[1]!.description, /`aria-row-key` vs `aria-rowkey`/);
});

test('a word written with or without its hyphen, or a spelling in one file only, is no second name', async () => {
  const found = await names({
    'AGENTS.md': '# Mail\n\n- Never log e-mail addresses of the testers in the fixtures\n',
    'CLAUDE.md': '# Mail\n\n- Never log email addresses of the testers in the fixtures\n',
  });
  assert.deepEqual(found, [], said(found));
  const oneFile = await names({
    'AGENTS.md': '# Grid\n\n- **aria-row-key must be unique** within one grid\n- **aria-rowkey must be unique** within one grid\n',
  });
  assert.deepEqual(oneFile, [], said(oneFile));
});

test('a short list item whose path was renamed keeps half its line and is a drifted copy; a shorter frame is two items of a layout', async () => {
  const found = await drifted({
    'AGENTS.md': '# Samples\n\n- `apps/demo/Gizmo.Demo.Playground` - **Blank app for trying things out** (best for bisecting)\n',
    '.github/copilot-instructions.md': '# Samples\n\n- `apps/demo/Acme.Gizmo.Demo.Playground` - Blank app for trying things out\n',
  });
  assert.equal(found.length, 1, said(found));
  // Two folders described by one short phrase (a frame of four tokens) are two items of a layout, not one renamed.
  const items = await drifted({
    'AGENTS.md': '# Layout\n\n- `packages/api` - TypeScript sources (strict)\n',
    '.github/copilot-instructions.md': '# Layout\n\n- `packages/web` - TypeScript sources\n',
  });
  assert.deepEqual(items, [], said(items));
});

test('parallel items of one list copied whole into another file are still items, not a drifted copy (a migrated file beside its source)', async () => {
  const list =
    '# Docs\n\n- For Kotlin modules: Add to Kotlin platform docs, usually in the integrations section\n- For Swift modules: Add to Swift platform docs, usually in the integrations section\n';
  const found = await drifted({
    '.cursor/rules/docs.mdc': `---\nalwaysApply: true\n---\n${list}`,
    '.github/instructions/docs.instructions.md': `---\napplyTo: "**"\n---\n${list}`,
  });
  assert.deepEqual(found, [], said(found));
  const edited = await drifted({
    '.cursor/rules/docs.mdc': `---\nalwaysApply: true\n---\n${list}`,
    '.github/instructions/docs.instructions.md': `---\napplyTo: "**"\n---\n# Docs\n\n- For Kotlin modules: Add to Dokka platform docs, usually in the integrations section\n`,
  });
  assert.equal(edited.length, 1, said(edited));
});
