import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, choosing, openSession, outcomeOf, textOf } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Issue 41, people's words everywhere: after a person chose a side of a conflict and a fate for a
 * legacy file, no field id (`conflict_1: keep_1`, `legacy_1`) is in round two's message, approve's
 * result, or the traces report; the report holds no absolute path of this machine; and status's
 * structured planHash names the plan that will run (the one the choices built).
 */
const FILES = {
  '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
  'AGENTS.md': '- Use npm to install dependencies.\n- Write a test for every bug fix.\n',
};

test('choices are named in words in round two, in the approval and in the traces report; status names the chosen plan', async (t) => {
  const repo = sandbox(t, FILES);
  const pick = (props: Record<string, any>) => {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(props)) {
      const values = (p.oneOf ?? []).map((o: any) => o.const);
      if (values.includes('keep_1')) out[k] = 'keep_1';
      else if (values.includes('pointer')) out[k] = 'pointer';
    }
    return out;
  };
  const s = await openSession(t, { repo, elicit: choosing(pick) });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  const roundTwo = s.elicitations.at(-1)!.message;
  const ids = /\b(?:conflict|legacy|scope|assistant)_(?:\d+|all)\b|keep_\d|keep_all/;
  assert.match(roundTwo, /Your choices/);
  assert.doesNotMatch(roundTwo, ids);
  assert.doesNotMatch(textOf(approved), ids);
  assert.match(textOf(approved), /the conflict about .*: keep the rule at/);

  const status = (await s.call('onboarding_status')).structuredContent as { planHash: string; approvedHash: string; basePlanHash: string };
  assert.equal(status.planHash, status.approvedHash, 'the plan that will run');
  assert.notEqual(status.basePlanHash, status.planHash);

  const report = spawnSync(process.execPath, [CLI, 'traces', 'report', '--repo', repo], { encoding: 'utf8' }).stdout;
  assert.match(report, /answered/);
  assert.doesNotMatch(report, ids);
  assert.ok(!report.includes(repo), 'no absolute path of the repository');
  assert.doesNotMatch(report, /(?:^|[\s`(])\/(?:tmp|home|work|Users|var)\//m, 'no absolute path of this machine');
});

test('a step refused at the CLI names the command in its trace without this machine’s paths, and so does the traces report', (t) => {
  const repo = sandbox(t, FILES);
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args, '--repo', repo], { encoding: 'utf8', input: '' });
  assert.equal(run('propose').status, 0);
  const refused = run('approve');
  assert.equal(refused.status, 3, refused.stderr);
  assert.ok((refused.stdout + refused.stderr).includes(CLI), 'the person at the terminal is told the command they can run');
  const report = run('traces', 'report').stdout;
  assert.match(report, /Run it in a terminal: copilot-onboard approve/);
  assert.ok(!report.includes(CLI) && !report.includes(repo), report);
});
