import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, DEFAULT_FINDERS, FINDERS, type Problem } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { compareValues } from '../../server/src/analysis/contradictions/second-look/align.js';
import { conflictOptions } from '../../server/src/planning/choices.js';
import { analysisReport } from '../../server/src/narrate/report.js';
import { SHOWN_SECOND_LOOKS, shownProblems } from '../../server/src/model/second-looks-shown.js';
import { sandbox } from '../helpers/sandbox.js';
import type { Contradiction } from '../../server/src/model/problem.js';

/**
 * Issue 39: pairs worth a second look found by subject, never by a list of names. Every tool,
 * command and name below is made up: the mechanism must work on text it has never seen.
 */

/** The subject pairs analysis finds with every finder, the opt-in ones too. */
async function subjectPairs(t: TestContext, files: Record<string, string>): Promise<Problem[]> {
  const scan = await scanRepository(sandbox(t, files));
  return analyze(scan, FINDERS).problems.filter((p) => p.type === 'contradiction' && p.kind === 'subject');
}
const at = (p: Problem) => p.locations.map((l) => `${l.path}:${l.line}`);
const saidOf = (p: Problem) => (p.type === 'contradiction' ? p.said : '');
/** Rules padding a file so that rarity means something (each about its own thing). */
const padding = Array.from({ length: 12 }, (_, i) => `- Topic${i} keeps item${i} near field${i}.`).join('\n');

test('one slot, two values across files: `zorb check` in one file, `quax check` in another', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- Run \`zorb check\` before every push.\n${padding}\n`,
    'CLAUDE.md': `# Claude\n\n- Run \`quax check\` before every push to main.\n`,
  });
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.certainty, 'low');
  assert.deepEqual(at(found[0]!), ['AGENTS.md:3', 'CLAUDE.md:3']);
  assert.match(saidOf(found[0]!), /quax|zorb/);
});

test('a drifted copy: a name extended by a segment, a command given a flag', () => {
  assert.equal(compareValues('flimco-store', 'flimco-store-lite')?.change, 'name');
  assert.equal(compareValues('./bin/zorb vet', './bin/zorb vet --remote')?.change, 'flag');
  // Flags in another order, or an argument added, change nothing: the same command, narrowed.
  assert.equal(compareValues('zorb vet --all --quiet', 'zorb vet --quiet --all'), null);
  assert.equal(compareValues('zorb vet', 'zorb vet src/'), null);
  // A changed tool in one frame is one slot; a changed last word is another action, weaker.
  const tool = compareValues('zorb test', 'quax test')!;
  const action = compareValues('zorb test', 'zorb build')!;
  assert.ok(tool.strength > action.strength, `${tool.strength} vs ${action.strength}`);
});

test('the same value negated in one line only: "never call `blorp sync`" vs a code example that calls it', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- Never call \`blorp sync\` by hand.\n${padding}\n`,
    'CLAUDE.md': '# Setup\n\n```sh\nblorp sync --all\n```\n',
  });
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.match(saidOf(found[0]!), /says not to/);
});

test('a rule against several lines doing what it forbids is one pair, the rule first', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- Do not add a blorp package without asking.\n${padding}\n`,
    'CLAUDE.md': '# A\n\n```sh\nblorp fetch wemble\n```\n',
    '.github/copilot-instructions.md': '# B\n\n```sh\nblorp fetch quiggle\n```\n',
  });
  // The rule and both examples are one pair, ranked first (the two examples, side by side, rank below).
  assert.ok(found.length >= 1, JSON.stringify(found));
  assert.deepEqual(at(found[0]!).sort(), ['.github/copilot-instructions.md:4', 'AGENTS.md:3', 'CLAUDE.md:4']);
  assert.equal(at(found[0]!)[0], 'AGENTS.md:3');
  assert.deepEqual(found[0]!.type === 'contradiction' && found[0]!.sides, [0, 1, 1]);
});

test('not a pair: "prefer X over `y`" against a line that also turns `y` down; a bare name against the command run with flags', async (t) => {
  assert.deepEqual(
    await subjectPairs(t, {
      'AGENTS.md': `# Agents\n\n- Add wemble flags instead of inline \`quaxOf()\` checks.\n${padding}\n`,
      'CLAUDE.md': '# Claude\n\n- Prefer explicit wemble fields over scattered `quaxOf()` checks.\n',
    }),
    [],
  );
  assert.equal(compareValues('zorblint', 'zorblint lint --strict'), null);
});

test('not a pair: a value that only narrows the other, both negated, a list of siblings, a wrong-way example', async (t) => {
  const none = async (files: Record<string, string>) => assert.deepEqual(await subjectPairs(t, files), []);
  await none({
    'AGENTS.md': `# Agents\n\n- Run \`zorb check\` before every push.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Run `zorb check src/` before every push.\n',
  });
  await none({
    'AGENTS.md': `# Agents\n\n- Use \`flink\` instead of \`blorp sync\`.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Never call `blorp sync`; it wipes the cache.\n',
  });
  await none({
    'AGENTS.md': `# Commands\n\n- \`zorb build\` builds the app\n- \`zorb serve\` serves it\n- \`quax build\` builds the docs\n\n## More\n\n${padding}\n`,
  });
  await none({
    'AGENTS.md': `# Agents\n\n❌ Wrong: calling blorp sync by hand\n\n\`\`\`sh\nblorp sync --all\n\`\`\`\n\n${padding}\n`,
  });
});

test('a hedged rule, and a value naming its own package folder, rank below the plain pair', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# A\n\n- Run \`zorb check\` before every push.\n- Run \`vlim lint\` when possible before every push.\n${padding}\n`,
    'CLAUDE.md': '# C\n\n- Run `quax check` before every push.\n- Run `trel lint` before every push.\n',
    'pkg/wemble/AGENTS.md': '# Wemble\n\n- Run `zorb check --pkg wemble` before every push.\n',
  });
  const order = found.map((p) => at(p).join(' '));
  const plain = order.indexOf('AGENTS.md:3 CLAUDE.md:3');
  assert.ok(plain >= 0, order.join(' | '));
  assert.ok(order.indexOf('AGENTS.md:4 CLAUDE.md:4') === -1 || order.indexOf('AGENTS.md:4 CLAUDE.md:4') > plain, order.join(' | '));
});

test('pairs by subject run by default, last: a changed command is a second look, at certainty low', async (t) => {
  assert.deepEqual(DEFAULT_FINDERS, FINDERS);
  assert.equal(FINDERS.at(-1)!.name, 'subject');
  const scan = await scanRepository(
    sandbox(t, {
      'AGENTS.md': `# Agents\n\n- Run \`zorb check\` before every push.\n${padding}\n`,
      'CLAUDE.md': `# Claude\n\n- Run \`quax check\` before every push to main.\n`,
    }),
  );
  const found = analyze(scan).problems.filter((p) => p.type === 'contradiction' && p.kind === 'subject');
  assert.deepEqual(found.map(at), [['AGENTS.md:3', 'CLAUDE.md:3']]);
  assert.equal(found[0]!.certainty, 'low');
});

/** Twelve pairs worth a second look, invented: more than a person is shown. */
const twelve: Contradiction[] = Array.from({ length: 12 }, (_, i) => ({
  type: 'contradiction' as const,
  kind: 'subject' as const,
  certainty: 'low' as const,
  description: `Worth a second look, both about tool${i}`,
  locations: [
    { path: 'AGENTS.md', line: i + 3 },
    { path: 'CLAUDE.md', line: i + 3 },
  ],
  sides: [0, 1],
  topic: `tool${i}`,
  said: `"tool${i}a" vs "tool${i}b"`,
}));
const reported: Contradiction = { ...twelve[0]!, kind: 'tool-choice', certainty: 'high', description: 'Reported' };

test(`a person is shown at most ${SHOWN_SECOND_LOOKS} pairs worth a second look, the highest ranked; every reported one stays`, () => {
  const { shown, notShown } = shownProblems([reported, ...twelve]);
  assert.equal(shown.length, 1 + SHOWN_SECOND_LOOKS);
  assert.equal(notShown, 12 - SHOWN_SECOND_LOOKS);
  assert.deepEqual(shown.slice(1), twelve.slice(0, SHOWN_SECOND_LOOKS));
  const text = analysisReport({ pattern: 'messy', sources: [], skipped: [], problems: [reported, ...twelve] });
  assert.equal(text.split('\n').filter((l) => l.startsWith('- worth a second look')).length, SHOWN_SECOND_LOOKS);
  assert.match(text, new RegExp(`and ${12 - SHOWN_SECOND_LOOKS} more pairs worth a second look`));
});

test(`approve's first round offers at most ${SHOWN_SECOND_LOOKS} pairs worth a second look, each with both standing by default`, () => {
  const analysis = {
    pattern: 'messy' as const,
    patternDetail: '',
    sources: [],
    skipped: [],
    structured: {},
    problems: [reported, ...twelve],
  };
  const offered = conflictOptions(
    analysis,
    () => [],
    () => false,
  );
  assert.equal(offered.length, 1 + SHOWN_SECOND_LOOKS);
  assert.equal(offered.filter((c) => c.option.secondLook).length, SHOWN_SECOND_LOOKS);
});

test('one file named in two cases is reported (drifted-name), not a second look: a link to `docs/Zephyr.md` and one to `docs/zephyr.md`', async (t) => {
  const scan = await scanRepository(
    sandbox(t, {
      'AGENTS.md': `# Agents\n\n- Read [the zephyr guide](docs/Zephyr.md) first.\n- Run \`quax lint\` on \`src/core/alpha.ts\`.\n${padding}\n`,
      'CLAUDE.md': '# Claude\n\n- Read [the zephyr guide](docs/zephyr.md) first.\n- Run `quax lint` on `src/core/beta.ts`.\n',
    }),
  );
  const problems = analyze(scan, FINDERS).problems.filter((p) => p.type === 'contradiction');
  const reported = problems.filter((p) => p.certainty !== 'low');
  assert.deepEqual(
    reported.map((p) => [p.kind, ...at(p)]),
    [['drifted-name', 'AGENTS.md:3', 'CLAUDE.md:3']],
  );
  assert.match(saidOf(reported[0]!), /docs\/Zephyr\.md` vs `docs\/zephyr\.md|docs\/zephyr\.md` vs `docs\/Zephyr\.md/);
  // Two paths to files of other names (a list of files, each its own) are no report.
  assert.ok(!reported.some((p) => at(p).join(' ') === 'AGENTS.md:4 CLAUDE.md:4'));
});

test('"`x` needs no change" turns `x`; a negated folder meets a path through it; a listing names its thing first', async (t) => {
  const change = await subjectPairs(t, {
    'AGENTS.md': `# Modules\n\n- The \`gantry.conf\` file needs no change when a module is added.\n${padding}\n`,
    'CLAUDE.md': '# Modules\n\n- Register each new module in `gantry.conf` under `[modules]`.\n',
  });
  assert.deepEqual(change.map(at), [['AGENTS.md:3', 'CLAUDE.md:3']]);
  assert.match(saidOf(change[0]!), /says not to/);
  const folder = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- Avoid editing \`autogen\` folders by hand.\n${padding}\n`,
    'CLAUDE.md': '# Steps\n\n- Update the tables in `lib/autogen/` after a schema change.\n',
  });
  assert.deepEqual(folder.map(at), [['AGENTS.md:3', 'CLAUDE.md:3']]);
  const listing = await subjectPairs(t, {
    'AGENTS.md': `# Crates\n\n\`\`\`\nquill-store-lite   the storage crate\nquill-web          the server\n\`\`\`\n\n${padding}\n`,
    'CLAUDE.md': '# Commits\n\n- Scope a storage commit as `quill-store`.\n',
  });
  assert.ok(
    listing.some((p) => at(p).join(' ') === 'AGENTS.md:4 CLAUDE.md:3'),
    JSON.stringify(listing),
  );
});

test('not a pair: the rule names the line as its exception, forbids a narrower use, or the line names the rule choice too', async (t) => {
  const none = async (files: Record<string, string>) => assert.deepEqual(await subjectPairs(t, files), [], JSON.stringify(files));
  await none({
    'AGENTS.md': `# Agents\n\n- Never call \`trace.dump\`, except in \`bench/\`.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Call `trace.dump` in `bench/` to print the timings.\n',
  });
  await none({
    'AGENTS.md': `# Agents\n\n- Never run \`blip vet\` with a folder argument.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Run `blip vet` before pushing.\n',
  });
  await none({
    'AGENTS.md': `# Agents\n\n- Use \`zorb\` for everything; never quax.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Run tasks through the runner (e.g., `zorb task go`, `quax exec task go`).\n',
  });
  // Other files of one name family, and values naming their own line's label.
  await none({
    'AGENTS.md': `# Agents\n\n- Don't ship \`.secrets\` files.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Ship `.secrets.sample` with every new key.\n',
  });
  await none({
    'AGENTS.md': `# Agents\n\n- Fast tests: \`blip run:fast\`.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Slow tests: `blip run:slow`.\n',
  });
});

test('the same two lines in a copied file are one question, asked once', async (t) => {
  const rule = '- Run `zorb check` before every push.';
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n${rule}\n${padding}\n`,
    'CLAUDE.md': `# Claude\n\n${rule}\n${padding}\n`,
    '.github/copilot-instructions.md': '# Copilot\n\n- Run `quax check` before every push to main.\n',
  });
  assert.equal(found.length, 1, JSON.stringify(found));
});

test('a line that retires a script meets the steps still running it: "replaces the original `old_sync.sh`" vs `./tools/old_sync.sh`', async (t) => {
  const found = await subjectPairs(t, {
    'tools/brisk/AGENTS.md': `# Brisk\n\n- The brisk tool replaces the original \`old_sync.sh\` script.\n${padding}\n`,
    'AGENTS.md': '# Agents\n\n## Release\n\n```sh\n./tools/old_sync.sh\n```\n',
  });
  assert.deepEqual(found.map(at), [['tools/brisk/AGENTS.md:3', 'AGENTS.md:6']]);
  assert.match(saidOf(found[0]!), /says not to/);
  // "the `x` file" and "the `y` folder" share only "the": no frame.
  assert.deepEqual(
    await subjectPairs(t, {
      'AGENTS.md': `# Agents\n\n- Keep the \`wemble.toml\` file short.\n${padding}\n`,
      'CLAUDE.md': '# Claude\n\n- Keep the `quiggle` folder tidy.\n',
    }),
    [],
  );
});

test('one command run before a step in one file and after it in another: "after merging" vs "# before merges"', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- Run \`zorb tidy\` after merging to settle the lockfile.\n${padding}\n`,
    'pkg/AGENTS.md': '# Pkg\n\n```sh\nzorb tidy        # before merges\n```\n',
  });
  assert.deepEqual(found.map(at), [['AGENTS.md:3', 'pkg/AGENTS.md:4']]);
  assert.match(saidOf(found[0]!), /after merging" vs "before merges/);
  // Before one step and after another are two times of two steps, not one.
  assert.deepEqual(
    await subjectPairs(t, {
      'AGENTS.md': `# Agents\n\n- Run \`zorb tidy\` after merging to settle the lockfile.\n${padding}\n`,
      'pkg/AGENTS.md': '# Pkg\n\n```sh\nzorb tidy        # before comments are read\n```\n',
    }),
    [],
  );
});

test('a name and a member of a family of names built on it rank below a name extended once', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- Build \`wemble-core\` first.\n- Deploy \`wemble-web\` last.\n- Ship \`wemble-cli\` beside them.\n- Scope storage commits as \`quill-store\`.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- Build `wemble` first.\n- Storage commits: `quill-store-lite`.\n',
  });
  const order = found.map((p) => at(p).join(' '));
  const once = order.indexOf('AGENTS.md:6 CLAUDE.md:4');
  assert.ok(once >= 0, order.join(' | '));
  const member = order.findIndex((o) => o.endsWith('CLAUDE.md:3'));
  assert.ok(member === -1 || member > once, order.join(' | '));
});
