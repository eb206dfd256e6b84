import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFiles } from '../fixtures/judged-detection/judge.js';

/**
 * Issue 39: one command documented in the same words in two files, changed in one of them. Lines of
 * code whose comments say the same and whose code differs in one token are a drifted copy. Each case is
 * beside a look-alike that stays quiet. Every name is invented.
 */

const drifted = async (files: Record<string, string>) =>
  (await analyzeFiles(files)).filter((p) => p.type === 'contradiction' && p.certainty !== 'low' && p.kind === 'drifted-copy');
const block = (...lines: string[]) => `# Guide\n\n## Build\n\n\`\`\`bash\n${lines.join('\n')}\n\`\`\`\n`;
const said = (found: { description: string }[]) => JSON.stringify(found.map((p) => p.description));

test('a command under the same comment in two files, one token changed, is a drifted copy with both values', async () => {
  const found = await drifted({
    'AGENTS.md': block('./brew build              # Build the whole project', './brew :zapgui:run        # Build and launch the GUI'),
    'CLAUDE.md': block('./brew build              # Build the whole project', './brew :zapui:run         # Build and launch the GUI'),
  });
  assert.equal(found.length, 1, said(found));
  assert.deepEqual(
    found[0]!.locations.map((l) => `${l.path}:${l.line}`),
    ['AGENTS.md:7', 'CLAUDE.md:7'],
  );
  assert.match(found[0]!.description, /":zapgui:run" vs ":zapui:run"/);
});

test('no drifted copy: a placeholder spelled out, a comment of two words, two commands in one file, or more than one token changed', async () => {
  const quiet = [
    [
      block('zrun pytest tests/a.py -k name   # Run one test by name'),
      block('zrun pytest tests/a.py -k test_name   # Run one test by name'),
    ],
    [block('./brew :zapgui:run   # the GUI'), block('./brew :zapui:run   # the GUI')],
    [
      block('./brew :zapgui:run   # Build and launch the GUI', './brew :zapui:run   # Build and launch the GUI'),
      block('./brew :zapgui:run   # Build and launch the GUI'),
    ],
    [block('./brew :zapgui:run --fast   # Build and launch the GUI'), block('./brew :zapui:run --slow   # Build and launch the GUI')],
  ];
  for (const [a, c] of quiet) assert.deepEqual(said(await drifted({ 'AGENTS.md': a!, 'CLAUDE.md': c! })), '[]', `${a}\n${c}`);
});
