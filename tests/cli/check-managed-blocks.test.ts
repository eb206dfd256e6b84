import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Issue 39/40: two lines that disagree inside blocks a tool writes (`<!-- x-start -->` … `<!-- x-end -->`)
 * stay in their file after a migration, and nobody can settle them in this repository: `check` on the
 * migrated tree must not fail on them (it did on a corpus plan, whose person could change nothing).
 */
const block = (name: string, body: string) => `<!-- ${name}-start -->\n${body}<!-- ${name}-end -->\n`;
const AGENTS =
  '# Agents\n\n## Build\n\n- Run make before each commit.\n\n' +
  block('pkg-a', '## pkg-a usage\n\n- Always regenerate `schema.json` after a change.\n') +
  '\n' +
  block('pkg-b', '## pkg-b usage\n\n- Never touch `schema.json`.\n');

function check(repo: string) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  const r = spawnSync(process.execPath, [CLI, 'check', '--repo', repo, '--format', 'json'], { encoding: 'utf8', input: '', env });
  return { code: r.status, findings: (JSON.parse(r.stdout) as { findings: { rule: string; kind: string; certainty: string }[] }).findings };
}

test('check passes on a migrated tree whose only disagreement lies in blocks a tool writes, which the plan leaves in place', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': AGENTS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  // The blocks stayed, byte for byte, and the person's rule moved.
  assert.equal(fs.readFileSync(path.join(repo, 'AGENTS.md'), 'utf8'), AGENTS);
  assert.match(fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8'), /- Run make before each commit\./);
  const { code, findings } = check(repo);
  assert.deepEqual(
    findings.filter((f) => f.rule === 'contradiction' && f.certainty !== 'low'),
    [],
  );
  assert.equal(code, 0, JSON.stringify(findings));
});
