import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { skipWithoutTmux, startTmux } from '../helpers/tmux.js';
import { hashTree, readState, readTraces, sandbox, type Cleanup } from '../helpers/sandbox.js';

/** The terminal form: a timeout closes it, "no" with a comment requests changes, choices come first. */

const skip = skipWithoutTmux;
const node = JSON.stringify(process.execPath);

/**
 * A plan with work and no choice: AGENTS.md's rule goes into the person's Copilot file, and AGENTS.md
 * stays (CLAUDE.md imports it, so keeping it is its only fate). A flat Copilot file alone is no longer
 * such a plan: it is the person's text, left as it is (issue 40).
 */
const FLAT = {
  '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
  'AGENTS.md': '- Write tests with vitest.\n',
  'CLAUDE.md': '@./AGENTS.md\n',
};
/** A legacy file to keep or remove, and one contradiction: the approve form has choices. */
const WITH_CHOICES = {
  '.github/copilot-instructions.md':
    '# Rules\n\n- Use pnpm for all package management.\n- Run the tests with vitest before every commit.\n',
  'AGENTS.md': '# Agents\n\n- Use npm to install new dependencies.\n- Keep pull requests small.\n',
};

function proposed(t: Cleanup, files: Record<string, string>): string {
  const repo = sandbox(t, files);
  const r = spawnSync(process.execPath, [CLI, 'propose', '--repo', repo], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 0, r.stderr);
  return repo;
}

test('a timeout closes the form at once: exit 3, the message on its own line', { skip }, async (t) => {
  const repo = proposed(t, FLAT);
  const before = hashTree(repo);
  const tm = startTmux(t, 'co-form-timeout', `COPILOT_ONBOARD_ELICITATION_TIMEOUT_MS=2000 ${node} ${CLI} approve --repo ${repo}`, repo);
  await tm.waitFor(/Approve this migration plan.*\(y\/N\)/);
  // Nobody answers: the server gives up after 2 s, and the prompt must go with it.
  const screen = await tm.waitFor(/EXIT=\d+/, 10_000);
  assert.match(screen, /EXIT=3/);
  assert.match(screen, /^No answer came within 2 seconds;/m, 'the timeout message starts its own line');
  assert.equal(readTraces(repo, 'elicitation')[0]!.outcome, 'timeout');
  assert.equal(readState(repo)!.approval, null);
  assert.deepEqual(hashTree(repo), before);
});

test('no with a comment requests changes: exit 3, the comment recorded for the next propose', { skip }, async (t) => {
  const repo = proposed(t, FLAT);
  const tm = startTmux(t, 'co-form-changes', `${node} ${CLI} approve --repo ${repo}`, repo);
  await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'n', 'Enter');
  await tm.answer(/Comment \(optional\)/, 'Keep pnpm only', 'Enter');
  assert.equal(await tm.exitCode(), 3);
  assert.match(tm.screen(), /recorded as requested changes/);
  const trace = readTraces(repo, 'elicitation')[0]!;
  assert.equal(trace.outcome, 'not_confirmed');
  assert.deepEqual(trace.response.content, { approved: false, comment: 'Keep pnpm only' });
  assert.equal(readState(repo)!.feedback.comment, 'Keep pnpm only');
  assert.equal(readState(repo)!.approval, null);
});

test('no without a comment declines', { skip }, async (t) => {
  const repo = proposed(t, FLAT);
  const tm = startTmux(t, 'co-form-decline', `${node} ${CLI} approve --repo ${repo}`, repo);
  await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'n', 'Enter');
  await tm.answer(/Comment \(optional\)/, 'Enter');
  assert.equal(await tm.exitCode(), 3);
  assert.equal(readTraces(repo, 'elicitation')[0]!.outcome, 'declined');
  assert.equal(readState(repo)!.feedback ?? null, null);
});

test('the approve form asks the choices that change the plan first, and the approval last', { skip }, async (t) => {
  const repo = proposed(t, WITH_CHOICES);
  const tm = startTmux(t, 'co-form-order', `${node} ${CLI} approve --repo ${repo}`, repo);
  const first = await tm.waitFor(/\? (AGENTS\.md: its rules go to|Which rule stands\?|Approve this migration plan)/);
  assert.doesNotMatch(first, /\? Approve this migration plan/, 'no approval before the choices');
  await tm.answer(/\? AGENTS\.md: its rules go to/, 'Enter');
  await tm.answer(/\? Which rule stands\?/, 'Enter');
  await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'y', 'Enter');
  assert.equal(await tm.exitCode(), 0);
  const screen = tm.screen();
  assert.doesNotMatch(screen, /Comment \(optional\)/, 'no comment is asked after yes');
  const traces = readTraces(repo, 'elicitation').sort((a, b) => a.seq - b.seq);
  assert.deepEqual(
    traces.map((x) => x.outcome),
    ['chosen', 'approved'],
    'two rounds, each traced',
  );
  // An answered prompt keeps its line, with a tick where the question mark was.
  const at = (question: string) => screen.search(new RegExp(`[?✔] ${question}`));
  assert.ok(at('AGENTS\\.md: its rules go to') >= 0);
  assert.ok(at('AGENTS\\.md: its rules go to') < at('Which rule stands'));
  assert.ok(at('Which rule stands') < at('Approve this migration plan'));
  assert.equal(readState(repo)!.step, 'approved');
});

test(
  "two rounds in the terminal: the rebuilt plan's diff shows before the yes/no; no, then back, asks the choices again",
  { skip },
  async (t) => {
    const repo = proposed(t, WITH_CHOICES);
    const tm = startTmux(t, 'co-form-rounds', `${node} ${CLI} approve --repo ${repo}`, repo);
    await tm.answer(/\? AGENTS\.md: its rules go to/, 'Down', 'Enter');
    await tm.answer(/\? Which rule stands\?/, 'Enter');
    const second = await tm.waitFor(/Approve this migration plan.*\(y\/N\)/);
    assert.match(second, /Remove AGENTS\.md/, 'round two shows the plan with the removal');
    assert.match(second, /\+\+\+ \/dev\/null|--- a\/AGENTS\.md/, "and the removal's diff");
    await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'n', 'Enter');
    await tm.answer(/Go back and change your choices/, 'y', 'Enter');
    await tm.answer(/\? AGENTS\.md: its rules go to/, 'Enter');
    await tm.answer(/\? Which rule stands\?/, 'Enter');
    await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'n', 'Enter');
    await tm.answer(/Go back and change your choices/, 'Enter');
    await tm.answer(/Comment \(optional\)/, 'Enter');
    assert.equal(await tm.exitCode(), 3);
    const traces = readTraces(repo, 'elicitation').sort((a, b) => a.seq - b.seq);
    assert.deepEqual(
      traces.map((x) => x.outcome),
      ['chosen', 'choose_again', 'chosen', 'declined'],
    );
    assert.equal(readState(repo)!.approval, null);
  },
);

test("going back in the terminal: round one comes back with the person's answers preselected", { skip }, async (t) => {
  const repo = proposed(t, WITH_CHOICES);
  const tm = startTmux(t, 'co-form-back-kept', `${node} ${CLI} approve --repo ${repo}`, repo);
  await tm.answer(/\? AGENTS\.md: its rules go to/, 'Down', 'Enter');
  await tm.answer(/\? Which rule stands\?/, 'Down', 'Down', 'Enter');
  await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'n', 'Enter');
  await tm.answer(/Go back and change your choices/, 'y', 'Enter');
  // Asked again, each with the answer given before under the cursor.
  await tm.answer(/\? AGENTS\.md: its rules go to[\s\S]*❯ Remove AGENTS\.md/, 'Enter');
  await tm.answer(/\? Which rule stands\?[\s\S]*❯ Keep only "- Use npm/, 'Enter');
  await tm.answer(/Approve this migration plan.*\(y\/N\)/, 'y', 'Enter');
  assert.equal(await tm.exitCode(), 0);
  const choices = readState(repo)!.approval.choices;
  assert.deepEqual(choices.legacy, { 'AGENTS.md': 'remove' });
  assert.deepEqual(Object.values(choices.conflicts), ['keep_2']);
});

test('after a refusing answer nothing more is asked: No to overwriting uncommitted changes ends migrate at once', { skip }, async (t) => {
  const repo = sandbox(t, FLAT);
  const git = (...args: string[]) =>
    spawnSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
  git('add', '-A');
  git('commit', '-qm', 'initial');
  fs.appendFileSync(path.join(repo, '.github/copilot-instructions.md'), '- Keep functions short.\n');
  assert.equal(spawnSync(process.execPath, [CLI, 'propose', '--repo', repo], { encoding: 'utf8', input: '' }).status, 0);
  const approve = startTmux(t, 'co-form-uncommitted-approve', `${node} ${CLI} approve --repo ${repo}`, repo);
  await approve.answer(/Approve this migration plan.*\(y\/N\)/, 'y', 'Enter');
  assert.equal(await approve.exitCode(), 0);
  const before = hashTree(repo);
  const tm = startTmux(t, 'co-form-uncommitted', `${node} ${CLI} migrate --repo ${repo}`, repo);
  await tm.answer(/Overwrite uncommitted changes.*\(y\/N\)/, 'n', 'Enter');
  assert.equal(await tm.exitCode(), 3);
  assert.doesNotMatch(tm.screen(), /Apply the approved plan now/, 'the confirmations are not asked after the refusing no');
  assert.equal(
    readTraces(repo, 'elicitation')
      .sort((a, b) => a.seq - b.seq)
      .at(-1)!.outcome,
    'declined',
  );
  assert.deepEqual(hashTree(repo), before);
});
