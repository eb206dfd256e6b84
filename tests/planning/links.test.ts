import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { linkDestinations } from '../../server/src/model/links.js';
import fs from 'node:fs';
import path from 'node:path';
import { sandbox } from '../helpers/sandbox.js';
import { CORPUS, corpusRepos, requireCorpus } from '../helpers/corpus.js';
import { fidelity } from '../helpers/fidelity.js';

/**
 * Links in moved text (issue 40): a relative link written in one file and moved into another is
 * rewritten so it leads to the same repository path from its new file; anchors, queries and titles
 * stay; a link that led nowhere before stays as it was and is named in the notes; code is no link.
 */
const FILES = {
  'tools/release/README.md': '# Release\n',
  'docs/guide.md': '# Guide\n',
  'docs/logo.png': 'png',
  'packages/app/src/index.ts': 'export {};\n',
  'AGENTS.md':
    '# Project\n\n## Release\n\n' +
    '- Follow [release steps](tools/release/README.md) and [the guide](./docs/guide.md#setup "Setup").\n' +
    '- Logo: ![logo](docs/logo.png), <img src="docs/logo.png"> and [missing](docs/missing.md).\n' +
    '- Not a link: `[x](docs/guide.md)`; outside: [up](../elsewhere.md); web: [w](https://example.com/a.md); [anchor](#release).\n' +
    '- The [docs folder](docs/) and [spaced](<docs/guide.md>).\n\n' +
    '```md\n[in code](docs/guide.md)\n```\n\n' +
    '[guide]: docs/guide.md?plain=1#top\n',
  'packages/app/AGENTS.md': '# App\n\n- Entry point: [index](src/index.ts), root: [guide](../../docs/guide.md).\n',
};

const COPILOT =
  '# Copilot instructions\n\n## Project\n\n### Release\n\n' +
  '- Follow [release steps](../tools/release/README.md) and [the guide](../docs/guide.md#setup "Setup").\n' +
  '- Logo: ![logo](../docs/logo.png), <img src="../docs/logo.png"> and [missing](docs/missing.md).\n' +
  '- Not a link: `[x](docs/guide.md)`; outside: [up](../elsewhere.md); web: [w](https://example.com/a.md); [anchor](#release).\n' +
  '- The [docs folder](../docs/) and [spaced](<../docs/guide.md>).\n\n' +
  '```md\n[in code](docs/guide.md)\n```\n\n' +
  '[guide]: ../docs/guide.md?plain=1#top\n';

const APP =
  '---\napplyTo: "packages/app/**"\n---\n\n# App\n\n- Entry point: [index](../../packages/app/src/index.ts), root: [guide](../../docs/guide.md).\n';

test('the links of one line: inline, image, reference definition, HTML src/href; not in code spans, not absolute or external', () => {
  const found = (line: string) => linkDestinations(line).map((d) => line.slice(d.start, d.end));
  assert.deepEqual(found('See [a](x/y.md#z "t"), ![i](img.png) and <a href="h.md">h</a>.'), ['x/y.md#z', 'img.png', 'h.md']);
  assert.deepEqual(found('[id]: docs/a.md "Title"'), ['docs/a.md']);
  assert.deepEqual(found('`[a](x.md)` and ``[b](y.md)`` but [c](z.md)'), ['z.md']);
  assert.deepEqual(found('[w](https://e.com) [m](mailto:a@b) [r](/root.md) [h](#top) [c](mdc:x.md)'), []);
  assert.deepEqual(found('[s](<a b.md>) and [p](a_(b).md)'), ['a b.md', 'a_(b).md']);
});

test('moved into Copilot files, every relative link leads to the same repository path; code, anchors and links that led nowhere stay as written', async (t) => {
  const repo = sandbox(t, FILES);
  const plan = buildPlan(await scanRepository(repo));
  const content = (p: string) => plan.operations.find((o) => o.path === p)?.content;
  assert.equal(content('.github/copilot-instructions.md'), COPILOT);
  assert.equal(content('.github/instructions/packages-app.instructions.md'), APP);
  const note = plan.notes.find((n) => n.startsWith('AGENTS.md: 2 links'));
  assert.ok(note, plan.notes.join('\n'));
  assert.match(note, /line 6 "docs\/missing\.md"/);
  assert.match(note, /line 7 "\.\.\/elsewhere\.md"/);
  assert.match(note, /did not lead to a file in the repository/);
});

test('a link through a symbolic link that leaves the repository did not resolve: it is written as it was', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# P\n\n- See [notes](notes/a.md).\n' });
  const outside = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'co-out-'));
  t.after(() => fs.rmSync(outside, { recursive: true, force: true }));
  fs.writeFileSync(path.join(outside, 'a.md'), 'x\n');
  fs.symlinkSync(outside, path.join(repo, 'notes'));
  const plan = buildPlan(await scanRepository(repo));
  const copilot = plan.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content!;
  assert.ok(copilot.includes('[notes](notes/a.md)'), copilot);
  assert.ok(!copilot.includes('../notes/a.md'), copilot);
});

test('corpus: every link of moved text that resolved where it was written leads to the same repository path from its new file', async (t) => {
  if (!requireCorpus(t)) return;
  let resolved = 0;
  const broken: string[] = [];
  for (const name of corpusRepos()) {
    const root = path.join(CORPUS, name);
    const f = fidelity(root, buildPlan(await scanRepository(root)), name);
    resolved += f.resolvedBefore;
    broken.push(...f.brokenLinks, ...f.brokenReferences);
  }
  assert.deepEqual(broken, []);
  assert.ok(resolved > 0, 'the corpus has links that move');
});
