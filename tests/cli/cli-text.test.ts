import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { diffParts, withoutDiffs } from '../../server/src/show/diff-text.js';
import { cliCommand } from '../../server/src/call/for-person.js';
import { commandName, forModel, stepName } from '../../server/src/call/words.js';

const a = createTwoFilesPatch('a/x.md', 'b/x.md', '- one\n- two\n', '## Build\n\n- one\n- two\n').trimEnd();
const b = createTwoFilesPatch('/dev/null', 'b/y.md', '', '--- front\n+++ matter\n- rule\n').trimEnd();
const message = `Plan 123:\n- Change x.md (+2 -0 lines)\n- Create y.md\n\n${a}\n${b}\n\nGit: branch main.`;

test('diffParts finds each diff by its hunk counts, even with lines that look like headers inside', () => {
  const parts = diffParts(message);
  assert.deepEqual(
    parts.map((p) => p.diff),
    [false, true, false],
  );
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

test("the tool's own sentences name tools for a model and commands for a person at the CLI; nothing else is rewritten", () => {
  const cli = { cliCommand: 'node /x/cli.js' };
  assert.equal(stepName(undefined, 'migrate'), 'onboarding_migrate');
  assert.equal(stepName(cli, 'migrate'), 'node /x/cli.js migrate');
  assert.equal(commandName(undefined, 'approve'), 'copilot-onboard approve');
  assert.equal(commandName(cli, 'approve'), 'node /x/cli.js approve');
  assert.equal(forModel(undefined, ' Do not ask again unless the person asks for it.'), ' Do not ask again unless the person asks for it.');
  assert.equal(forModel(cli, ' Do not ask again unless the person asks for it.'), '');
});

test('cliCommand is the command as the person can type it again', () => {
  assert.equal(cliCommand(['node', '/usr/local/bin/copilot-onboard'], {}), 'copilot-onboard');
  // Run by npx: never a bare npx that would fetch a package of that name from the registry.
  assert.equal(
    cliCommand(
      ['node', '/p/node_modules/.bin/copilot-onboard'],
      { npm_command: 'exec' },
      '/p/node_modules/copilot-onboard/server/dist/cli.js',
    ),
    'npx --no-install copilot-onboard',
  );
  assert.equal(
    cliCommand(['node', '/p/node_modules/.bin/copilot-onboard'], { npm_command: 'exec' }, '/src/copilot-onboard/server/dist/cli.js'),
    'node /src/copilot-onboard/server/dist/cli.js',
  );
  assert.equal(
    cliCommand(['node', '/home/me/copilot onboard/server/dist/cli.js'], {}),
    "node '/home/me/copilot onboard/server/dist/cli.js'",
  );
});
