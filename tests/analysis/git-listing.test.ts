import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gitListing, listGitFiles, useEarlyListing } from '../../server/src/analysis/git-listing.js';
import { sandbox, tempDir, writeFile } from '../helpers/sandbox.js';

/** analyze in the CLI starts git's listing before its code loads (cli.ts); the scan takes it once, for that folder alone. */

test('a listing started early is taken once, by the scan of its own folder; any other scan asks git afresh', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# A\n' });
  const other = sandbox(t, { 'CLAUDE.md': '# C\n' });
  assert.deepEqual(await gitListing(repo), ['AGENTS.md']);
  useEarlyListing({ root: repo, files: Promise.resolve(['EARLY.md']) });
  assert.deepEqual(await gitListing(other), ['CLAUDE.md'], 'another folder took the early listing');
  assert.deepEqual(await gitListing(repo), ['EARLY.md'], 'the scan of its folder did not take it');
  writeFile(repo, 'GEMINI.md', '# G\n');
  assert.deepEqual((await gitListing(repo))?.sort(), ['AGENTS.md', 'GEMINI.md'], 'it was taken twice');
  assert.equal(await gitListing(`${repo}/no-such-folder`), null);
});

test("git's listing: tracked and untracked files it does not ignore, names as they are; null without git or outside a work tree", async (t) => {
  const repo = sandbox(t, {
    '.gitignore': 'ignored/\n',
    'ignored/AGENTS.md': '# I\n',
    'sub/AGENTS.md': '# S\n',
    'na\u00efve name.md': '# N\n',
  });
  assert.deepEqual((await listGitFiles(repo))?.sort(), ['.gitignore', 'na\u00efve name.md', 'sub/AGENTS.md']);
  const outside = tempDir(t, 'co-no-git-');
  assert.equal(await listGitFiles(outside), null, 'a folder outside any work tree');
  const path = process.env.PATH;
  process.env.PATH = outside; // no git there
  try {
    assert.equal(await listGitFiles(repo), null, 'without git');
  } finally {
    process.env.PATH = path;
  }
  assert.equal(await listGitFiles(`${repo}\0x`), null, 'a folder name git cannot be given');
});
