import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'node:test';

/** `../shared/corpus`: real repositories' instruction files, read by the corpus tests and the quality script. */
export const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus');

/** CI sets COPILOT_ONBOARD_REQUIRE_CORPUS=1: a test that would skip for want of the corpus (or of tmux) fails instead. */
export const REQUIRED_BY_CI = process.env.COPILOT_ONBOARD_REQUIRE_CORPUS === '1';

/**
 * Every corpus test starts with `if (!requireCorpus(t)) return;`: true when `needed` (the corpus,
 * or a repository of it) is here; otherwise the test skips, saying what is absent, or fails when CI
 * requires the corpus.
 */
export function requireCorpus(t: Pick<TestContext, 'skip'>, needed: string = CORPUS): boolean {
  if (fs.existsSync(needed)) return true;
  if (REQUIRED_BY_CI) assert.fail(`the corpus is required here (COPILOT_ONBOARD_REQUIRE_CORPUS=1) but ${needed} is absent`);
  t.skip(`corpus absent at ${needed}: skipped`);
  return false;
}

/** Its repositories' folder names, sorted; none when the corpus is absent. */
export function corpusRepos(): string[] {
  if (!fs.existsSync(CORPUS)) return [];
  return fs
    .readdirSync(CORPUS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
