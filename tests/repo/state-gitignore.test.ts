import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { GITIGNORE, cli, repoWithRules, json, fullFlow } from '../helpers/hostile-repo.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command. This file: .copilot-state/.gitignore.
 */

test('the first run that creates .copilot-state writes its .gitignore and says so once', (t) => {
  const repo = repoWithRules(t);
  const first = cli(['analyze', '--repo', repo]);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), GITIGNORE);
  assert.equal(first.stdout.match(/\.copilot-state\/\.gitignore/g)?.length, 1, first.stdout);
  const second = cli(['analyze', '--repo', repo]);
  assert.doesNotMatch(second.stdout + second.stderr, /\.gitignore/);
});

test('over MCP, the result text of the run that created .copilot-state says so, and the next does not', async (t) => {
  const repo = repoWithRules(t);
  const s = await openSession(t, { repo });
  const first = await s.call('onboarding_analyze');
  assert.match(textOf(first), /\.copilot-state\/\.gitignore/);
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), GITIGNORE);
  const second = await s.call('onboarding_status');
  assert.doesNotMatch(textOf(second), /\.gitignore/);
});

test('an existing .copilot-state/.gitignore is left as it is, and an existing .copilot-state gets none', async (t) => {
  const repo = repoWithRules(t);
  fs.mkdirSync(path.join(repo, '.copilot-state'));
  fs.writeFileSync(path.join(repo, '.copilot-state/.gitignore'), '# ours\nbackups/\n');
  const r = cli(['propose', '--repo', repo]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), '# ours\nbackups/\n');
  assert.doesNotMatch(r.stdout, /\.gitignore/);
  const other = repoWithRules(t);
  fs.mkdirSync(path.join(other, '.copilot-state'));
  assert.equal(cli(['propose', '--repo', other]).status, 0);
  assert.equal(fs.existsSync(path.join(other, '.copilot-state/.gitignore')), false);
});

test('after a whole flow, git status offers only the traces and decisions.json under .copilot-state/, and .copilot-state is never a source', async (t) => {
  const repo = repoWithRules(t);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
  git('add', '-A');
  git('commit', '-qm', 'init');
  await fullFlow(repo);
  // decisions.json is meant to be committed: check in CI reads it (issue 41).
  const allowed = /^\?\? \.copilot-state\/(\.gitignore|trace-chain\.json|decisions\.json|(elicitation|sampling)-traces\/[^/]+\.json)$/;
  const check = () => {
    const lines = git('status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter((l) => l.includes('.copilot-state'));
    assert.ok(
      lines.some((l) => /elicitation-traces/.test(l)),
      lines.join('\n'),
    );
    for (const l of lines) assert.match(l, allowed);
  };
  check();
  const s = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  await s.close();
  check();
  // An instruction file inside .copilot-state (a backup copy, or a note) is never read as a source.
  fs.mkdirSync(path.join(repo, '.copilot-state/notes'));
  fs.writeFileSync(path.join(repo, '.copilot-state/notes/CLAUDE.md'), '- Not a rule of this repository.\n');
  const a = cli(['analyze', '--json', '--repo', repo]);
  const sources = (json(a) as unknown as { sources: { path: string }[] }).sources.map((x) => x.path);
  assert.ok(sources.length > 0);
  assert.ok(!sources.some((p) => p.startsWith('.copilot-state/')), sources.join(', '));
});
