import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadYaml, needsYaml, readFrontMatter } from '../../server/src/model/frontmatter.js';

/**
 * The YAML parser is loaded only when a front matter block needs it (model/frontmatter.ts): whether
 * one does is known before it is parsed, and the parser loaded then is passed to the reader.
 */

const FLAT = ['---', 'description: Area a', 'globs: src/a/**', '---', '- Use pnpm.'];
const LISTED = ['---', 'globs:', '  - "src/b/**/*.ts"', '---', '- Use yarn.'];

test('whether a block needs the YAML parser is known before it is read: flat front matter and none do not, a list does', () => {
  assert.equal(needsYaml(FLAT), false);
  assert.equal(needsYaml(['# No front matter', 'globs:', '  - a']), false);
  assert.equal(needsYaml(['---', 'globs:', '  - a']), false, 'a block never closed is no front matter');
  assert.equal(needsYaml(LISTED), true);
  assert.equal(needsYaml(['---', 'description: "an \\"escaped\\" quote"', '---']), true);
});

test('flat front matter is read without a parser; a block that needs YAML is read with the one loaded for it', async () => {
  assert.deepEqual(readFrontMatter(FLAT), { data: { description: 'Area a', globs: 'src/a/**' }, lineCount: 4, lenient: false });
  assert.equal(readFrontMatter(['# No front matter']), null);
  const yaml = await loadYaml();
  assert.deepEqual(readFrontMatter(LISTED, yaml), { data: { globs: ['src/b/**/*.ts'] }, lineCount: 4, lenient: false });
  // The parser given is the one used.
  let asked = 0;
  const counting: typeof yaml = ((text: string, ...rest: unknown[]) => (
    asked++,
    (yaml as (...a: unknown[]) => unknown)(text, ...rest)
  )) as typeof yaml;
  readFrontMatter(LISTED, counting);
  readFrontMatter(FLAT, counting);
  assert.equal(asked, 1);
});
