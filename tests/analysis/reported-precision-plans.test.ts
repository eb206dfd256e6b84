import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFiles } from '../fixtures/judged-detection/judge.js';

/**
 * Issue 39, the reported tier on the corpus plans a maintainer judged (issue 40): four classes of false
 * contradiction, each next to the same relation written as a real one, which stays. Every text is
 * invented, in other words than the repositories that showed the class (beads, Peekaboo, oxc, pyro).
 */

const contradictions = async (files: Record<string, string>) =>
  (await analyzeFiles(files)).filter((p) => p.type === 'contradiction' && p.certainty !== 'low');
const said = (found: { description: string }[]) => JSON.stringify(found.map((p) => p.description));

test('installing one named package is no choice of the project install command', async () => {
  const make = '# Build\n\n> Stale binaries shadow the one on your path. Always use `make install`.\n';
  for (const line of [
    '- Install: `pip install ledger-mcp`\n',
    '- **Setup**: `cargo install taskgen-cli`\n',
    '- Install: `npm install --save-dev @acme/lint-rules`\n',
  ]) {
    const found = await contradictions({ 'AGENTS.md': make, 'docs/CLAUDE.md': `# Server\n\n${line}` });
    assert.deepEqual(found, [], said(found));
  }
  // The project's own install step given two ways stays a conflict.
  for (const line of ['- Install: `poetry install`\n', '- **Setup**: `pip install -r requirements.txt`\n']) {
    const found = await contradictions({ 'AGENTS.md': make, 'docs/CLAUDE.md': `# Server\n\n${line}` });
    assert.equal(found.length, 1, said(found));
  }
});

test('quotes named as what another verb acts on (escape, wrap, enclose) are no choice of a quote style', async () => {
  const pairs: [string, string][] = [
    ['- Escape the single quotes inside SQL string literals.\n', '- When a shell argument holds spaces, wrap it in double quotes.\n'],
    [
      '- The selector needed escaping of its single quotes in the query.\n',
      '- If the template itself is enclosed in double quotes, any literal double quotes inside it must be escaped.\n',
    ],
  ];
  for (const [a, b] of pairs) {
    const found = await contradictions({ 'AGENTS.md': `# Notes\n\n${a}`, 'CLAUDE.md': `# Notes\n\n${b}` });
    assert.deepEqual(found, [], said(found));
  }
  // A style stated on its own stays a choice: with a verb, after a label, or as an item of a style list.
  for (const [a, b] of [
    ['- Use single quotes for strings.\n', '- Prefer double quotes.\n'],
    ['- **Strings**: double quotes.\n', '- Always use single quotes.\n'],
    ['- Style: tabs, double quotes, trailing commas.\n', '- Use single quotes in every module.\n'],
    ['- 2-space indent, single quotes preferred.\n', '- Never use single quotes.\n'],
    ['- Always double quotes for strings.\n', '- Use single quotes.\n'],
    ['- String literals must be double-quoted.\n', '- Prefer single quotes.\n'],
  ]) {
    const found = await contradictions({ 'AGENTS.md': `# Style\n\n${a}`, 'CLAUDE.md': `# Style\n\n${b}` });
    assert.equal(found.length, 1, `${a} / ${b}: ${said(found)}`);
  }
});

test("a flag after `--` is the program's, and runs that each carry their own flag are two jobs: no drifted flag", async () => {
  const drifted = async (files: Record<string, string>) =>
    (await analyzeFiles(files)).filter((p) => p.type === 'contradiction' && p.kind === 'drifted-flag');
  const sh = (...lines: string[]) => `# Run\n\n\`\`\`sh\n${lines.join('\n')}\n\`\`\`\n`;
  const apart: Record<string, string>[] = [
    {
      'AGENTS.md': sh('cargo run -p lexer --example dump -- input.txt', 'cargo run -p lexer --example tokens -- other/input.txt'),
      'crates/lexer_suite/AGENTS.md': sh('cargo run -p lexer_suite -- --grep cases/one.txt'),
    },
    {
      'AGENTS.md': sh('npx playwright test e2e/login.spec.ts --update-snapshots'),
      'CLAUDE.md': sh('npx playwright test e2e/cart.spec.ts --headed', 'npx playwright test e2e/pay.spec.ts --headed'),
    },
  ];
  for (const files of apart) {
    const found = await drifted(files);
    assert.deepEqual(found, [], said(found));
  }
  // One flag on every run in one file and on none in the other stays worth a second look.
  const found = await drifted({
    'AGENTS.md': sh('npx playwright test e2e/login.spec.ts --project=default'),
    'CLAUDE.md': sh('npx playwright test e2e/cart/'),
  });
  assert.equal(found.length, 1, said(found));
});

test('two lines that both sit in blocks a tool writes are not reported: nobody here can settle them; one line of the person is', async () => {
  const block = (name: string, body: string) => `<!-- ${name}-start -->\n${body}<!-- ${name}-end -->\n`;
  const a = block('pkg-a', '## pkg-a usage\n\n- Always regenerate `schema.json` after a change.\n');
  const b = block('pkg-b', '## pkg-b usage\n\n- Never touch `schema.json`.\n');
  const inBlocks = await contradictions({ 'AGENTS.md': `# Agents\n\n${a}\n${b}` });
  assert.deepEqual(inBlocks, [], said(inBlocks));
  const inTwoFiles = await contradictions({ 'AGENTS.md': `# Agents\n\n${a}`, 'CLAUDE.md': `# Claude\n\n${b}` });
  assert.deepEqual(inTwoFiles, [], said(inTwoFiles));
  // One side written by the person stays reported: they can change their own line.
  const mine = await contradictions({ 'AGENTS.md': `# Agents\n\n${a}`, 'CLAUDE.md': '# Claude\n\n- Never touch `schema.json`.\n' });
  assert.equal(mine.length, 1, said(mine));
});
