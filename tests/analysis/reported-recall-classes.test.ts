import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFiles } from '../fixtures/judged-detection/judge.js';

/**
 * Issue 39, the reported tier (k39x): classes of real conflicts the build data showed unreported, and
 * the look-alikes that must stay unreported beside them. Every text is invented; no name in them is
 * known to the code (no word list).
 */

const reported = async (files: Record<string, string>) =>
  (await analyzeFiles(files)).filter((p) => p.type === 'contradiction' && p.certainty !== 'low');
const said = (found: { description: string }[]) => JSON.stringify(found.map((p) => p.description));

test('a catalogue of one name in several versions, listed side by side, is not a choice between them', async () => {
  const catalogue =
    '# Providers\n\n**Zephyr models:**\n\n- **Zephyr 5.2 Family** (Latest):\n  - `zephyr-5-2-large` - flagship\n- **Zephyr 4.1 Family**:\n  - `zephyr-4-1-small` - fast\n- **Zephyr 3.0 Family**:\n  - `zephyr-3-0-small` - legacy\n';
  let found = await reported({ 'AGENTS.md': catalogue });
  assert.deepEqual(found, [], said(found));
  found = await reported({ 'AGENTS.md': catalogue, 'CLAUDE.md': '# Stack\n\n- Sandpiper 2.4 is the runtime.\n' });
  assert.deepEqual(found, [], said(found));
  // Two files that each require one version of one name still disagree.
  found = await reported({
    'AGENTS.md': '# Stack\n\n- Always build against Sandpiper 2.4.\n',
    'CLAUDE.md': '# Stack\n\n- Always build against Sandpiper 3.1.\n',
  });
  assert.equal(found.length, 1, said(found));
});

test('a major version written "v4" is a version: two files requiring v3 and v4 of one name disagree', async () => {
  let found = await reported({
    'AGENTS.md': '# Styling\n\n- Always use Quillwind CSS v3; check that every class exists in this version.\n',
    '.github/copilot-instructions.md': '# Styling\n\n- Always use Quillwind CSS v4; do not use the removed utilities.\n',
  });
  assert.equal(found.length, 1, said(found));
  assert.match(found[0]!.description, /v?3.*v?4|v?4.*v?3/);
  // The same major in both, a bare number without "v", or a version as a condition are not a conflict.
  for (const [a, b] of [
    ['- Always use Quillwind CSS v4.\n', '- Quillwind CSS v4 removed the old utilities.\n'],
    ['- Use Quillwind CSS v4 for new pages.\n', '- Pages made before Quillwind CSS v3 keep their own sheet.\n'],
    ['- The Ferrous 2 engine renders pages.\n', '- Use Ferrous 3 engine hooks.\n'],
    ['- Step 2 builds the site.\n', '- Step 3 deploys it.\n'],
  ]) {
    found = await reported({ 'AGENTS.md': `# Styling\n\n${a}`, 'CLAUDE.md': `# Styling\n\n${b}` });
    assert.deepEqual(found, [], said(found));
  }
});

test('an example in another file that uses a name a rule forbids is reported with the rule', async () => {
  const rule = '# Tests\n\n- **Do not** use `makeScratchSync` or `os.scratchSync` to create scratch folders.\n';
  const example =
    '# Helpers\n\n```ts\nimport {\n  makeScratch, // a scratch folder with files\n  makeScratchSync, // an empty scratch folder\n} from "harnessing";\n```\n';
  let found = await reported({ 'AGENTS.md': rule, 'tests/AGENTS.md': example });
  assert.equal(found.length, 1, said(found));
  assert.deepEqual(
    found[0]!.locations.map((l) => `${l.path}:${l.line}`),
    ['AGENTS.md:3', 'tests/AGENTS.md:6'],
  );
  const banImport = '# Imports\n\n- Never import from `@quill/tools` main entry point directly.\n';
  found = await reported({
    'AGENTS.md': banImport,
    '.github/copilot-instructions.md': "# Example\n\n```ts\nimport { makeDeferred } from '@quill/tools'\n```\n",
  });
  assert.equal(found.length, 1, said(found));
  // Look-alikes: the example shows the wrong way, imports a sub-path, uses another name that only starts
  // alike, or the rule is hedged; a short common word is no name of the project's.
  for (const [rules, code] of [
    [rule, '# Helpers\n\nDo not write this:\n\n```ts\nconst dir = makeScratchSync();\n```\n'],
    [rule, '# Helpers\n\n```ts\n// ❌ avoid\nconst dir = makeScratchSync();\n```\n'],
    [rule, '# Helpers\n\n```ts\nconst dir = makeScratchSyncLater();\n```\n'],
    [banImport, "# Example\n\n```ts\nimport { makeDeferred } from '@quill/tools/helpers'\n```\n"],
    ['# Tests\n\n- Avoid `makeScratchSync` when possible.\n', '# Helpers\n\n```ts\nconst dir = makeScratchSync();\n```\n'],
    ['# Types\n\n- Do not use `any`.\n', '# Helpers\n\n```ts\nfunction f(x: any) {}\n```\n'],
  ]) {
    found = await reported({ 'AGENTS.md': rules!, 'tests/AGENTS.md': code! });
    assert.deepEqual(found, [], said(found));
  }
  // The rule's own file showing the name in a code block right under it is its example of what not to do.
  found = await reported({ 'AGENTS.md': `${rule}\n\`\`\`ts\nconst dir = makeScratchSync();\n\`\`\`\n` });
  assert.deepEqual(found, [], said(found));
});

test('a table row for one path ("`api/**` only") gives that path its command, it does not insist on it everywhere', async () => {
  const all = '# Checks\n\n- Lint all: `yarn run lint`\n\n| Change | Run |\n|---|---|\n';
  let found = await reported({ 'AGENTS.md': `${all}| \`api/**\` only | \`yarn workspace api run lint\` + the api tests |\n` });
  assert.deepEqual(found, [], said(found));
  // A row that insists on its command for the whole job still disagrees with the line above.
  found = await reported({ 'AGENTS.md': `${all}| Lint | only \`yarn workspace api run lint\` |\n` });
  assert.equal(found.length, 1, said(found));
});

test('one section that chooses two tools of one kind gives each its job: they do not contradict elsewhere', async () => {
  const roles = '# Tooling\n\n- Use `pnpm` as the primary package manager\n- Use `bun` to run the scripts\n';
  const found = await reported({
    'AGENTS.md': `${roles}\n# Checks\n\n- Use \`bun run typecheck\` to check types\n`,
    'CLAUDE.md': '# Setup\n\nWe use `pnpm` as package manager.\n\n# Checks\n\n- use `bun run typecheck` for types.\n',
  });
  assert.deepEqual(found, [], said(found));
  // Two files each choosing one, with no section naming both, still disagree.
  const apart = await reported({
    'AGENTS.md': '# Tooling\n\n- Use `pnpm` as the package manager\n',
    'CLAUDE.md': '# Tooling\n\n- Use `bun` as the package manager\n',
  });
  assert.equal(apart.length, 1, said(apart));
});

test("a command copied into another file's code block with a path moved to another folder is a drifted copy", async () => {
  const block = (line: string) => `# Database\n\n\`\`\`bash\n${line}\n\`\`\`\n`;
  let found = await reported({
    'AGENTS.md': block('npx nx run ledger:orm migration:make src/store/orm/migrations/shared/[name] -d src/store/orm/source.ts'),
    'CLAUDE.md': block('npx nx run ledger:orm migration:make src/store/orm/migrations/[name] -d src/store/orm/source.ts'),
  });
  assert.equal(found.length, 1, said(found));
  assert.equal(found[0]!.kind, 'drifted-copy');
  // Examples run on other files or with other flags, or commented otherwise, are not copies edited.
  for (const [a, b] of [
    ['uv run pytest tests/path.py -x -n4', 'uv run pytest tests/ledger/ -x -n4'],
    ['uv run pytest tests/path.py -x -n4', 'uv run pytest tests/path.py -x --tb=short'],
    ['npx nx test ledger-front --watch=false # Frontend unit tests', 'npx nx test ledger-front --watch=false # Run unit tests'],
  ]) {
    found = await reported({ 'AGENTS.md': block(a!), 'CLAUDE.md': block(b!) });
    assert.deepEqual(found, [], said(found));
  }
});

test('two tools one section chooses without saying what each is for, or one for the whole field, still contradict', async () => {
  for (const text of ['- Use pnpm.\n- Use yarn.\n', '- Use pnpm for all package management.\n- Use npm to install dependencies.\n']) {
    const found = await reported({ 'AGENTS.md': `# Tooling\n\n${text}` });
    assert.equal(found.length, 1, said(found));
  }
});

test('one file named at two places in two files (a folder more, or another case) is a drifted name', async () => {
  let found = await reported({
    'AGENTS.md': '# Tests\n\n- Build records with [ledger_test_helper.rb](mdc:test/support/ledger_test_helper.rb) helpers.\n',
    'CLAUDE.md':
      '# Tests\n\n- For many records, use helpers such as [ledger_test_helper.rb](mdc:test/support/account/ledger_test_helper.rb) as a factory.\n',
  });
  assert.equal(found.length, 1, said(found));
  assert.equal(found[0]!.kind, 'drifted-name');
  found = await reported({
    'AGENTS.md': '# Skills\n\n| [tone](/.claude/skills/brand-voice/SKILL.md) | how we write |\n',
    '.github/copilot-instructions.md': '# Skills\n\n| [tone](/.claude/skills/brand-voice/skill.md) | how we write copy |\n',
  });
  assert.equal(found.length, 1, said(found));
  // A common file name in two folders, a package's own config, another folder in the same place, both
  // places in one file, or a path relative to its file are not one file named twice.
  for (const [a, b] of [
    ['- Start at `src/index.ts`.', '- The CLI starts at `src/cli/index.ts`.'],
    ['- Settings live in `tsconfig.json`.', '- The web app extends `packages/web/tsconfig.json`.'],
    ['- Read `docs/api/setup-guide.md`.', '- Read `docs/web/setup-guide.md`.'],
    ['- Helpers: `test/support/ledger_test_helper.rb` and `test/support/account/ledger_test_helper.rb`.', '- Tests live in `test/`.'],
    ['- See [helper](../support/ledger_test_helper.rb).', '- See `test/support/account/ledger_test_helper.rb`.'],
  ]) {
    found = await reported({ 'AGENTS.md': `# Notes\n\n${a}\n`, 'CLAUDE.md': `# Notes\n\n${b}\n` });
    assert.deepEqual(found, [], said(found));
  }
});

test('a path in a command is the argument of an example, not a file named', async () => {
  const found = await reported({
    'AGENTS.md': '# Tests\n\n- `uv run pytest tests/unit/test_ledger.py`: one file\n',
    'CLAUDE.md': '# Tests\n\n- `uv run pytest tests/test_ledger.py -k name`: one test\n',
  });
  assert.deepEqual(found, [], said(found));
});

test('a line of code copied into another file with names in another case is a drifted copy', async () => {
  const block = (line: string) => `# Types\n\n\`\`\`python\n${line}\n\`\`\`\n`;
  let found = await reported({
    'AGENTS.md': block('def keep_known_rows(rows: List[str], known_rows: Set[str]) -> List[str]:'),
    'CLAUDE.md': block('def keep_known_rows(rows: list[str], known_rows: set[str]) -> list[str]:'),
  });
  assert.equal(found.length, 1, said(found));
  assert.equal(found[0]!.kind, 'drifted-copy');
  // Short lines, both spellings in one file, or prose lines are not copies of code.
  for (const [a, b] of [
    [block('x = List()'), block('x = list()')],
    [
      '# Types\n\n- Use the Ledger Client for every call to the store.\n',
      '# Types\n\n- Use the ledger client for every call to the store.\n',
    ],
  ]) {
    found = await reported({ 'AGENTS.md': a!, 'CLAUDE.md': b! });
    assert.deepEqual(found, [], said(found));
  }
  found = await reported({
    'AGENTS.md': block(
      'def keep_known_rows(rows: List[str], known_rows: Set[str]) -> List[str]:\ndef keep_known_rows(rows: list[str], known_rows: set[str]) -> list[str]:',
    ),
    'CLAUDE.md': block('def keep_known_rows(rows: list[str], known_rows: set[str]) -> list[str]:'),
  });
  assert.deepEqual(found, [], said(found));
});
