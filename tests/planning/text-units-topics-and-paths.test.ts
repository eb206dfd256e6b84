// The ground the planner stands on: byte-exact text round trips, Markdown units, topics and
// restructuring, the repeat and contradiction finders, and repository paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { findContradictions, findDuplicates } from '../../server/src/analysis/analyze.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import { isInside, normalizeRepoPath, RepoPaths } from '../../server/src/repo/repo-path.js';
import { readSource } from '../../server/src/repo/source-file.js';
import { renderBase } from '../../server/src/planning/render/body.js';
import { confidentTopic, restructure, sectionFor } from '../../server/src/planning/structure.js';
import { joinText, splitText } from '../../server/src/common/text.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';

test('text round trip is byte-exact for LF, CRLF, BOM, no final newline, empty', () => {
  for (const t of ['a\nb\n', 'a\rb\r', '\uFEFF', '\uFEFF\n', 'a\r\nb\r\n', '\uFEFFa\nb', 'single', '', '\n', 'a\n\n\nb\n'])
    assert.equal(joinText(splitText(t)), t, JSON.stringify(t));
});

test('Markdown units: fenced code stays one unit, list items keep their nested lines, every line belongs once', () => {
  const lines = [
    '# Title',
    '',
    'Intro line one',
    'intro line two',
    '',
    '- item',
    '  - nested',
    '  wrapped',
    '- second',
    '',
    '```sh',
    '# not a heading',
    '- not an item',
    '```',
    '## Section',
  ];
  const units = splitUnits('f.md', lines);
  assert.deepEqual(
    units.map((u) => [u.kind, u.line, u.lines.length]),
    [
      ['heading', 1, 1],
      ['paragraph', 3, 2],
      ['list-item', 6, 3],
      ['list-item', 9, 1],
      ['code', 11, 4],
      ['heading', 15, 1],
    ],
  );
  const covered = units.flatMap((u) => u.lines.map((_, i) => u.line + i));
  assert.deepEqual(
    covered,
    lines.map((l, i) => (l.trim() === '' ? null : i + 1)).filter((x) => x !== null),
  );
});

test('a rule goes to the topic with more matching words; a tie or no match is no confident topic and stays in place', () => {
  assert.equal(sectionFor('Run the tests with vitest and npm').title, 'Testing');
  assert.equal(sectionFor('Install dependencies with pnpm and build with tsc').title, 'Dependencies');
  assert.equal(sectionFor('Be kind').title, 'General');
  assert.equal(confidentTopic('Be kind'), null);
  assert.equal(confidentTopic('Keep the docs folder next to the build script'), null, 'one word each for two topics is a tie');
  assert.equal(confidentTopic('Never commit secrets or API keys.')?.title, 'Security');
  assert.equal(confidentTopic('Keep pull requests small and focused.')?.title, 'Git and pull requests');
});

test('restructure keeps the title and intro on top, groups by topic, keeps order, keeps a repeat inside the file', () => {
  const lines = [
    '# T',
    '',
    'Intro.',
    '',
    '- Use pnpm to install.',
    '- Write tests with vitest.',
    '- Use pnpm to install.',
    '- Build with tsc.',
  ];
  const r = restructure('f.md', splitUnits('f.md', lines));
  assert.deepEqual(r.lines, [
    '# T',
    '',
    'Intro.',
    '',
    '## Build',
    '',
    '- Build with tsc.',
    '',
    '## Dependencies',
    '',
    '- Use pnpm to install.',
    '- Use pnpm to install.',
    '',
    '## Testing',
    '',
    '- Write tests with vitest.',
  ]);
  const nonBlank = (xs: string[]) => xs.filter((l) => l.trim() !== '').sort();
  const expected = nonBlank([...lines, ...r.added]);
  assert.deepEqual(nonBlank(r.lines), expected, 'every line once, repeats too, plus the section headings');
});

test('a flat file with one rule per line, no bullets and no blank lines, is sorted line by line; a line with no confident topic stays under the title', () => {
  const lines = [
    '# API',
    'You are working on the orders API.',
    'Use pnpm to install dependencies.',
    'Write tests with vitest.',
    'Be kind to reviewers.',
    'Never commit secrets or API keys.',
  ];
  const r = restructure('f.md', splitUnits('f.md', lines));
  assert.deepEqual(r.lines, [
    '# API',
    'You are working on the orders API.',
    'Be kind to reviewers.',
    '',
    '## Dependencies',
    '',
    'Use pnpm to install dependencies.',
    '',
    '## Testing',
    '',
    'Write tests with vitest.',
    '',
    '## Security',
    '',
    'Never commit secrets or API keys.',
  ]);
});

test('pseudo-headings become headings one level below the title, each with its lines; a line answering the one before moves with it', () => {
  const lines = [
    '# UI',
    '',
    '🎨 Code Style',
    '- Use 2 spaces.',
    '',
    '**Release:**',
    'Tag the commit.',
    'Push the tag.',
    '',
    'Run tests with vitest.',
    'But e2e tests run from the e2e folder.',
  ];
  const r = restructure('f.md', splitUnits('f.md', lines));
  assert.deepEqual(r.lines, [
    '# UI',
    '',
    '## 🎨 Code Style',
    '',
    '- Use 2 spaces.',
    '',
    '## **Release:**',
    '',
    'Tag the commit.',
    'Push the tag.',
    '',
    'Run tests with vitest.',
    'But e2e tests run from the e2e folder.',
  ]);
  assert.deepEqual(r.added, [], 'the heading lines are source lines with `#`s before them');
});

test('renderBase leaves the existing file byte-identical: a structured one, a paragraph repeated in two sections, a flat one', () => {
  const lines = ['# T', '', '## A', '', 'Same paragraph here.', '', '## B', '', 'Same paragraph here.', '', 'Other.'];
  assert.deepEqual(renderBase('f.md', lines).lines, lines);
  const flat = ['# T', '', 'Run the tests with:', 'npm test', '', '- Use pnpm.', '- Write tests with vitest.'];
  assert.deepEqual(renderBase('f.md', flat).lines, flat);
});

test('the topic table: each topic finds its contradiction, and consistent rules pass', () => {
  const check = (text: string) => findContradictions(splitUnits('f.md', text.split('\n'))).map((p) => p.description);
  assert.match(check('- Use pnpm.\n- Use yarn.').join(), /package manager/);
  assert.match(check('- Indent with 2 spaces.\n- Indent with 4 spaces.').join(), /indentation/);
  assert.match(check('- Always use semicolons.\n- Omit semicolons.').join(), /semicolons/);
  assert.match(check('- Use single quotes.\n- Use double quotes.').join(), /quotes/);
  assert.match(check('- Write tests with jest.\n- Write tests with vitest.').join(), /test framework/);
  assert.match(check('- Target Node 18.\n- Target Node.js 20.').join(), /Node\.js version/);
  assert.deepEqual(check('- Use pnpm, never npm.\n- Target Python 3.\n- Target Python 3.11.'), []);
  assert.deepEqual(check('```\nnpm install\nyarn add\n```'), [], 'code blocks are not rules');
});

test('duplicates: repeated headings, paragraphs and lines, with every location', () => {
  const units = splitUnits('f.md', [
    '## Setup',
    '',
    'Install the toolchain first.',
    '',
    '## Setup',
    '',
    'Install the toolchain first.',
    '',
    'One line repeated here.',
    'Another.',
    '',
    'x',
    'One line repeated here.',
  ]);
  const found = findDuplicates(units).map((p) => `${p.description} @ ${p.locations.map((l) => l.line).join(',')}`);
  assert.ok(
    found.some((f) => /Repeated heading "setup" @ 1,5/.test(f)),
    found.join('\n'),
  );
  assert.ok(
    found.some((f) => /Repeated line: "Install the toolchain first\." @ 3,7/.test(f)),
    found.join('\n'),
  );
  assert.ok(
    found.some((f) => /One line repeated here\." @ 9,13/.test(f)),
    found.join('\n'),
  );
});

test('paths: .., absolute paths and NUL are refused; a sibling with a common prefix is outside, a folder named ..x inside', () => {
  for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a\0b', '']) assert.throws(() => normalizeRepoPath(bad), /Unsafe path/);
  assert.equal(normalizeRepoPath('./a//b/'), 'a/b');
  // A drive and a backslash mean something only on Windows; elsewhere they are characters of a name.
  if (process.platform === 'win32') assert.throws(() => normalizeRepoPath('C:\\x'), /Unsafe path/);
  else assert.equal(normalizeRepoPath('C:\\x'), 'C:\\x');
  assert.equal(isInside('/a/repo', '/a/repo2/x'), false);
  assert.equal(isInside('/a/repo', '/a/repo/x'), true);
  assert.equal(isInside('/a/repo', '/a/repo/..x/AGENTS.md'), true);
  assert.equal(isInside('/a/repo', '/a'), false);
});

test('paths: a symlinked folder that leads out is refused for writing and skipped for reading', async (t) => {
  const repo = sandbox(t);
  const outside = sandbox(t, { 'AGENTS.md': '- outside\n' });
  fs.symlinkSync(outside, path.join(repo, 'linked'));
  writeFile(repo, 'inside.md', '- inside\n');
  fs.symlinkSync('inside.md', path.join(repo, 'AGENTS.md'));
  const paths = new RepoPaths(repo);
  await assert.rejects(paths.safeAbs('linked/AGENTS.md'), /outside the repository/);
  const skipped = await readSource(paths, 'linked/AGENTS.md');
  assert.equal(skipped.status === 'skipped' && skipped.reason, 'symlink_outside');
  const inside = await readSource(paths, 'AGENTS.md');
  assert.equal(inside.status === 'ok' && inside.linkTarget, 'inside.md');
});
