import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDeferringYaml, readFrontMatter, YAML_NEEDED } from '../../server/src/model/frontmatter.js';

/** In a process of its own: the YAML parser starts unloaded, and readFrontMatter loads it itself when a block needs it. */

const LISTED = ['---', 'globs:', '  - "src/b/**/*.ts"', '---', '- Use yarn.'];

test('outside a deferring parse, readFrontMatter loads the YAML parser itself', () => {
  assert.equal(
    parseDeferringYaml(() => readFrontMatter(LISTED)),
    YAML_NEEDED,
  );
  // Not left deferring after the parse that gave up.
  assert.deepEqual(readFrontMatter(LISTED), { data: { globs: ['src/b/**/*.ts'] }, lineCount: 4, lenient: false });
  assert.deepEqual(
    parseDeferringYaml(() => readFrontMatter(LISTED)),
    { data: { globs: ['src/b/**/*.ts'] }, lineCount: 4, lenient: false },
  );
});
