import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, openSession, textOf, yesToAll } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * A plan too long to print whole (twenty instruction files, each with rules of its own): the text is
 * cut, and what follows the cut is the summary and the next step, whoever reads it. A person at the
 * CLI is pointed at the plan file and `propose --json`; a model at the MCP resource.
 */
function manyFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) {
    const rules = Array.from(
      { length: 120 },
      (_, j) => `- Rule ${j} of area ${i}: keep the module ${i}-${j} free of side effects and documented.`,
    );
    files[`.cursor/rules/area-${i}.mdc`] = `---\nglobs: src/area-${i}/**\n---\n# Area ${i}\n\n${rules.join('\n')}\n`;
  }
  return files;
}

test('propose at the CLI: after the cut, the summary table and Next: still print; the cut names the plan file and propose --json', (t) => {
  const repo = sandbox(t, manyFiles());
  const r = spawnSync(process.execPath, [CLI, 'propose', '--repo', repo], {
    encoding: 'utf8',
    input: '',
    env: { ...process.env, NO_COLOR: '1' },
  });
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout;
  const cut = /\[… \d+ more bytes not shown here\. (.*)\]/.exec(out);
  assert.ok(cut, 'the text was cut');
  assert.equal(
    cut[1],
    `The whole diff: .copilot-state/plan.diff, which node ${CLI} propose --repo ${repo} --diff prints; all of the plan: node ${CLI} propose --repo ${repo} --json.`,
  );
  assert.doesNotMatch(out, /copilot-onboard:\/\//, 'no MCP resource for a person at the CLI');
  const after = out.slice(cut.index);
  assert.match(after, /^Next: node \S+ approve --repo \S+ asks the person to approve this exact plan\.$/m);
  assert.match(after, /^Summary:\n {2}Files read +20\n/m);
  assert.match(after, /^ {2}Operations +20 \(20 to create\)$/m);
  assert.ok(out.trimEnd().endsWith('(20 to create)'), 'the summary is the last thing printed');
});

test('propose over MCP: after the cut, Next: is the last line; the cut names the resource', async (t) => {
  const repo = sandbox(t, manyFiles());
  const s = await openSession(t, { repo, elicit: yesToAll });
  const text = textOf(await s.call('onboarding_propose'));
  assert.match(
    text,
    /more bytes not shown here\. The whole diff: the MCP resource copilot-onboard:\/\/plan\.diff and \.copilot-state\/plan\.diff/,
  );
  assert.match(text.slice(-600), /\]\n\nNext: onboarding_approve asks the person to approve this exact plan\.\n?$/);
});
