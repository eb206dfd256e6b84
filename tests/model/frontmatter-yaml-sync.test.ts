import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFrontMatter } from '../../server/src/model/frontmatter.js';

/** In a process of its own: no YAML parser loaded yet, and readFrontMatter loads it itself when a block needs it and none is given. */

const LISTED = ['---', 'globs:', '  - "src/b/**/*.ts"', '---', '- Use yarn.'];

test('given no parser, readFrontMatter loads the YAML parser itself when a block needs it', () => {
  assert.deepEqual(readFrontMatter(LISTED), { data: { globs: ['src/b/**/*.ts'] }, lineCount: 4, lenient: false });
  assert.deepEqual(readFrontMatter(LISTED), { data: { globs: ['src/b/**/*.ts'] }, lineCount: 4, lenient: false });
});
