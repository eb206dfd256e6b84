import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plannedTwice } from '../helpers/sandbox.js';
import { emptyHeadings } from '../helpers/debris.js';

/**
 * Drifted near-copies of one file leave nothing to clean up: a section whose rules all merge away
 * takes its heading along (or stays whole), a twin section keeps only its differing lines, and an
 * exact repeat another file wrote is written once.
 */
const COPILOT = '.github/copilot-instructions.md';
const count = (text: string, line: string) => text.split('\n').filter((l) => l === line).length;

const ORDERS = `Orders service handles checkout and refunds for the shop, from cart to payment confirmation.

## Testing

- Run \`pnpm test\` before every commit.
- Use the in-memory database in unit tests.

## Style

- Prefer named exports.
- Keep functions under 40 lines.
`;

test('a drifted copy whose section merged away whole takes its heading along: no heading with nothing under it', async (t) => {
  const { first, second, read } = await plannedTwice(t, {
    'AGENTS.md': `# Orders service\n\n${ORDERS}`,
    'CLAUDE.md': `# Orders service guide\n\n${ORDERS}- Never log card numbers.\n`,
  });
  const out = read(COPILOT);
  assert.deepEqual(emptyHeadings(out.split('\n')), [], out);
  assert.equal(count(out, '### Testing'), 1);
  // The copy's Style section holds AGENTS.md's two rules and one of its own: a twin (issue 40), its own rule
  // joins AGENTS.md's section; the title stays with its intro, its heading never left alone.
  assert.equal(count(out, '### Style'), 1, out);
  assert.match(
    out,
    /### Style\n\n- Prefer named exports\.\n- Keep functions under 40 lines\.\n\n?- Never log card numbers\.\n\n## Orders service guide\n\nOrders service/,
  );
  assert.ok(first.merged.some((m) => m.path === 'CLAUDE.md' && m.text === '### Testing' && m.keptAt.path === 'AGENTS.md'));
  assert.deepEqual(second.operations, []);
});

test('a section whose rules merged away but whose heading has no equal stays whole: its heading is never left alone', async (t) => {
  const paragraph = 'Payments talks to the card processor through the gateway module.\nAll amounts are integers in minor units.\n';
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': `# Payments\n\n## Overview\n\n${paragraph}`,
    'CLAUDE.md': `# Payments (Claude)\n\n## About\n\n${paragraph}`,
  });
  const out = read(COPILOT);
  assert.deepEqual(emptyHeadings(out.split('\n')), [], out);
  assert.match(out, /### About\n\nPayments talks/);
  assert.deepEqual(second.operations, []);
});

test('a numbered list from a drifted copy: the steps the other file has are merged, the step that differs stays under its own heading with its number', async (t) => {
  const steps = (third: string) =>
    `1. Bump the version in package.json.\n2. Update the changelog entry.\n3. ${third}\n4. Push the tag to origin.\n`;
  const { second, read } = await plannedTwice(t, {
    'AGENTS.md': `# Payments\n\n## Release steps\n\n${steps('Tag the release commit.')}`,
    'CLAUDE.md': `# Payments guide\n\n## Releasing\n\n${steps('Tag the release commit with the version.')}`,
  });
  const out = read(COPILOT);
  // Three of its four steps are written already: a twin section (issue 40). Its heading has other
  // words, so it is not merged into that section: the differing step stands under it, a list starting at 3.
  assert.match(
    out,
    /### Release steps\n\n1\. Bump the version in package\.json\.\n2\. Update the changelog entry\.\n3\. Tag the release commit\.\n4\. Push/,
  );
  assert.match(out, /### Releasing\n\n3\. Tag the release commit with the version\.\n$/);
  assert.equal(count(out, '1. Bump the version in package.json.'), 1, out);
  assert.deepEqual(second.operations, []);
});

test('a paragraph and a folder tree another file wrote under another heading are written once', async (t) => {
  const paragraph = 'Payments talks to the card processor through the gateway module.\nAll amounts are integers in minor units.\n';
  const tree = 'The folders are:\n\n```\nsrc/\n  gateway/\n  ledger/\n```\n';
  const { first, second, read } = await plannedTwice(t, {
    'AGENTS.md': `# Payments\n\n## Overview\n\n${paragraph}\n## Layout\n\n${tree}`,
    'CLAUDE.md': `# Payments guide\n\n## About\n\n${paragraph}\n- Never log card numbers.\n\n## Structure\n\n- Keep one module per folder.\n\n${tree}`,
  });
  const out = read(COPILOT);
  assert.equal(count(out, 'Payments talks to the card processor through the gateway module.'), 1);
  assert.equal(count(out, '  ledger/'), 1);
  assert.match(out, /### About\n\n- Never log card numbers\./);
  assert.ok(first.merged.some((m) => m.path === 'CLAUDE.md' && m.text.startsWith('Payments talks')));
  assert.deepEqual(second.operations, []);
});

test("a heading its author left with nothing under it is the author's: kept", async (t) => {
  const { read } = await plannedTwice(t, { 'AGENTS.md': '# Guide\n\n## Conventions\n\n## Controllers\n\n- Keep controllers thin.\n' });
  assert.match(read(COPILOT), /### Conventions\n\n### Controllers/);
});

test('in a scoped file too, a drifted copy leaves no heading with nothing under it, nor a double blank line', async (t) => {
  const body = '## Testing\n\n- Run pnpm test before every commit.\n- Use the in-memory database.\n\n## Style\n\n- Prefer named exports.\n';
  const { second, read } = await plannedTwice(t, {
    '.cursor/rules/a.mdc': `---\nglobs: src/**\n---\n# API\n\n${body}`,
    '.cursor/rules/b.mdc': `---\nglobs: src/**\n---\n# API guide\n\n${body}- Never log card numbers.\n`,
  });
  const out = read('.github/instructions/a.instructions.md');
  assert.deepEqual(emptyHeadings(out.split('\n')), [], out);
  assert.match(out, /# API guide\n\n## Style\n\n- Never log card numbers\.\n$/);
  assert.doesNotMatch(out, /\n\n\n/);
  assert.deepEqual(second.operations, []);
});
