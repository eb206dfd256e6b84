import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Problem } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Issue 39 (k39w): classes of second looks seen missed, or seen shown on look-alikes, in the judged
 * build data; each written here in other words, every name made up.
 */

async function subjectPairs(t: TestContext, files: Record<string, string>): Promise<Problem[]> {
  const scan = await scanRepository(sandbox(t, files));
  return analyze(scan).problems.filter((p) => p.type === 'contradiction' && p.kind === 'subject');
}
const at = (p: Problem) => p.locations.map((l) => `${l.path}:${l.line}`);
const sidesOf = (p: Problem) => (p.type === 'contradiction' ? p.sides : []);
const padding = Array.from({ length: 12 }, (_, i) => `- Topic${i} keeps item${i} near field${i}.`).join('\n');
const none = async (t: TestContext, files: Record<string, string>) =>
  assert.deepEqual((await subjectPairs(t, files)).map(at), [], JSON.stringify(files));

test('a command copied with one folder changed ranks first, even where its words name both headings', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n## Build\n\n- Shared fixtures live in \`web-fixtures\`.\n\n\`\`\`sh\nzorb --out-dir build-fast --fail-slow\n\`\`\`\n\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n## Build\n\n- Keep the shared `core-fixtures` small.\n\n```sh\nzorb --out-dir build --fail-slow\n```\n',
  });
  assert.deepEqual(at(found[0]!), ['AGENTS.md:8', 'CLAUDE.md:8'], JSON.stringify(found.map(at)));
});

test('the same two values on several pairs of lines are one question, every line on its side', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- Run \`zorb tidy\` after editing a page.\n- When a copy drifts, call \`zorb tidy\` to carry it over.\n${padding}\n`,
    'CLAUDE.md':
      '# Claude\n\n- Pages are kept tidy by `zorb neaten`.\n\n## Copies\n\nA drifted copy is carried over by `zorb neaten` as well.\n',
  });
  const withBoth = found.filter((p) => at(p).includes('AGENTS.md:4') || at(p).includes('CLAUDE.md:7'));
  assert.equal(withBoth.length, 1, JSON.stringify(found.map(at)));
  const p = withBoth[0]!;
  const side = (loc: string) => sidesOf(p)[at(p).indexOf(loc)];
  const [tidy, neaten] = [['AGENTS.md:3', 'AGENTS.md:4'].map(side), ['CLAUDE.md:3', 'CLAUDE.md:7'].map(side)];
  assert.ok(tidy[0] !== undefined && neaten[0] !== undefined && tidy[0] !== neaten[0], JSON.stringify([at(p), sidesOf(p)]));
  assert.deepEqual([tidy[1], neaten[1]], [tidy[0], neaten[0]], JSON.stringify([at(p), sidesOf(p)]));
});

test('not a pair: two lines that both say not to do one thing, in other words', async (t) => {
  await none(t, {
    'AGENTS.md': `# Agents\n\n- Avoid editing \`spawned\` subfolders.\n${padding}\n`,
    'crates/zorb/AGENTS.md': '# Zorb\n\n- never hand-edit files under `spawned/`\n',
  });
  await none(t, {
    'AGENTS.md': `# Agents\n\n- \`.zapi\` files are spawned, never hand-edited\n${padding}\n`,
    '.cursor/rules/zapi.mdc': '---\nalwaysApply: true\n---\n\n**Never edit `.zapi` files manually.**\n',
  });
});

test('not a pair: a placeholder and a value standing in its place, a command the other line names too, a folder and a command', async (t) => {
  await none(t, {
    'AGENTS.md': `# Agents\n\n- Packages: \`cd packages/<package-name>\`, then run the checks\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- packages (eg: ledger): `cd packages/ledger`, then run the checks\n',
  });
  await none(t, {
    'AGENTS.md': `# Agents\n\n\`\`\`sh\nyarn e2e:zap path/to/flow.spec.ts\n\`\`\`\n\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Run zap flows: `yarn zap flow` or `yarn e2e:zap`.\n',
  });
  await none(t, {
    'AGENTS.md': `# Agents\n\n- Hot reload: changes to page code (\`pages/\`) apply within seconds.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n1. After page changes, run `make pages-quick` before testing\n',
  });
});

test('still a pair: the same command given a flag in another line of the file, "run `zorb check`" / "`zorb check --online` runs every check"', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\nFirst of all, run \`zorb check\` to verify any edits.\n\n## Checks\n\n${padding}\n- Shortcut: \`zorb check --online\` runs every check above.\n`,
  });
  assert.deepEqual(found.map(at), [['AGENTS.md:3', 'AGENTS.md:19']], JSON.stringify(found.map(at)));
});

test('a list of names grown by one in a copy is one slot, two values: "Quill/Sparrow" vs "Quill/Sparrow/Marten"', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- **Storage:** Ormly with Quill/Sparrow support\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- **Storage:** Ormly with Quill/Sparrow/Marten support\n',
  });
  assert.deepEqual(found.map(at), [['AGENTS.md:3', 'CLAUDE.md:3']]);
});

test('a copy in another file with a word of its prose replaced: "Format page files (lintly)" / "Format all page files (prettly)"', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- \`web-format\`: Format page files (lintly).\n${padding}\n`,
    '.github/copilot-instructions.md': '# Copilot\n\n- `web-format`: Format all page files (prettly). [~10s]\n',
  });
  assert.deepEqual(found.map(at), [['.github/copilot-instructions.md:3', 'AGENTS.md:3']], JSON.stringify(found.map(at)));
  // Grammar words changed, or a word inside a code span, are a copy reworded.
  await none(t, {
    'AGENTS.md': `# Agents\n\n- Every part owns a folder: keep its index beside the styles.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- A part owns a folder: keep its index beside the styles at once.\n',
  });
});

test('where the shell sends a stream is no word of the command: `-j $(nproc 2>/dev/null || ...)` still drifts by its folder', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- \`zorbtest --dir out-rel --fail-fast -j $(nproc 2>/dev/null || sysctl -n hw.ncpu)\`\n${padding}\n`,
    '.github/copilot-instructions.md': '# Copilot\n\n```sh\nzorbtest --dir out --fail-fast -j $(nproc)\n```\n',
  });
  assert.deepEqual(found.map(at), [['.github/copilot-instructions.md:4', 'AGENTS.md:3']], JSON.stringify(found.map(at)));
});

test('not a pair: a name and a command after the same word, "launch `debug`" / "launch `make web-dev`"', async (t) => {
  await none(t, {
    'AGENTS.md': `# Agents\n\n- Launch \`debug\` for breakpoints in the viewer.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Launch `make web-dev` and open the browser.\n',
  });
});

test("not a pair: a structure tree's entry and a path through its folders; a command aimed at one package by a flag and its argument", async (t) => {
  await none(t, {
    'AGENTS.md': `# Agents\n\n\`\`\`\nrepo/\n├── zorb/src\n└── quux/lib\n\`\`\`\n\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Put new modules in `packages/zorb/src/modules`.\n',
  });
  await none(t, {
    'AGENTS.md': `# Agents\n\n- Lint everything: \`pnpm run lint\`\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Lint the web app alone: `pnpm --filter web run lint`\n',
  });
});

test('not a pair: descriptions of one link said in other words, a placeholder in code, and two lines inside blocks a tool writes', async (t) => {
  await none(t, {
    'AGENTS.md': `# Agents\n\n| Guide | About |\n| --- | --- |\n| [Look](docs/look/look-book.md) | Extended look tokens |\n${padding}\n`,
    '.github/copilot-instructions.md':
      '# Copilot\n\n| Guide | About |\n| --- | --- |\n| [Look](docs/look/look-book.md) | Extended look docs |\n',
  });
  await none(t, {
    'AGENTS.md': `# Agents\n\n\`\`\`sh\ntools/finder/find.sh widgets <pattern>\n\`\`\`\n\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n```sh\ntools/finder/find.sh <command> [pattern]\n```\n',
  });
  await none(t, {
    'AGENTS.md': `# Agents\n\n<!-- zorb-rules-start -->\n- Run \`zorb tidy\` after each edit.\n<!-- zorb-rules-end -->\n\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n<!-- zorb-rules-start -->\n- Run `zorb neaten` after each edit.\n<!-- zorb-rules-end -->\n',
  });
});

test('a version put on a copied line is a drift to look at: "custom parts" / "custom parts v1"', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- \`part-kit/\`: Library for building Zorb custom parts.\n${padding}\n`,
    '.github/copilot-instructions.md': '# Copilot\n\n- `part-kit/`: Library for building Zorb custom parts v1.\n',
  });
  assert.deepEqual(found.map(at), [['.github/copilot-instructions.md:3', 'AGENTS.md:3']], JSON.stringify(found.map(at)));
});

test('not a pair: steps of one numbered series, and an identifier against a command using a part of it', async (t) => {
  await none(t, {
    'AGENTS.md': `# Agents\n\n## Zorb Phase 1: set up\n\n- **Zorb Phase 1** loads the parts.\n\n## Zorb Phase 2\n\n- **Zorb Phase 2** checks them.\n\n## Zorb Phase 3\n\n- **Zorb Phase 3** ships them.\n${padding}\n`,
  });
  await none(t, {
    'AGENTS.md': `# Agents\n\n- Node kinds live in \`zorb_tree\`.\n${padding}\n`,
    'crates/quux/AGENTS.md': '# Quux\n\n- Regenerate the kinds with `just tree` after editing them.\n',
  });
});

test('one job run by two programs in two files is a pair, however little else the lines share: `zorb test -short ./...` / `make test`', async (t) => {
  const found = await subjectPairs(t, {
    '.github/copilot-instructions.md': `# Copilot\n\n- Run \`zorb test -short ./...\` before committing a change to the parser or its many helpers\n${padding}\n`,
    'AGENTS.md': `# Agents\n\n- Default local check for every contributor on any machine: \`make test\`\n- Ship with \`make release\` once green.\n- Wikis live in the shared drive for now.\n- Lint runs in CI on every push.\n`,
  });
  assert.ok(
    found.some((p) => at(p).includes('.github/copilot-instructions.md:3') && at(p).includes('AGENTS.md:3')),
    JSON.stringify(found.map(at)),
  );
});
