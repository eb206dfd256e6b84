import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { skipWithoutTmux, startTmux } from '../helpers/tmux.js';
import { hashTree, readState, readTraces, removeRepo, sandbox, type Cleanup } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';
/**
 * A plan with work and no choice (one round): AGENTS.md's rules go into the person's Copilot file, and
 * AGENTS.md stays, CLAUDE.md importing it. A flat Copilot file alone is left as it is (issue 40).
 */
const NO_CHOICE = {
  [FILE]: '# Rules\n\n- Use pnpm for all package management.\n',
  'AGENTS.md': '- Write tests with vitest.\n- Document exported functions.\n',
  'CLAUDE.md': '@./AGENTS.md\n',
};
const skip = skipWithoutTmux;
const node = JSON.stringify(process.execPath);

function proposed(t: Cleanup): string {
  const repo = sandbox(t, NO_CHOICE);
  const r = spawnSync(process.execPath, [CLI, 'propose', '--repo', repo], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 0, r.stderr);
  return repo;
}

test('approve in a terminal: y approves, and the trace names the CLI', { skip }, async (t) => {
  const repo = proposed(t);
  const tm = startTmux(t, 'co-approve-yes', `${node} ${CLI} approve --repo ${repo}`, repo);
  await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'y', 'Enter');
  assert.equal(await tm.exitCode(), 0);
  assert.match(tm.screen(), /is approved/);
  // The comment is for requested changes: it is asked only after a no.
  assert.doesNotMatch(tm.screen(), /Comment \(optional\)/);
  const state = readState(repo)!;
  assert.equal(state.approval.comment, null);
  assert.equal(readTraces(repo, 'elicitation')[0]!.client.name, 'copilot-onboard-cli');
});

test('approve in a terminal: n and no comment declines with exit 3 and nothing changes', { skip }, async (t) => {
  const repo = proposed(t);
  const before = hashTree(repo);
  const tm = startTmux(t, 'co-approve-no', `${node} ${CLI} approve --repo ${repo}`, repo);
  await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'n', 'Enter');
  await tm.answer(/Comment \(optional\)/, 'Enter');
  assert.equal(await tm.exitCode(), 3);
  assert.equal(readTraces(repo, 'elicitation')[0]!.outcome, 'declined');
  assert.equal(readState(repo)!.approval, null);
  assert.deepEqual(hashTree(repo), before);
});

for (const [key, name] of [
  ['Escape', 'Esc'],
  ['C-c', 'Ctrl-C'],
] as const) {
  test(`approve in a terminal: ${name} cancels with exit 3`, { skip }, async (t) => {
    const repo = proposed(t);
    const tm = startTmux(t, `co-approve-${name}`, `${node} ${CLI} approve --repo ${repo}`, repo);
    await tm.answer(/Approve this migration plan.*\(y\/N\)/, key);
    assert.equal(await tm.exitCode(), 3);
    assert.equal(readTraces(repo, 'elicitation')[0]!.outcome, 'cancelled');
    assert.equal(readState(repo)!.approval, null);
  });
}

test('the demo runs to the end in a terminal; --keep keeps its sandbox', { skip }, async (t) => {
  const cwd = sandbox(t);
  const tm = startTmux(t, 'co-demo', `${node} ${CLI} demo --keep`, cwd);
  await tm.waitFor(/1\. analyze/);
  await tm.answer(/\? AGENTS\.md: its rules go to/, 'Enter');
  await tm.answer(/\? \.cursor\/rules\/api\.mdc: its rules go to/, 'Enter');
  await tm.answer(/\? Which rule stands\?/, 'Enter');
  await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'y', 'Enter');
  await tm.answer(/Apply the approved plan now.*\(y\/N\)/, 'y', 'Enter');
  await tm.answer(/I understand these files will change.*\(y\/N\)/, 'y', 'Enter');
  await tm.answer(/Restore the files from the backup.*\(y\/N\)/, 'y', 'Enter');
  await tm.answer(/Reason \(optional\)/, 'Enter');
  assert.equal(await tm.exitCode(), 0);
  const screen = tm.screen();
  assert.match(screen, /Migrated: update \.github\/copilot-instructions\.md/);
  assert.match(screen, /Rolled back migration/);
  assert.match(screen, /Demo finished\./);
  // The diff shows once, in step 2; the approve form points back to it.
  assert.equal(screen.split('+++ b/.github/copilot-instructions.md').length - 1, 1, 'the diff is shown once');
  assert.match(screen, /The whole diff of every change is shown above/);
  // Text for a person: commands, not tool names; nothing meant only for a model; a hint that runs as shown.
  assert.doesNotMatch(screen, /onboarding_/);
  assert.doesNotMatch(screen, /Do not ask again/);
  assert.match(screen, /Next: node \S+cli\.js migrate/);
  assert.ok(screen.includes(`node ${CLI} traces --repo`), 'the traces hint names this CLI');
  const kept = /a sandbox repository in (\S+)/.exec(screen)![1]!;
  t.after(() => removeRepo(kept));
  assert.ok(fs.existsSync(path.join(kept, '.copilot-state', 'elicitation-traces')));
  assert.ok(screen.includes(`The sandbox stays in ${kept} (--keep).`));
});
