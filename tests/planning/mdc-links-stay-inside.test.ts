import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { copilotRewrite } from '../../server/src/planning/assistant-lines.js';

/**
 * Issue 37: the `mdc:` rewrite never offers a link that leaves the repository, and its result does
 * not depend on the server's working folder (path.posix.relative resolves relative paths against it).
 */

const TARGET = '.github/copilot-instructions.md';

/** The rewrite, worked out from several working folders: each must give the same answer. */
function fromEveryFolder(text: string, target = TARGET): string | null {
  const start = process.cwd();
  const answers = new Set<string | null>();
  try {
    for (const dir of ['/', os.tmpdir(), start]) {
      process.chdir(dir);
      answers.add(copilotRewrite(text, target));
    }
  } finally {
    process.chdir(start);
  }
  assert.equal(answers.size, 1, `${JSON.stringify(text)} gives ${JSON.stringify([...answers])}`);
  return [...answers][0]!;
}

test('an mdc: link inside the repository becomes a relative link from the target, whatever the working folder', () => {
  assert.equal(fromEveryFolder('See [the API](mdc:src/api/index.ts).'), 'See [the API](../src/api/index.ts).');
  assert.equal(fromEveryFolder('See mdc:docs/guide.md first.'), 'See ../docs/guide.md first.');
  assert.equal(fromEveryFolder('See [x](mdc:/src/a.ts).', '.github/instructions/api.instructions.md'), 'See [x](../../src/a.ts).');
  assert.equal(fromEveryFolder('See [x](mdc:docs/../src/a.ts).'), 'See [x](../src/a.ts).');
});

test('an mdc: link that would leave the repository is not rewritten: the line is left as it was', () => {
  for (const text of [
    'See [x](mdc:../../../../x).',
    'See [x](mdc:../secrets.md).',
    'See [x](mdc:docs/../../x).',
    'See mdc:../../../../etc/passwd now.',
    'See [x](mdc:/../x).',
  ])
    assert.equal(fromEveryFolder(text), null, text);
  // One link inside and one leaving: the inside one is rewritten, the other stays as written.
  assert.equal(fromEveryFolder('See [a](mdc:src/a.ts) and [b](mdc:../../b).'), 'See [a](../src/a.ts) and [b](mdc:../../b).');
});
