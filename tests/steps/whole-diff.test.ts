import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { readTraces, sandbox } from '../helpers/sandbox.js';

/**
 * Issue 41: the person approves the whole diff, never a diff they were not shown. propose writes
 * `.copilot-state/plan.diff` (every operation's diff, as written, its first line naming the plan);
 * the approval round says how much of it the form shows and points to the file; its yes says
 * "the diff shown above and the rest in .copilot-state/plan.diff", never "exactly the plan shown
 * above"; `propose --diff` prints it whole; over MCP it is the resource copilot-onboard://plan.diff;
 * and the round's trace records that the person was pointed to it.
 */

/** Fifteen Cursor rule files with globs: a plan of fifteen scoped files, whose diff is far over what a form shows. */
function fifteenRules(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 1; i <= 15; i++) {
    const rules = Array.from(
      { length: 12 },
      (_, j) => `- Rule ${j + 1} for module ${i}: keep functions in module ${i} small and name every export clearly.`,
    );
    files[`.cursor/rules/m${i}.mdc`] =
      `---\ndescription: Module ${i} rules\nglobs: src/m${i}/**\nalwaysApply: false\n---\n\n# Module ${i}\n\n${rules.join('\n')}\n`;
  }
  return files;
}

const PLAN_DIFF = '.copilot-state/plan.diff';

test('a 15-operation plan: plan.diff holds every line, the form says how much it shows and its yes names the rest', async (t) => {
  const repo = sandbox(t, fifteenRules());
  const s = await openSession(t, { repo, elicit: yesToAll });
  const proposed = await s.call('onboarding_propose');
  const sc = proposed.structuredContent as { planHash: string; operations: { diff: string }[] };
  assert.equal(sc.operations.length, 15);
  const file = fs.readFileSync(path.join(repo, PLAN_DIFF), 'utf8');
  const [header, ...rest] = file.split('\n');
  assert.match(header!, new RegExp(`^# copilot-onboard plan ${sc.planHash}:`));
  assert.equal(rest.join('\n'), sc.operations.map((o) => (o.diff.endsWith('\n') ? o.diff : `${o.diff}\n`)).join(''));
  assert.ok(file.length > 15_000, 'the whole diff is far over what a form shows');
  // Derived state, like plan.json: git ignores it.
  assert.match(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), /^plan\.diff$/m);
  assert.equal(execFileSync('git', ['check-ignore', PLAN_DIFF], { cwd: repo, encoding: 'utf8' }).trim(), PLAN_DIFF);

  // Over MCP the diff is a resource, the file as it is.
  const resource = await s.client.readResource({ uri: 'copilot-onboard://plan.diff' });
  assert.equal((resource.contents[0] as { text: string }).text, file);

  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const round = s.elicitations.find(
    (e) => 'approved' in ((e as { requestedSchema: { properties: object } }).requestedSchema.properties ?? {}),
  )!;
  const message = (round as { message: string }).message;
  const approvedDescription = (round as { requestedSchema: { properties: Record<string, { description: string }> } }).requestedSchema
    .properties.approved!.description;
  assert.match(message, /The changes: this form shows [\d,]+ of the diff's [\d,]+ characters: \d+ of 15 files whole/);
  assert.match(
    message,
    /The whole diff is in \.copilot-state\/plan\.diff \(plan [0-9a-f]{12}, [\d,]+ characters\): read it before you answer/,
  );
  assert.match(message, /… the diff continues in \.copilot-state\/plan\.diff: \d+ more files?, [\d,]+ more characters\./);
  assert.doesNotMatch(approvedDescription, /exactly the plan shown above/);
  assert.match(approvedDescription, /the diff shown above and the rest in \.copilot-state\/plan\.diff/);

  // The trace records that the person was pointed to it, and how much the form showed.
  const approveTrace = readTraces(repo, 'elicitation').find((x) => x.action === 'approve' && x.outcome === 'approved')!;
  assert.equal(approveTrace.diffFile.path, PLAN_DIFF);
  assert.equal(approveTrace.diffFile.whole, false);
  assert.ok(approveTrace.diffFile.shownChars < approveTrace.diffFile.chars);
  assert.equal(approveTrace.diffFile.planHash, approveTrace.planHash);
  assert.match(approveTrace.writtenBy, /^\d+\.\d+\.\d+/);
});

test('a small plan: the form shows the whole diff and its yes says so', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# Rules\n\n- Use pnpm.\n' });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const round = s.elicitations.at(-1) as { message: string; requestedSchema: { properties: Record<string, { description: string }> } };
  assert.match(round.message, /The changes, the whole diff \(also in \.copilot-state\/plan\.diff/);
  assert.match(round.requestedSchema.properties.approved!.description, /whole diff is shown above/);
  const approveTrace = readTraces(repo, 'elicitation').find((x) => x.action === 'approve' && x.outcome === 'approved')!;
  assert.equal(approveTrace.diffFile.whole, true);
});

test('propose --diff prints the whole diff, every line, at the CLI', (t) => {
  const repo = sandbox(t, fifteenRules());
  const out = execFileSync(process.execPath, [CLI, 'propose', '--diff', '--repo', repo], { encoding: 'utf8' });
  assert.equal(out, fs.readFileSync(path.join(repo, PLAN_DIFF), 'utf8'));
  assert.ok(out.split('\n').filter((l) => l.startsWith('+++ ')).length === 15);
});
