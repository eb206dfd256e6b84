import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ignoredByGit } from '../../server/src/repo/git-state.js';
import { sandbox, tempDir, writeFile } from '../helpers/sandbox.js';

const IGNORE = '*.local.md\n!keep.local.md\n';

test('ignoredByGit answers names with newlines, quotes, backslashes and a leading ":" like any other', async (t) => {
  const repo = sandbox(t, { '.gitignore': IGNORE });
  const asked = [
    'a\nb.local.md',
    'q"uote\\d.local.md',
    'line\u2028sep.local.md',
    ':(exclude)magic.local.md',
    ':!other.local.md',
    'keep.local.md',
    'plain.md',
    'sub\ndir/x.md',
    '*.md',
  ];
  for (const p of asked) writeFile(repo, p, '- x\n');
  const ignored = await ignoredByGit(repo, asked);
  assert.deepEqual(
    [...ignored].sort(),
    ['a\nb.local.md', 'q"uote\\d.local.md', 'line\u2028sep.local.md', ':(exclude)magic.local.md', ':!other.local.md'].sort(),
  );
});

test('ignoredByGit: a path beyond a symbolic link or inside a submodule does not hide the answers for the paths after it', async (t) => {
  const repo = sandbox(t, { '.gitignore': IGNORE, 'real/y.local.md': '- y\n' });
  fs.symlinkSync('real', path.join(repo, 'lnk'));
  const sub = tempDir(t, 'co-sub-');
  execFileSync('git', ['init', '-q', sub]);
  writeFile(sub, 'a.md', '- a\n');
  execFileSync('git', ['-C', sub, 'add', '-A']);
  execFileSync('git', ['-C', sub, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a']);
  execFileSync('git', ['-C', repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'sm'], { stdio: 'ignore' });
  writeFile(repo, 'sm/b.local.md', '- b\n');
  const asked = [
    'first.local.md',
    'lnk/y.local.md',
    'second.local.md',
    'lnk/z.local.md',
    'sm/a.md',
    'sm/b.local.md',
    'third.local.md',
    'plain.md',
  ];
  const ignored = await ignoredByGit(repo, asked);
  assert.deepEqual([...ignored].sort(), ['first.local.md', 'second.local.md', 'third.local.md']);
});

test('ignoredByGit outside git, or with nothing to ask, says nothing is ignored', async (t) => {
  const dir = tempDir(t);
  writeFile(dir, '.gitignore', IGNORE);
  assert.deepEqual([...(await ignoredByGit(dir, ['x.local.md']))], []);
  const repo = sandbox(t, { '.gitignore': IGNORE });
  assert.deepEqual([...(await ignoredByGit(repo, []))], []);
});
