import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, findContradictions, type Analysis } from '../../server/src/analysis/analyze.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import { findNearDuplicates } from '../../server/src/analysis/repeats/near-duplicates.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { sandbox, type Cleanup } from '../helpers/sandbox.js';
import { isListedOnly } from '../../server/src/model/second-looks-shown.js';

/** Contradictions among repository-wide files, given as path → text. */
const contradictions = (files: Record<string, string>) =>
  findContradictions(Object.entries(files).flatMap(([p, text]) => splitUnits(p, text.split('\n'))));

async function analyzed(
  t: Cleanup,
  files: Record<string, string>,
): Promise<{ repo: string; analysis: Analysis; scan: Awaited<ReturnType<typeof scanRepository>> }> {
  const repo = sandbox(t, files);
  const scan = await scanRepository(repo);
  return { repo, scan, analysis: analyze(scan) };
}

// 1. False contradictions

test('a version belongs to the product it names: "Pest PHP 3.8" is not a PHP version', () => {
  assert.deepEqual(
    contradictions({
      'AGENTS.md': '- **Backend**: Laravel 12 + PHP 8.4\n- **Testing**: Pest PHP 3.8 + Laravel Dusk\n',
      'CLAUDE.md': '- PHP 8.4+ for modern features\n- **Pest PHP 3.8+** is the testing framework\n',
    }),
    [],
  );
});

test('a range or list of supported versions is not a claim of one version', () => {
  assert.deepEqual(
    contradictions({
      'AGENTS.md': '- Install uv, supporting Python 3.10 through 3.13.\n- Works on Node 18, 20 or 22.\n- Requires Python 3.10+.\n',
      'CLAUDE.md': '- CI runs the checks in Python 3.13 slim.\n- Target Node 20.\n',
    }),
    [],
  );
});

test("a labelled version is the named product's, and a list goes on with its own versions, not with another product's", () => {
  // Set m (build data): "**Tech stack:** PHP 7.4+, WordPress 6.x" read as a list of versions, and
  // "**PHP Version**: 7.2+" as no version: two minimums of one language, never compared.
  const found = contradictions({
    'AGENTS.md': '**Tech stack:** Zephyr 7.4+, Quarkly 6.x, `@q/scripts` for assets.\n',
    'CLAUDE.md': '**Zephyr Version**: 7.2+ (tested up to 8.4)\n',
  });
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.match(found[0]!.description, /Zephyr version/);
  // Still a list of one product's versions, and still compatible where one holds the other.
  assert.deepEqual(
    contradictions({ 'AGENTS.md': '- Works on Zephyr 7.2, 7.4 or 8.0.\n', 'CLAUDE.md': '- Zephyr version: 7.2+\n- Node version: 20\n' }),
    [],
  );
  assert.deepEqual(contradictions({ 'AGENTS.md': '- Requires Node 20.\n', 'CLAUDE.md': '- **Node version**: `20.11`\n' }), []);
});

test("two setup steps pinning two versions in one file are its own contexts; another file's step that repeats one of them is no conflict", () => {
  // Set p (build data since set q was judged): a contributor's setup and a user's quickstart in one AGENTS.md.
  const agents = '# A\n\n## Development\n\n```bash\nuv venv --python 3.11\n```\n\n## Quickstart\n\n```bash\nuv venv --python 3.12\n```\n';
  const rules = '# R\n\n## Development\n\n```bash\nuv venv --python 3.11\n```\n';
  assert.deepEqual(contradictions({ 'AGENTS.md': agents, 'CLAUDE.md': rules }), []);
  // Two files each pinning their own: still a conflict.
  const found = contradictions({ 'AGENTS.md': rules, 'CLAUDE.md': rules.replace('3.11', '3.12') });
  assert.equal(found.length, 1, JSON.stringify(found));
});

test('a minimum version still contradicts an older exact one', () => {
  const found = contradictions({ 'AGENTS.md': '- Requires Python 3.10+.\n', 'CLAUDE.md': '- Target Python 3.9.\n' });
  assert.match(found.map((p) => p.description).join(), /Python version/);
});

test('claims inside one list item or paragraph qualify each other and do not contradict', () => {
  const text =
    '- Strings:\n  - "double quotes" for user-visible strings that need localization\n  - \'single quotes\' for internal strings\n\nIndent the YAML examples with 2 spaces.\nIndent the generated reports with 4 spaces.\n';
  assert.deepEqual(contradictions({ 'AGENTS.md': text }), []);
});

test('mentioning a package manager or a registry does not prescribe it', () => {
  assert.deepEqual(
    contradictions({
      'AGENTS.md': '- Always use pnpm.\n- Run commands from the root with `pnpm run`.\n',
      'packages/cli/CLAUDE.md':
        'The CLI package, published as `acme` on npm.\n\nThe CLI uses the selected npm, Yarn, pnpm, or Bun package manager for each flow.\n',
    }),
    [],
  );
});

test('forbidding one command or describing a setup does not rule the tool out', () => {
  assert.deepEqual(
    contradictions({
      '.github/copilot-instructions.md':
        '> Never run `tsc` or `yarn lint:types` with file arguments.\n\n1. **Lint**: `yarn lint` - run all linting\n- Use yarn for everything.\n',
      'AGENTS.md': 'v2 is **not** an npm workspace.\n\n- Run `npm install` at the repo root.\n',
      'CLAUDE.md':
        '- Edit `package.json` directly instead of using `pnpm add`.\n- Use pnpm.\n\n| `node core.js` | The core is launched by Node, not bun. |\n- This repo uses bun for task running.\n',
    })
      .map((p) => p.description)
      .filter((d) => /required and ruled out/.test(d)),
    [],
  );
});

test('prescriptive package-manager rules still contradict, and "X, not Y" still rules Y out', () => {
  const pm = (files: Record<string, string>) =>
    contradictions(files)
      .map((p) => p.description)
      .filter((d) => /package manager/.test(d));
  assert.equal(pm({ 'AGENTS.md': '- Use npm.\n', 'CLAUDE.md': '- Always use pnpm.\n' }).length, 1);
  assert.match(
    pm({ 'AGENTS.md': '- Use pnpm, not npm.\n', 'CLAUDE.md': '- Run `npm install` first.\n' }).join(),
    /"npm" both required \(CLAUDE.md:1\) and ruled out \(AGENTS.md:1\)/,
  );
  assert.match(
    pm({ 'AGENTS.md': '- Do not use npm/yarn/pnpm.\n', 'CLAUDE.md': '- Use yarn to install dependencies.\n' }).join(),
    /"yarn" both required \(CLAUDE.md:1\) and ruled out \(AGENTS.md:1\)/,
  );
  assert.deepEqual(pm({ 'AGENTS.md': '- Use npm or yarn, whichever you like.\n', 'CLAUDE.md': '- Use yarn.\n' }), []);
});

test('a test framework is claimed only when tests are written or run with it', () => {
  assert.deepEqual(
    contradictions({
      'AGENTS.md': '- Run `bun run test:chat-ui` (Vitest) before pushing.\n- Browser tests run via `@vitest/browser-playwright`.\n',
      'CLAUDE.md':
        '- A file that imports from "mocha" runs under the VS Code test host.\n- The root tests use node --test, the root has no vitest.\n',
    }),
    [],
  );
  assert.match(
    contradictions({ 'AGENTS.md': '- Write tests with Jest.\n', 'CLAUDE.md': '- We use Vitest for unit tests.\n' })[0]?.description ?? '',
    /test framework/,
  );
});

test('code nested in a list item is an example, not a claim', () => {
  assert.deepEqual(
    contradictions({
      'AGENTS.md': '- Build the image:\n\n  ```sh\n  docker run python 3.9 -m build\n  ```\n',
      'CLAUDE.md': '- Target Python 3.12.\n',
    }),
    [],
  );
});

test('"tabs" in another sense is not an indentation claim', () => {
  assert.deepEqual(
    contradictions({ 'AGENTS.md': '- Indent with 2 spaces.\n', 'CLAUDE.md': '- Keep the browser tabs open while the dev server runs.\n' }),
    [],
  );
});

// 2. Conflicts are the rules that really contradict each other

test('a conflict is the set of linked contradicting rules, in sides; keeping one side drops only the lines that contradict it', async (t) => {
  const { scan, analysis } = await analyzed(t, {
    '.cursor/rules/ts.mdc': '---\nglobs: "**/*.ts"\n---\n- Indent with 2 spaces in TypeScript.\n',
    '.cursor/rules/css.mdc': '---\nglobs: "**/*.css"\n---\n- Use 4 spaces in CSS.\n',
    'src/AGENTS.md': '- Indent with 2 spaces.\n',
    'AGENTS.md': '- Use 4 spaces for TypeScript.\n',
    'docs/AGENTS.md': '- Use 4 spaces in Markdown examples.\n',
  });
  const conflicts = analysis.problems.filter((p) => p.type === 'contradiction').filter((p) => !isListedOnly(p));
  // "Indent with 2 spaces" in src/ meets both 4-space rules; the 2-space rules agree; CSS and TypeScript never meet;
  // docs/ meets none of them, so it is in no conflict.
  assert.equal(conflicts.length, 1, JSON.stringify(conflicts));
  const c = conflicts[0]!;
  assert.match(c.description, /^Contradicting rules about indentation: /);
  const side = (p: string) => c.sides![c.locations.findIndex((l) => l.path === p)];
  assert.deepEqual(c.locations.map((l) => l.path).sort(), ['.cursor/rules/css.mdc', '.cursor/rules/ts.mdc', 'AGENTS.md', 'src/AGENTS.md']);
  assert.equal(side('.cursor/rules/ts.mdc'), side('src/AGENTS.md'));
  assert.equal(side('AGENTS.md'), side('.cursor/rules/css.mdc'));
  assert.notEqual(side('AGENTS.md'), side('src/AGENTS.md'));

  const keep = (p: string) =>
    buildPlan(scan, analysis, { legacy: {}, conflicts: { conflict_1: `keep_${c.locations.findIndex((l) => l.path === p) + 1}` } });
  assert.deepEqual(
    keep('.cursor/rules/ts.mdc')
      .dropped.map((d) => `${d.path}:${d.line}`)
      .sort(),
    ['.cursor/rules/css.mdc:4', 'AGENTS.md:1'],
  );
  assert.deepEqual(
    keep('AGENTS.md')
      .dropped.map((d) => `${d.path}:${d.line}`)
      .sort(),
    ['.cursor/rules/ts.mdc:4', 'src/AGENTS.md:1'],
  );
});

// 3. Trivial repeats are not duplicated rules, and duplicates alone are not "messy"

test('generic headings across files and repeated bold labels are not duplications; a tidy Copilot repo is structured', async (t) => {
  const instructions = (glob: string, topic: string) =>
    `---\napplyTo: "${glob}"\n---\n# ${topic}\n\n## Purpose\n\nRules for ${topic}.\n\n## Examples\n\n**Example:**\n\n- Name ${topic} files after their feature.\n\n**Example:**\n\n- Keep one ${topic} per file.\n\nWhen reviewing pull requests:\n\n- check ${topic} naming.\n\nWhen reviewing pull requests:\n\n- check ${topic} layout.\n`;
  const { analysis } = await analyzed(t, {
    '.github/copilot-instructions.md': '# Guidelines\n\n## Build\n\n- Use pnpm for all package management.\n',
    '.github/instructions/components.instructions.md': instructions('src/components/**', 'component'),
    '.github/instructions/hooks.instructions.md': instructions('src/hooks/**', 'hook'),
  });
  assert.deepEqual(analysis.problems, []);
  assert.equal(analysis.pattern, 'structured');
});

test('a heading repeated as a sibling in one file is still reported', async (t) => {
  const { analysis } = await analyzed(t, {
    'AGENTS.md':
      '# Guide\n\n## Setup\n\n- Install the toolchain.\n\n## Setup\n\n- Install the hooks.\n\n## API\n\n### Notes\n\n- Validate input.\n\n## CLI\n\n### Notes\n\n- Parse flags with yargs.\n',
  });
  assert.deepEqual(
    analysis.problems.map((p) => p.description),
    ['Repeated heading "setup"'],
  );
});

test('code nested in list items, table headers and HTML comments are not repeated rules', async (t) => {
  const item = (n: number) =>
    `- Set up test ${n} like this:\n\n  \`\`\`ts\n  describe("Test Name", () => {\n    let testDir: string;\n    await cleanup();\n  });\n  \`\`\`\n`;
  const table = (n: number) => `| Status | Option ID |\n|---|---|\n| open | o${n} |\n`;
  const { analysis } = await analyzed(t, {
    'AGENTS.md': `${item(1)}\n${item(2)}\n${table(1)}\n${table(2)}`,
    'pkg/AGENTS.md': '<!-- generated: rules extracted from review notes -->\n\n- Keep functions short.\n',
    'pkg/sub/AGENTS.md': '<!-- generated: rules extracted from review notes -->\n\n- Name files in kebab-case.\n',
  });
  // What a person is told: alike lines listed for the client's model only are no problem shown.
  assert.deepEqual(
    analysis.problems.filter((p) => !isListedOnly(p)),
    [],
  );
});

test('repeated rules alone make a repo unstructured, not messy', async (t) => {
  const { analysis } = await analyzed(t, {
    'AGENTS.md': '- Run the linter before every commit.\n',
    'CLAUDE.md': '- Run the linter before every commit.\n',
  });
  assert.equal(analysis.problems.filter((p) => p.type === 'duplication').length, 1);
  assert.equal(analysis.pattern, 'unstructured');
});

test('rules repeated in files whose scopes never meet are not duplications', async (t) => {
  const rule =
    '- Place trademark notices at the very end of the README file.\n- Keep the installation command in a dotnetcli code block.\n\n';
  const { analysis } = await analyzed(t, {
    '.github/instructions/client.instructions.md': `---\napplyTo: "src/Components/**"\n---\n${rule}This guide covers writing and maintaining README files for the client integration packages under the source folder.\n`,
    '.github/instructions/hosting.instructions.md': `---\napplyTo: "src/Hosting/**"\n---\n${rule}This guide covers writing and maintaining README files for the hosting integration packages under the source folder.\n`,
  });
  assert.deepEqual(analysis.problems, []);
});

// 4. Output does not depend on the locale

test('conflicts and near-duplicates are ordered by code units, not by the locale', () => {
  const found = contradictions({ 'a.md': '- Use pnpm.\n', 'Z.md': '- Use yarn.\n' });
  assert.deepEqual(
    found[0]!.locations.map((l) => l.path),
    ['Z.md', 'a.md'],
  );

  const para = (p: string, text: string) => splitUnits(p, [text]);
  const near = findNearDuplicates([
    ...para('a.md', 'Run the full test suite with coverage before opening any pull request against main.'),
    ...para('Z.md', 'Document every exported function with a short example and the errors it can throw.'),
    ...para('y.md', 'Run the full test suite with coverage before opening a pull request against the main branch.'),
    ...para('y.md', 'Document each exported function with a short example and the errors it can throw.'),
  ]);
  assert.deepEqual(
    near.map((p) => p.locations[0]!.path),
    ['Z.md', 'a.md'],
  );
});
