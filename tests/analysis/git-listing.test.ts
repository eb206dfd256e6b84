import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listGitFiles } from '../../server/src/analysis/discovery/git-listing.js';
import { discoverInstructionFiles } from '../../server/src/analysis/discovery/discover.js';
import { callDirect } from '../../server/src/cli/direct.js';
import { sandbox, tempDir } from '../helpers/sandbox.js';

/** analyze in the CLI starts git's listing before its code loads (cli.ts); the call hands it to the scan of that folder alone, as a parameter. */

test('a listing started early is what the scan reads; without one the scan asks git', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# A\n', 'CLAUDE.md': '# C\n' });
  const names = async (listed?: Promise<string[] | null>) => (await discoverInstructionFiles(repo, listed)).map((f) => f.rel).sort();
  assert.deepEqual(await names(), ['AGENTS.md', 'CLAUDE.md']);
  assert.deepEqual(await names(Promise.resolve(['CLAUDE.md'])), ['CLAUDE.md'], 'the listing given is read');
  assert.deepEqual(await names(Promise.resolve(null)), ['AGENTS.md', 'CLAUDE.md'], 'no listing (outside git): the folder is walked');
});

test("an early listing of another folder is never used by a call; its own folder's is", async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '- Use pnpm.\n' });
  const other = sandbox(t, { 'CLAUDE.md': '- Use npm.\n' });
  const analyzed = async (early: { root: string; files: Promise<string[] | null> }) => {
    const r = await callDirect({ explicit: repo, cwd: repo, root: repo }, 'onboarding_analyze', {}, early);
    return (r.structuredContent as { sources: { path: string }[] }).sources.map((x) => x.path);
  };
  assert.deepEqual(await analyzed({ root: other, files: Promise.resolve(['CLAUDE.md']) }), ['AGENTS.md']);
  assert.deepEqual(await analyzed({ root: repo, files: Promise.resolve([]) }), [], "its own folder's listing is taken");
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
