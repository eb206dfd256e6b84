import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPlan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * The person's text is fixed ground (issue 40): in an existing Copilot file, nothing the person wrote
 * moves, is reordered or is split from the line that introduces it; new sections go after it. A flat
 * Copilot file (no `## ` sections) is not sorted into topic sections by default.
 */

const COPILOT = '.github/copilot-instructions.md';

/** A flat Copilot file: a lead-in with the unfenced commands it introduces, and loose rules a topic sort would take apart. */
const FLAT = [
  '# Project',
  '',
  'This service takes orders and sends them to the warehouse.',
  '',
  'Run the tests with:',
  '',
  'npm test -- --coverage',
  'npm run e2e',
  '',
  '- Write tests for every new route with vitest.',
  '- Install dependencies with pnpm only.',
  '- Use camelCase naming for variables.',
  '',
].join('\n');

const FLAT_NO_TITLE = [
  'Always use TypeScript strict mode.',
  'Before you push, run the checks:',
  '    npm run lint',
  '    npm test',
  'Install packages with pnpm, never npm.',
  'Name test files after the module they test.',
  '',
].join('\n');

async function plan(files: Record<string, string>, t: Parameters<typeof sandbox>[0]) {
  return buildPlan(await scanRepository(sandbox(t, files)));
}

for (const [name, flat] of [
  ['with a title, a lead-in and its unfenced commands', FLAT],
  ['without a title, one paragraph with an indented snippet', FLAT_NO_TITLE],
] as const) {
  test(`a flat Copilot file alone (${name}) is left as the person wrote it: the plan changes nothing`, async (t) => {
    const p = await plan({ [COPILOT]: flat }, t);
    assert.deepEqual(
      p.operations.map((o) => [o.op, o.path, o.content]),
      [],
    );
  });

  test(`a flat Copilot file (${name}) with rules from another file: the person's text stays first, byte for byte, new sections after it`, async (t) => {
    const p = await plan(
      { [COPILOT]: flat, 'CLAUDE.md': '# Rules\n\n- Never log access tokens.\n- Deploy with the release script after a build.\n' },
      t,
    );
    const op = p.operations.find((o) => o.path === COPILOT);
    assert.ok(op?.content, 'the Copilot file gets the new rules');
    assert.ok(op.content.startsWith(flat.replace(/\n$/, '')), `the person's lines moved:\n${op.content}`);
    const added = op.content.slice(flat.replace(/\n$/, '').length);
    assert.match(added, /^\n\n## /, `new text starts a section of its own after the person's:\n${added}`);
    assert.match(added, /- Never log access tokens\./);
    assert.match(added, /- Deploy with the release script after a build\./);
  });
}

test("a conflicting rule from another file is marked, and written after the person's text: never between two of their lines, nor into their section (only the mark stands above their rule)", async (t) => {
  const list = [
    '- **Build**: `bun run compile`, not `bun run build`.',
    '- **Watch**: `bun run watch`.',
    '- **Tests**: `bun run test:unit`.',
  ];
  const copilot = ['# Project', '', '## Build & Test', '', ...list, '', '## Style', '', '- Keep functions small.', ''].join('\n');
  const p = await plan(
    {
      [COPILOT]: copilot,
      'CLAUDE.md': '# Rules\n\n- **Build:** `bun run package` does the full production build.\n- Never log access tokens.\n',
    },
    t,
  );
  const content = p.operations.find((o) => o.path === COPILOT)?.content ?? '';
  assert.match(content, /conflicting rules about the build command/, 'the conflict is marked (the default choice)');
  assert.ok(content.includes(list.join('\n')), `the person's list was cut:\n${content}`);
  const other = content.indexOf('- **Build:** `bun run package`');
  // Only a conflict mark may stand among the person's lines (above their rule): nothing else is put there.
  assert.ok(
    content.replace(/^<!-- copilot-onboard: conflicting rules about [^\n]*\n/gm, '').startsWith(copilot),
    `the person's text was changed:\n${content}`,
  );
  assert.ok(other > content.indexOf('- Keep functions small.'), `the other side stands after the person's text:\n${content}`);
});

test("a file scoped to its folder keeps its sections in its own file: none is spread into the repository's sections", async (t) => {
  const app = [
    '# Example app',
    '',
    'This example app shows how to use the SDK. In this repo, keep it small.',
    '',
    '## Build',
    '',
    '- Start the app with npm run dev.',
    '',
    '## Testing',
    '',
    '- Test the app with npm run test:app.',
    '',
  ].join('\n');
  const p = await plan(
    {
      'AGENTS.md': '## Build\n\n- Build every package with pnpm -r build.\n\n## Testing\n\n- Run pnpm test before you push.\n',
      'examples/app/AGENTS.md': app,
      'examples/app/package.json': '{"name":"app"}\n',
    },
    t,
  );
  const root = p.operations.find((o) => o.path === COPILOT)?.content ?? '';
  for (const line of ['Start the app with npm run dev', 'Test the app with npm run test:app']) assert.ok(!root.includes(line), root);
  const scoped = p.operations.find((o) => o.path.startsWith('.github/instructions/examples-app'))?.content ?? '';
  assert.match(scoped, /^applyTo: "examples\/app\/\*\*"$/m);
  assert.ok(scoped.includes(app.trimEnd()), `the app's file is whole, in order:\n${scoped}`);
});

test("a conflict mark for the person's rule right under their heading goes above the heading: nothing is put between their heading and its first line", async (t) => {
  const copilot = [
    '# Guide',
    '',
    '## Tools',
    '',
    '### Build (Recommended)',
    'Build the project with the wrapper:',
    '- **Build**: `bun run compile`, not `bun run build`.',
    '',
    '## Style',
    '',
    '- Keep functions small.',
    '',
  ].join('\n');
  const p = await plan(
    { [COPILOT]: copilot, 'CLAUDE.md': '# Rules\n\n- **Build:** `bun run package` does the full production build.\n' },
    t,
  );
  const content = p.operations.find((o) => o.path === COPILOT)!.content!;
  const mark = '<!-- copilot-onboard: conflicting rules about the build command; decide which one stands -->';
  // Above the person's stacked headings, where their section starts (below the file's title), never under a heading.
  assert.ok(content.startsWith(`# Guide\n\n${mark}\n## Tools\n\n### Build (Recommended)\nBuild the project with the wrapper:\n`), content);
  assert.equal(content.split(mark).length - 1, 2, 'the other side is marked where it is written');
  // The person's lines, in order, with nothing between them but the one mark above their section.
  assert.ok(content.replace(`${mark}\n`, '').startsWith(copilot), content);
});
