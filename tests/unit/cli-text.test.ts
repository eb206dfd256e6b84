import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { diffParts, withoutDiffs } from '../../server/src/cli/diff-text.js';
import { cliCommand, forPerson } from '../../server/src/cli/for-person.js';

const a = createTwoFilesPatch('a/x.md', 'b/x.md', '- one\n- two\n', '## Build\n\n- one\n- two\n').trimEnd();
const b = createTwoFilesPatch('/dev/null', 'b/y.md', '', '--- front\n+++ matter\n- rule\n').trimEnd();
const message = `Plan 123:\n- Change x.md (+2 -0 lines)\n- Create y.md\n\n${a}\n${b}\n\nGit: branch main.`;

test('diffParts finds each diff by its hunk counts, even with lines that look like headers inside', () => {
  const parts = diffParts(message);
  assert.deepEqual(parts.map((p) => p.diff), [false, true, false]);
  assert.equal(parts[1]!.text, `${a}\n${b}`);
  assert.match(parts[2]!.text, /Git: branch main\.$/);
});

test('withoutDiffs keeps the prose and puts one line where the diffs were', () => {
  const out = withoutDiffs(message, '(diff above)');
  assert.equal(out, 'Plan 123:\n- Change x.md (+2 -0 lines)\n- Create y.md\n\n(diff above)\n\nGit: branch main.');
});

test('withoutDiffs handles a diff cut short with its note', () => {
  const cut = `Intro\n\n${a.slice(0, a.length - 8)}\n… (diff cut at 6000 characters; the whole plan is in .copilot-state/plan.json)\n\nGit: x`;
  assert.equal(withoutDiffs(cut, '(diff above)'), 'Intro\n\n(diff above)\n\nGit: x');
});

test('forPerson turns tool names into commands and leaves out what is meant for a model', () => {
  const text = 'The person declined. Nothing was changed. Do not ask again unless the person asks for it.\nNext: onboarding_migrate applies it. Undo with onboarding_rollback.';
  assert.equal(
    forPerson(text, 'copilot-onboard'),
    'The person declined. Nothing was changed.\nNext: copilot-onboard migrate applies it. Undo with copilot-onboard rollback.',
  );
  assert.equal(forPerson('or the terminal: copilot-onboard approve.', 'node /x/cli.js'), 'or the terminal: node /x/cli.js approve.');
  assert.equal(forPerson('npx copilot-onboard serve and my-onboarding_status', 'node /x/cli.js'), 'npx copilot-onboard serve and my-onboarding_status');
});

test('cliCommand is the command as the person can type it again', () => {
  assert.equal(cliCommand(['node', '/usr/local/bin/copilot-onboard'], {}), 'copilot-onboard');
  assert.equal(cliCommand(['node', '/p/node_modules/.bin/copilot-onboard'], { npm_command: 'exec' }), 'npx copilot-onboard');
  assert.equal(cliCommand(['node', '/home/me/copilot onboard/server/dist/cli.js'], {}), "node '/home/me/copilot onboard/server/dist/cli.js'");
});
