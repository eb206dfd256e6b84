import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadYaml, parseDeferringYaml, readFrontMatter, YAML_NEEDED } from '../../server/src/model/frontmatter.js';

/**
 * The YAML parser is loaded only when a front matter block needs it (model/frontmatter.ts). This
 * file runs in a process of its own, so the parser starts unloaded here.
 */

const FLAT = ['---', 'description: Area a', 'globs: src/a/**', '---', '- Use pnpm.'];
const LISTED = ['---', 'globs:', '  - "src/b/**/*.ts"', '---', '- Use yarn.'];

test('a parse that defers the YAML parser reads flat front matter, and says so when a block needs YAML', async () => {
  assert.deepEqual(
    parseDeferringYaml(() => readFrontMatter(FLAT)),
    { data: { description: 'Area a', globs: 'src/a/**' }, lineCount: 4, lenient: false },
  );
  assert.equal(
    parseDeferringYaml(() => readFrontMatter(['# No front matter'])),
    null,
  );
  assert.equal(
    parseDeferringYaml(() => readFrontMatter(LISTED)),
    YAML_NEEDED,
  );
  // Other errors go through, and the deferral ends with the parse.
  assert.throws(
    () =>
      parseDeferringYaml(() => {
        throw new Error('boom');
      }),
    /boom/,
  );
  await loadYaml();
  assert.deepEqual(
    parseDeferringYaml(() => readFrontMatter(LISTED)),
    { data: { globs: ['src/b/**/*.ts'] }, lineCount: 4, lenient: false },
  );
});
