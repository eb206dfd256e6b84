import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gitListing, useEarlyListing } from '../../server/src/analysis/git-listing.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';

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
