import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { cli, repoWithRules } from '../helpers/hostile-repo.js';
import { STATE } from '../../server/src/repo/state-paths.js';

/**
 * A team that commits its traces on purpose (docs/state.md) keeps a clean tree through every
 * read-only command (issue 41): analyze, propose, status and check leave `git status` empty, and the
 * gated steps leave only files meant to be committed.
 */

const narrator = () => ({
  model: 'test-model',
  role: 'assistant' as const,
  content: { type: 'text' as const, text: 'The model says hello.' },
});

function gitIn(repo: string) {
  return (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
}

/** What git would offer or show as changed, every untracked file named. */
const porcelain = (git: ReturnType<typeof gitIn>) => git('status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean);

test('with traces committed, analyze, propose, status and check (CLI and MCP, with narration) leave git status empty', async (t) => {
  const repo = repoWithRules(t);
  const git = gitIn(repo);
  // The team's first run, committed whole: traces, chain head and .gitignore.
  assert.equal(cli(['analyze', '--repo', repo]).status, 0);
  assert.equal(cli(['propose', '--repo', repo]).status, 0);
  git('add', '-A');
  git('commit', '-qm', 'onboarding traces');
  assert.deepEqual(porcelain(git), []);
  for (const command of ['analyze', 'propose', 'status', 'check']) {
    const r = cli([command, '--repo', repo]);
    assert.ok(r.status === 0 || command === 'check', `${command}: ${r.stderr}`);
    assert.deepEqual(porcelain(git), [], `after ${command}`);
  }
  const s = await openSession(t, { repo, sample: narrator });
  for (const tool of ['onboarding_analyze', 'onboarding_propose', 'onboarding_status', 'onboarding_check']) {
    await s.call(tool);
    assert.deepEqual(porcelain(git), [], `after ${tool}`);
  }
  await s.close();
  // The narration is still on record, on this machine, and in the reviewer's report.
  const report = cli(['traces', 'report', '--format', 'json', '--repo', repo]);
  assert.equal(report.status, 0, report.stderr);
  const narration = (JSON.parse(report.stdout) as { narration: unknown[] }).narration;
  assert.ok(JSON.stringify(narration).includes('The model says hello.'), String(report.stdout).slice(0, 2000));
  const verify = cli(['traces', 'verify', '--json', '--repo', repo]);
  assert.equal(verify.status, 0, String(verify.stdout));
});

test('the gated steps leave only files meant to be committed, and a read-only command after them nothing', async (t) => {
  const repo = repoWithRules(t);
  const git = gitIn(repo);
  git('add', '-A');
  git('commit', '-qm', 'init');
  const s = await openSession(t, { repo, elicit: yesToAll, sample: narrator });
  await s.call('onboarding_analyze');
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  const meant = /^\?\? \.copilot-state\/(\.gitignore|trace-chain\.json|decisions\.json|elicitation-traces\/[^/]+\.json)$/;
  const stateLines = () => porcelain(git).filter((l) => l.includes('.copilot-state'));
  assert.ok(
    stateLines().some((l) => l.includes('elicitation-traces/')),
    stateLines().join('\n'),
  );
  for (const l of stateLines()) assert.match(l, meant);
  git('add', '-A');
  git('commit', '-qm', 'migrated, with its traces');
  await s.call('onboarding_analyze');
  await s.call('onboarding_propose');
  await s.call('onboarding_status');
  assert.deepEqual(porcelain(git), []);
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  for (const l of stateLines()) assert.match(l.replace(/^ M /, '?? '), meant);
  const verify = cli(['traces', 'verify', '--json', '--repo', repo]);
  assert.equal(verify.status, 0, String(verify.stdout));
});

test('every file copilot-onboard may leave under .copilot-state is either ignored by git or meant to be committed', (t) => {
  const repo = repoWithRules(t);
  assert.equal(cli(['analyze', '--repo', repo]).status, 0);
  const git = gitIn(repo);
  const committed = new Set<string>([
    STATE.chain,
    STATE.gitignore,
    `${STATE.dir}/decisions.json`,
    `${STATE.elicitationTraces}/x-approve.json`,
  ]);
  // Every state path the tool names (a new one must be placed here, on one side or the other) and the names its patterns make.
  const named = Object.entries(STATE).filter(([key]) => key !== 'dir' && key !== 'elicitationTraces' && key !== 'samplingTraces');
  const files = [
    ...named.map(([, rel]) => (rel === STATE.backups || rel === STATE.usedRequestStates ? `${rel}/x/manifest.json` : rel)),
    `${STATE.samplingTraces}/2026-11-28T20-00-00-000Z-analyze.json`,
    `${STATE.samplingTraces}/2026-11-28T20-00-00-000Z-propose.json`,
    `${STATE.elicitationTraces}/x-approve.json`,
    `${STATE.dir}/decisions.json`,
    `${STATE.dir}/operation.lock`,
    `${STATE.dir}/operation.lock-owner.json`,
    `${STATE.dir}/traces.lock`,
    `${STATE.dir}/traces.lock-owner.json`,
    `${STATE.dir}/onboarding.json.damaged`,
    `${STATE.dir}/onboarding.json.not-written-here-2026-11-28T20-00-00-000Z`,
    `${STATE.dir}/journal.json.not-written-here-2026-11-28T20-00-00-000Z`,
    `${STATE.dir}/.copilot-tmp-1-abc`,
    `${STATE.samplingTraces}/.copilot-tmp-1-abc`,
    `${STATE.dir}/clone-key`,
  ];
  for (const rel of files) {
    const abs = path.join(repo, rel);
    if (!fs.existsSync(abs)) {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, '{}\n');
    }
  }
  for (const rel of new Set(files)) {
    let ignored = true;
    try {
      git('check-ignore', '-q', '--no-index', rel);
    } catch {
      ignored = false;
    }
    assert.equal(ignored, !committed.has(rel), `${rel} should be ${committed.has(rel) ? 'committed' : 'ignored'}`);
  }
});
