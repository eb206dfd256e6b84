import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, FINDERS, type Problem } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { compareValues } from '../../server/src/analysis/contradictions/second-look/align.js';
import { lineTerms } from '../../server/src/analysis/contradictions/second-look/terms.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Issue 39, second looks that carry over to text nobody read while building them: each class below was
 * seen missed on a judged set, and is written here in other words, every name made up.
 */

async function subjectPairs(t: TestContext, files: Record<string, string>): Promise<Problem[]> {
  const scan = await scanRepository(sandbox(t, files));
  return analyze(scan, FINDERS).problems.filter((p) => p.type === 'contradiction' && p.kind === 'subject');
}
const at = (p: Problem) => p.locations.map((l) => `${l.path}:${l.line}`);
const saidOf = (p: Problem) => (p.type === 'contradiction' ? p.said : '');
const padding = Array.from({ length: 12 }, (_, i) => `- Topic${i} keeps item${i} near field${i}.`).join('\n');
/** A body two files share line for line, so that one is taken as a copy of the other. */
const shared = Array.from({ length: 14 }, (_, i) => `- Rule ${i}: keep the wemble${i} module tidy and small.`).join('\n');

test('a file left out as a copy still shows where it drifted: one changed command in two copies, and in a third', async (t) => {
  const scan = await scanRepository(
    sandbox(t, {
      'AGENTS.md': `# Rules\n\n${shared}\n- Rebuild the assets with \`glim run bundle\` and \`glim run watch\` when pages look stale.\n`,
      'CLAUDE.md': `# Rules\n\n${shared}\n- Rebuild the assets with \`frob run bundle\` and \`frob run watch\` when pages look stale.\n`,
      'GEMINI.md': `# Rules\n\n${shared}\n- Rebuild the assets with \`quig run bundle\` and \`quig run watch\` when pages look stale.\n`,
    }),
  );
  const found = analyze(scan, FINDERS).problems.filter((p) => p.type === 'contradiction' && at(p).some((l) => l.endsWith(':17')));
  // One edit made twice in the line (issue 39, the reported tier): a drifted copy, one problem for the line
  // in its three copies, said by the names that changed, and no second look beside it.
  assert.deepEqual(
    found.map((p) => [p.type === 'contradiction' && p.kind, at(p).sort()]),
    [['drifted-copy', ['AGENTS.md:17', 'CLAUDE.md:17', 'GEMINI.md:17']]],
  );
  assert.match(saidOf(found[0]!), /"glim" vs "frob" vs "quig"/);
});

test('two copies differing in one short line of a list: a version changed, however common its name is here', async (t) => {
  // `zorb` is on every line (a common word pairs nothing by rarity); the copies put their lines side by side.
  const list = Array.from({ length: 14 }, (_, i) => `- zorb-part${i} - v${i + 1}`).join('\n');
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Packages\n\n${list}\n- zorb - 8.5.2\n`,
    'CLAUDE.md': `# Packages\n\n${list}\n- zorb - 8.3.28\n`,
  });
  assert.deepEqual(found.map(at), [['AGENTS.md:17', 'CLAUDE.md:17']], JSON.stringify(found.map(at)));
  assert.match(saidOf(found[0]!), /8\.5\.2.*8\.3\.28|8\.3\.28.*8\.5\.2/);
});

test('the same pair in a copied file is asked once, the copy standing beside its side', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Rules\n\n${shared}\n- Never call \`blorp purge\` by hand.\n`,
    'CLAUDE.md': `# Rules\n\n${shared}\n- Never call \`blorp purge\` by hand.\n- Spare line so the two differ.\n`,
    '.github/copilot-instructions.md': '# Copilot\n\n```sh\nblorp purge --all\n```\n',
  });
  const pairs = found.filter((p) => at(p).includes('.github/copilot-instructions.md:4'));
  assert.equal(pairs.length, 1, JSON.stringify(found.map(at)));
  const pair = pairs[0]!;
  assert.ok(at(pair).includes('AGENTS.md:17') && at(pair).includes('CLAUDE.md:17'), at(pair).join(' '));
  const sides = pair.type === 'contradiction' ? pair.sides! : [];
  const sideOf = (l: string) => sides[at(pair).indexOf(l)];
  assert.equal(sideOf('AGENTS.md:17'), sideOf('CLAUDE.md:17'));
  assert.notEqual(sideOf('AGENTS.md:17'), sideOf('.github/copilot-instructions.md:4'));
});

test('a bare item of a "things to avoid" list says not to: it meets the line that does it', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Golden files\n\n## Things to avoid\n\n- Blindly approve every pending golden file\n\n## Other\n\n${padding}\n`,
    'CLAUDE.md': '# Tests\n\n- Refresh goldens: `snapgo approve`\n',
  });
  assert.deepEqual(found.map(at), [['AGENTS.md:5', 'CLAUDE.md:3']]);
  assert.match(saidOf(found[0]!), /says not to/);
});

test('a forbidden word that is the flag of a command run elsewhere: "never make builds with the turbo profile" / `zorb build --turbo`', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- NEVER make builds with the turbo profile.\n${padding}\n`,
    'CLAUDE.md': '# Commands\n\n```sh\nzorb build --turbo\n```\n',
  });
  assert.deepEqual(found.map(at), [['AGENTS.md:3', 'CLAUDE.md:4']]);
});

test('one plain word in common is two actions on two things, not one forbidden: "must not add a trailing note" / "Add benchmarks"', async (t) => {
  assert.deepEqual(
    await subjectPairs(t, {
      'AGENTS.md': `# Agents\n\n- You must not add a trailing note that restates the diff.\n${padding}\n`,
      'CLAUDE.md': '# Claude\n\n- **Add benchmarks** for hot paths, with `zorb bench`.\n',
    }),
    [],
  );
});

test('a long command drifted by a folder put inside its path, and one line of code written in two cases', async (t) => {
  const long = (dir: string) =>
    `quuxctl make:migration src/store/schema/migrations/${dir}<name> --config src/store/schema/config/source-of-rows.ts`;
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n\`\`\`sh\n${long('shared/')}\n\`\`\`\n\n${padding}\n`,
    'CLAUDE.md': `# Claude\n\n\`\`\`sh\n${long('')}\n\`\`\`\n`,
  });
  assert.deepEqual(found.map(at), [['AGENTS.md:4', 'CLAUDE.md:4']]);
  // A line of code written in two cases is reported (a drifted copy, k39x), no longer a second look.
  const scan = await scanRepository(
    sandbox(t, {
      'AGENTS.md': `# Agents\n\n\`\`\`py\ndef keep_known(ids: Sequence[int]) -> Sequence[int]:\n\`\`\`\n\n${padding}\n`,
      'CLAUDE.md': '# Claude\n\n```py\ndef keep_known(ids: sequence[int]) -> sequence[int]:\n```\n',
    }),
  );
  const cased = analyze(scan, FINDERS).problems.filter((p) => p.type === 'contradiction');
  assert.deepEqual(
    cased.map((p) => [p.kind, p.certainty, ...at(p)]),
    [['drifted-copy', 'medium', 'AGENTS.md:4', 'CLAUDE.md:4']],
  );
});

test('two naming styles for one thing: "constants should be PascalCase" / "constants are SCREAMING_SNAKE_CASE"', async (t) => {
  const found = await subjectPairs(t, {
    'AGENTS.md': `# Agents\n\n- Usually, constants in a module should be PascalCase. For example: \`MaxRows\`, \`TopSpeed\`, \`Idle\`.\n${padding}\n`,
    'CLAUDE.md': '# Claude\n\n- **Module constants are SCREAMING_SNAKE_CASE** (`MAX_ROWS`, `TOP_SPEED`).\n',
  });
  assert.deepEqual(found.map(at), [['AGENTS.md:3', 'CLAUDE.md:3']]);
  assert.match(saidOf(found[0]!), /pascalcase.*screaming_snake_case|screaming_snake_case.*pascalcase/);
});

test('values by shape: a version changed last is a drift; a shared word in another place is no slot; a chain is its commands; a sentence in code is prose', () => {
  const version = compareValues('Plonkdb 5', 'Plonkdb 6')!;
  const action = compareValues('zorb build', 'zorb test')!;
  assert.ok(version.strength > action.strength, `${version.strength} vs ${action.strength}`);
  // One job (`test`) run by two programs, a flag aside, is one slot filled twice.
  assert.ok(compareValues('zorb test -q', 'quax test')!.strength >= 0.6);
  // `needs_zorb` and `zorb-rules` share a word, but neither stands where the other's stood.
  assert.ok(compareValues('needs_zorb', 'zorb-rules')!.strength < 0.2);
  assert.deepEqual(
    lineTerms('4. Run `zorb build && zorb vet:fix`', false).values.map((v) => v.text),
    ['zorb build', 'zorb vet:fix'],
  );
  assert.equal(lineTerms('    """Return the number of widgets in the tray."""', true).code, false);
  assert.equal(lineTerms('zorb compile --turbo', true).code, true);
  // Punctuation alone names nothing; a key before its value stays.
  assert.deepEqual(
    lineTerms('- Chain conditions with `&&` in guards', false).values.map((v) => v.text),
    [],
  );
  assert.deepEqual(
    lineTerms("  mode: 'fast',", true).values.map((v) => v.text),
    ["mode: 'fast',"],
  );
});

test('a flag the other line names as optional agrees; two names of one family rank below two programs for one job', async (t) => {
  assert.deepEqual(
    await subjectPairs(t, {
      'AGENTS.md': `# Agents\n\n\`\`\`sh\nzorb sync --all-parts\n\`\`\`\n\n${padding}\n`,
      'CLAUDE.md': '# Claude\n\n- Install parts through `zorb sync` (optionally `--all-parts`).\n',
    }),
    [],
  );
  // Two programs in one copied frame are a drifted copy, reported (drifted-spans.ts); the two names of one family stay a second look.
  const scan = await scanRepository(
    sandbox(t, {
      'AGENTS.md': `# Agents\n\n- Shared fixtures live in \`web-fixtures\`.\n- Run \`zorb test\` before every push.\n${padding}\n`,
      'CLAUDE.md': '# Claude\n\n- Shared fixtures live in `core-fixtures`.\n- Run `quax test` before every push.\n',
    }),
  );
  const found = analyze(scan, FINDERS).problems.filter((p) => p.type === 'contradiction');
  const reported = found.filter((p) => p.certainty !== 'low').map((p) => at(p).sort());
  assert.deepEqual(reported, [['AGENTS.md:4', 'CLAUDE.md:4']], JSON.stringify(found.map(at)));
  assert.ok(found.filter((p) => p.certainty === 'low').every((p) => at(p).sort().join(' ') !== 'AGENTS.md:4 CLAUDE.md:4'));
});
