import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Every git process copilot-onboard starts goes through server/src/repo/git-run.ts, which turns off
 * every program the folder's git configuration names (docs/security.md, "A folder's git
 * configuration runs nothing"). This scan fails when any other source file imports simple-git or
 * starts a process (child_process), but the demo, which runs git on the sandbox it made itself.
 */

const SRC = path.resolve(import.meta.dirname, '../../server/src');
/** Files allowed to start processes, each with why. */
const ALLOWED: Record<string, string> = {
  'repo/git-run.ts': 'the one git helper',
  // The demo makes a fresh repository of its own in a temp folder and commits to it: no folder it did not write.
  'cli/demo.ts': 'git in its own sandbox',
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

test('no source file under server/src but repo/git-run.ts starts git: no simple-git import, no child_process', () => {
  const found: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    if (rel in ALLOWED) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (/from ['"]simple-git['"]|import\(['"]simple-git['"]\)/.test(text) && !/import type [^;]*from ['"]simple-git['"]/.test(text))
      found.push(`${rel}: imports simple-git`);
    if (/child_process/.test(text)) found.push(`${rel}: uses child_process`);
  }
  assert.deepEqual(found, []);
});
