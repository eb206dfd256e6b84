// The rules the tests keep among themselves (docs/verification.md): a corpus test fails instead of
// skipping when CI requires the corpus, through one helper; so does a terminal test without tmux.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const TESTS = path.resolve(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'helpers' || name === 'fixtures' ? [] : testFiles(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const files = testFiles(TESTS).map((f) => ({ rel: path.relative(TESTS, f), text: readFileSync(f, 'utf8') }));

test('every test that reads the corpus goes through requireCorpus, and none reads the CI setting itself', () => {
  const readers = files.filter((f) => /\bCORPUS\b/.test(f.text) && f.rel !== path.join('architecture', 'test-rules.test.ts'));
  assert.ok(readers.length >= 5, `only ${readers.length} corpus tests found: the scan is broken`);
  assert.deepEqual(
    readers.filter((f) => !/requireCorpus\(/.test(f.text)).map((f) => f.rel),
    [],
  );
  assert.deepEqual(
    files.filter((f) => f.text.includes('COPILOT_ONBOARD_REQUIRE_' + 'CORPUS')).map((f) => f.rel),
    [],
  );
});

test('every terminal test takes its skip from skipWithoutTmux', () => {
  const terminal = files.filter((f) => /\b(startTmux|TmuxSession)\b/.test(f.text));
  assert.ok(terminal.length >= 3, `only ${terminal.length} terminal tests found: the scan is broken`);
  assert.deepEqual(
    terminal.filter((f) => !f.text.includes('skipWithoutTmux') || /\bhasTmux\b/.test(f.text)).map((f) => f.rel),
    [],
  );
});
