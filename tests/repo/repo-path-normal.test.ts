import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { normalizeRepoPath } from '../../server/src/repo/repo-path.js';

const WINDOWS = process.platform === 'win32';

/**
 * The long way, as it was before paths already normal were returned as they are. A backslash and a
 * drive are a separator and an absolute path on Windows only: elsewhere they are characters of a name.
 */
function reference(rel: string): string {
  if (rel.includes('\0')) throw new Error('nul');
  const slashed = WINDOWS ? rel.replace(/\\/g, '/') : rel;
  if (slashed.startsWith('/') || (WINDOWS && /^[a-zA-Z]:/.test(slashed))) throw new Error('absolute');
  const parts = slashed.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) throw new Error('empty');
  if (parts.some((p) => p === '..')) throw new Error('climbs');
  return parts.join('/');
}

const outcome = (f: () => string): string => {
  try {
    return `ok:${f()}`;
  } catch {
    return 'refused';
  }
};

test('normalizeRepoPath gives what the long way gives, for paths normal or not', () => {
  const piece = fc.constantFrom('a', 'b.md', '.', '..', '...', '.a', 'a.', '/', '\\', '\0', 'C:', 'c', ':', ' ');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const rel = pieces.join('');
      assert.equal(
        outcome(() => normalizeRepoPath(rel)),
        outcome(() => reference(rel)),
        JSON.stringify(rel),
      );
    }),
    { numRuns: 20000 },
  );
  assert.equal(normalizeRepoPath('.cursor/rules/a.mdc'), '.cursor/rules/a.mdc');
  assert.equal(normalizeRepoPath('./a//b/'), 'a/b');
  if (!WINDOWS) assert.equal(normalizeRepoPath('.github/instructions/bs\\..\\..\\x.md'), '.github/instructions/bs\\..\\..\\x.md');
});
