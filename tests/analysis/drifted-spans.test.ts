import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFiles } from '../fixtures/judged-detection/judge.js';

/**
 * Issue 39: a drifted copy is a copy with one span replaced. Two lines in files whose scopes meet
 * that share a prefix and a suffix (code spans read as their words) and differ in one contiguous
 * span holding a value on each side: reported when each span is one value, a second look when a
 * span is longer. Each case is beside a look-alike that stays quiet. Every text is invented.
 */

const contradictions = async (files: Record<string, string>) => (await analyzeFiles(files)).filter((p) => p.type === 'contradiction');
const reported = <T extends { certainty: string; kind?: string }>(found: T[]) =>
  found.filter((p) => p.certainty !== 'low' && p.kind === 'drifted-copy');
const spanLooks = <T extends { certainty: string; kind?: string }>(found: T[]) =>
  found.filter((p) => p.certainty === 'low' && p.kind === 'drifted-line');
const said = (found: { description: string }[]) => JSON.stringify(found.map((p) => p.description));
const at = (found: { locations: { path: string; line: number }[] }) => found.locations.map((l) => `${l.path}:${l.line}`).sort();

test('a short copied line whose one value inside a code span changed is a drifted copy', async () => {
  const found = await contradictions({
    'AGENTS.md': '# Build\n\n- Web: `zamp --only=@qorbit/web bundle`\n',
    'CLAUDE.md': '# Build\n\n- Web: `zamp --only=@qrobit/web bundle`\n',
  });
  const r = reported(found);
  assert.equal(r.length, 1, said(found));
  assert.deepEqual(at(r[0]!), ['AGENTS.md:3', 'CLAUDE.md:3']);
  assert.match(r[0]!.description, /--only=@qorbit\/web/);
  assert.match(r[0]!.description, /--only=@qrobit\/web/);
});

test('a short line with a word of prose changed, or a numbered step, is no drifted copy', async () => {
  const found = await contradictions({
    'AGENTS.md': '# Build\n\n- Web: run `zamp bundle` quickly\n- Step 1: `zamp bundle web`\n',
    'CLAUDE.md': '# Build\n\n- Web: run `zamp bundle` carefully\n- Step 2: `zamp bundle web`\n',
  });
  assert.deepEqual(reported(found), [], said(found));
  assert.deepEqual(spanLooks(found), [], said(found));
});

test('a placeholder changed is no drifted copy', async () => {
  const found = await contradictions({
    'AGENTS.md': '# Tests\n\n- One test: `zamp check <file>`\n',
    'CLAUDE.md': '# Tests\n\n- One test: `zamp check <path>`\n',
  });
  assert.deepEqual(reported(found), [], said(found));
  assert.deepEqual(spanLooks(found), [], said(found));
});

test('one value replaced by a longer span in a copied line is a second look', async () => {
  const found = await contradictions({
    'AGENTS.md': '# Style\n\n- Ordering: Use tidy-order-lines, keep direct clock imports out (use lib/clock)\n',
    'CLAUDE.md':
      '# Style\n\n-   Ordering: Use lint-plugin-order-imports (runs by itself on save), keep direct clock imports out (use lib/clock)\n',
  });
  assert.deepEqual(reported(found), [], said(found));
  const s = spanLooks(found);
  assert.equal(s.length, 1, said(found));
  assert.deepEqual(at(s[0]!), ['AGENTS.md:3', 'CLAUDE.md:3']);
  assert.match(s[0]!.description, /tidy-order-lines/);
});

test('a span that only adds words, or a hedge, is no second look', async () => {
  const found = await contradictions({
    'AGENTS.md': '# Style\n\n- Ordering: Use tidy-order-lines, keep direct clock imports out (use lib/clock)\n',
    'CLAUDE.md': '# Style\n\n- Ordering: Use tidy-order-lines when you can, keep direct clock imports out (use lib/clock)\n',
  });
  assert.deepEqual(reported(found), [], said(found));
  assert.deepEqual(spanLooks(found), [], said(found));
});

test('two items of one list in one file, copied, are no drifted copy', async () => {
  const found = await contradictions({
    'AGENTS.md': '# Build\n\n- Web: `zamp --only=@qorbit/web bundle`\n- Web: `zamp --only=@qorbit/api bundle`\n',
    'CLAUDE.md': '# Build\n\n- Web: `zamp --only=@qorbit/api bundle`\n',
  });
  assert.deepEqual(reported(found), [], said(found));
  assert.deepEqual(spanLooks(found), [], said(found));
});

test('a link changed is no drifted copy', async () => {
  const found = await contradictions({
    'AGENTS.md': '# Docs\n\n- Guide: see [setup](docs/setup.md) first\n',
    'CLAUDE.md': '# Docs\n\n- Guide: see [setup](docs/install.md) first\n',
  });
  assert.deepEqual(reported(found), [], said(found));
  assert.deepEqual(spanLooks(found), [], said(found));
});

test('two scoped files each naming their own subject in one frame are no drifted copy', async () => {
  const found = await contradictions({
    '.cursor/rules/quillon.mdc': '---\nglobs: "**/*"\n---\n# Rules\n\n- Rules for writing Quillon (server of the app)\n',
    '.cursor/rules/sparrow.mdc': '---\nglobs: "**/*"\n---\n# Rules\n\n- Rules for writing Sparrow with Tapestry (client of the app)\n',
  });
  assert.deepEqual(reported(found), [], said(found));
  assert.deepEqual(spanLooks(found), [], said(found));
});

test('a copied line with one name replaced mid-sentence, in two scoped files that meet, is a drifted copy', async () => {
  const found = await contradictions({
    '.cursor/rules/a.mdc': '---\nglobs: "**/*"\n---\n# Rules\n\n- Format with Quillon first\n',
    '.cursor/rules/b.mdc': '---\nglobs: "**/*"\n---\n# Rules\n\n- Format with Sparrow first\n',
  });
  assert.equal(reported(found).length, 1, said(found));
});

test('a labelled line with its version changed is a drifted copy; the same in files scoped apart is not', async () => {
  const labelled = (version: string) => `# Setup\n\n- **Zorbjs**: ${version} (see \`.zorbrc\`)\n`;
  const found = await contradictions({ 'AGENTS.md': labelled('4.21.1'), 'CLAUDE.md': labelled('`4.22.3`') });
  const r = reported(found);
  assert.equal(r.length, 1, said(found));
  assert.match(r[0]!.description, /4\.21\.1/);
  const apart = await contradictions({
    '.cursor/rules/a.mdc': `---\nglobs: "src/a/**"\n---\n${labelled('4.21.1')}`,
    '.cursor/rules/b.mdc': `---\nglobs: "src/b/**"\n---\n${labelled('4.22.3')}`,
  });
  assert.deepEqual(reported(apart), [], said(apart));
});

test('a copy that goes on after a dash keeps its first clause: a version changed there is a drifted copy; a prose word is not', async () => {
  const found = await contradictions({
    'AGENTS.md': '# Setup\n\n- **Zorbjs**: 4.21.1 (see `.zorbrc`)\n',
    'CLAUDE.md': '# Setup\n\n- **Zorbjs**: `4.22.3` (see `.zorbrc`) \u2014 it reads `.qz` files natively, no loader\n',
  });
  assert.equal(reported(found).length, 1, said(found));
  const prose = await contradictions({
    'AGENTS.md': '# Setup\n\n- **Zorbjs**: pinned (see `.zorbrc`)\n',
    'CLAUDE.md': '# Setup\n\n- **Zorbjs**: fixed (see `.zorbrc`) \u2014 it reads `.qz` files natively, no loader\n',
  });
  assert.deepEqual(reported(prose), [], said(prose));
  assert.deepEqual(spanLooks(prose), [], said(prose));
});

test("a path written from its own file's folder is the same path in a copy moved elsewhere, not a drifted value", async () => {
  const found = await contradictions({
    'web/AGENTS.md': '# Web\n\n- Read `./docs/guide.md` before adding a page.\n',
    '.github/instructions/web.instructions.md':
      '---\napplyTo: "web/**"\n---\n# Web\n\n- Read `../../web/docs/guide.md` before adding a page.\n',
  });
  assert.deepEqual(reported(found), [], said(found));
  assert.deepEqual(spanLooks(found), [], said(found));
});

test('two copies inside blocks a tool writes are left alone; one of them outside is reported', async () => {
  const block = (v: string) => `# Build\n\n<!-- zorb-start -->\n- Web: \`zamp --only=@${v}/web bundle\`\n<!-- zorb-end -->\n`;
  const inside = await contradictions({ 'AGENTS.md': block('qorbit'), 'CLAUDE.md': block('qrobit') });
  assert.deepEqual(reported(inside), [], said(inside));
  const mixed = await contradictions({ 'AGENTS.md': block('qorbit'), 'CLAUDE.md': '# Build\n\n- Web: `zamp --only=@qrobit/web bundle`\n' });
  assert.equal(reported(mixed).length, 1, said(mixed));
});
