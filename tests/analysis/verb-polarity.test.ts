import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findContradictions } from '../../server/src/analysis/analyze.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import { actionClaims } from '../../server/src/analysis/contradictions/claim-reader.js';

/**
 * Issue 39, the reported tier's precision: what a verb's clause says of it. A bracket opened before a
 * verb starts an instruction of its own, a spaced hyphen ends a clause as a dash does, and a verb after
 * a verb that set nothing is no order. Every name here is made up.
 */

const read = (line: string) => actionClaims(line).map((c) => [c.polarity, c.action, c.object]);
const contradictions = (files: Record<string, string>) =>
  findContradictions(Object.entries(files).flatMap(([p, text]) => splitUnits(p, text.split('\n'))));

test('a "no" before a bracket is not said of the verb inside it; a bracket closed before the verb keeps what it says', () => {
  assert.deepEqual(read('1. `tidy` — Passes with no offenses (use `tidy -A` to auto-fix)'), [['must', 'use', 'tidy -A']]);
  assert.deepEqual(read('3. NO CSS files (use Quokka)'), [['must', 'use', 'quokka']]);
  assert.deepEqual(read('- No warnings allowed (run `lintr --fix` first)'), [['must', 'use', 'lintr --fix']]);
  assert.deepEqual(read('- Do not (ever) use `npm`'), [['never', 'use', 'npm']]);
  assert.deepEqual(read('- Never commit secrets (use `.env` files instead)'), [['never', 'commit', 'secret']]);
});

test('a spaced hyphen ends a clause as a dash does: the instruction after it is read on its own', () => {
  assert.deepEqual(read('- No console statements (`no-console: "error"`) - use proper logging'), [['must', 'use', 'proper logging']]);
  assert.deepEqual(read('- No console statements \u2014 use proper logging'), [['must', 'use', 'proper logging']]);
});

test('a verb after a verb that set nothing is no order: a description names no rule', () => {
  assert.deepEqual(read('- No Docker required (uses mock sockets)'), []);
  assert.deepEqual(read('- The suite uses fixtures and mocks the network'), []);
  assert.deepEqual(read('- Then mock the network'), [['must', 'mock', 'network']], 'an order after a lead word stays one');
});

test('two files giving one command the same way are no conflict; saying never and always of it still is', () => {
  const fix = '**Important**: Always use `tidy -A` to fix style issues when they can be auto-corrected.';
  const checklist = '1. `tidy` \u2014 Passes with no offenses (use `tidy -A` to auto-fix)';
  assert.deepEqual(contradictions({ 'AGENTS.md': `# A\n\n${fix}\n`, 'CLAUDE.md': `# C\n\n${checklist}\n` }), []);
  assert.deepEqual(
    contradictions({ 'AGENTS.md': `# A\n\n- Use Quokka for styling\n`, 'CLAUDE.md': `# C\n\n3. NO CSS files (use Quokka)\n` }),
    [],
  );
  const found = contradictions({
    'AGENTS.md': `# A\n\n${fix}\n`,
    'CLAUDE.md': `# C\n\n- Never use \`tidy -A\`: review each fix by hand.\n`,
  });
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.deepEqual(
    found[0]!.locations.map((l) => l.path),
    ['AGENTS.md', 'CLAUDE.md'],
  );
});

test('an item of a "don\'t" list is a rule against what it says to do, not against what its bracket says to do instead', () => {
  // Held-out set m, read once it became build data: "**Do NOT:**" over "- Hardcode new version numbers (use `'unreleased'`)"
  // was read as never using `'unreleased'`, against "MUST use `'unreleased'`" in the same file.
  const dont = "# A\n\n**Do NOT:**\n- Pin new versions by hand (use `'next'`)\n- Use `zork` in tests\n";
  assert.deepEqual(contradictions({ 'AGENTS.md': `${dont}\n- MUST use \`'next'\` for every new version tag.\n` }), []);
  const found = contradictions({ 'AGENTS.md': dont, 'CLAUDE.md': '# C\n\n- Always use `zork` in tests.\n' });
  assert.equal(found.length, 1, 'the item itself is still turned: never `zork` against always `zork`');
});

test('a line that goes on with the sentence the line before began gives no order of its own', () => {
  // Set p (build data since set q was judged): "Never push directly to `upstream` (and never" wrapped before
  // "push directly to `main` on either remote).", read alone as an order to push to `main`.
  const wrapped =
    'Always push branches to `origin`. Never push directly to `upstream` (and never\npush directly to `main` on either remote).\n';
  assert.deepEqual(contradictions({ 'AGENTS.md': `# A\n\n${wrapped}\n## PRs\n\nNever push directly to \`main\`.\n` }), []);
  // A new sentence on the next line, or a line after a full stop, still gives one.
  const found = contradictions({
    'AGENTS.md': '# A\n\nKeep the history clean.\nPush directly to `main`.\n\n## PRs\n\nNever push directly to `main`.\n',
  });
  assert.equal(found.length, 1, JSON.stringify(found));
});
