import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { copyChoiceLines, MAX_COPY_DIFF_CHARS } from '../../server/src/gate/choices-round.js';
import { applyAndReplan, hashTree, plannedSandbox, planRepo, sandbox } from '../helpers/sandbox.js';
import { isChoicesRound, openSession, outcomeOf, textOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';

const COPILOT = '.github/copilot-instructions.md';

const RULES = [
  '# Project rules',
  '',
  '## Build',
  '',
  '- Build with `pnpm build`.',
  '- Never commit the dist folder.',
  '',
  '## Testing',
  '',
  '- Run `pnpm test` before pushing.',
  '- Every bug fix comes with a regression test.',
  '- Mock the network in unit tests.',
  '',
  '## Style',
  '',
  '- Use named exports only.',
  '- Keep functions under forty lines.',
  '- Prefer early returns over nested ifs.',
  '- Write comments that say why, not what.',
  '- Name booleans as questions: isReady, hasItems.',
  '- Keep one component per file.',
  '',
  '## Git',
  '',
  '- Write commit messages in the imperative.',
  '- Rebase on main before opening a pull request.',
  '- Keep pull requests under 400 lines.',
  '- Link the issue in the pull request body.',
  '',
];

/** The same file, drifted: one rule reworded, one added. */
const DRIFTED = RULES.map((l) => (l === '- Run `pnpm test` before pushing.' ? '- Run `pnpm test` and `pnpm lint` before pushing.' : l));
DRIFTED.splice(DRIFTED.indexOf('- Keep functions under forty lines.') + 1, 0, '- Avoid default exports in new files.');

test('a drifted copy of AGENTS.md in CLAUDE.md: one source is migrated, the copy is left out, and the differences are one diff in the notes', async (t) => {
  const { scan, plan, content } = await plannedSandbox(t, { 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': DRIFTED.join('\n') });
  // CLAUDE.md has one line more: it is the most complete and is kept.
  assert.deepEqual(
    scan.copies.map((c) => `${c.path} -> ${c.keptPath}`),
    ['AGENTS.md -> CLAUDE.md'],
  );
  assert.match(scan.sources.find((s) => s.path === 'AGENTS.md')!.notRule!, /^a copy of CLAUDE\.md \(\d+% of its lines are the same\)/);
  const out = content(COPILOT)!;
  assert.equal(out.split('\n').filter((l) => /pnpm test/.test(l)).length, 1, `no two variants of one sentence side by side:\n${out}`);
  assert.match(out, /pnpm test` and `pnpm lint`/);
  const diff = plan.notes.find((n) =>
    n.startsWith('The differences between CLAUDE.md (migrated) and its copy AGENTS.md (left out), as one diff'),
  )!;
  assert.ok(diff, plan.notes.join('\n'));
  assert.match(diff, /^--- a\/CLAUDE\.md$/m);
  assert.match(diff, /^-- Run `pnpm test` and `pnpm lint` before pushing\.$/m);
  assert.match(diff, /^\+- Run `pnpm test` before pushing\.$/m);
  assert.match(diff, /^-- Avoid default exports in new files\.$/m);
  assert.deepEqual(
    plan.legacy.find((l) => l.path === 'AGENTS.md')!.fates,
    ['keep', 'migrate', 'use-this'],
    'the left-out copy is not offered for removal',
  );
});

test('a copy marked "generated from AGENTS.md" keeps AGENTS.md as the source even when shorter', async (t) => {
  const { scan, content } = await plannedSandbox(t, {
    'AGENTS.md': '- Use pnpm.\n- Run the tests.\n',
    '.cursorrules': '<!-- generated from AGENTS.md; do not edit -->\n- Use pnpm.\n- Run the tests.\n- An old rule nobody removed.\n',
  });
  assert.deepEqual(
    scan.copies.map((c) => `${c.path} -> ${c.keptPath}`),
    ['.cursorrules -> AGENTS.md'],
  );
  assert.match(scan.copies[0]!.why, /says "<!-- generated from AGENTS\.md/);
  assert.doesNotMatch(content(COPILOT)!, /old rule nobody removed/);
});

test('a file that is only a link to another instruction file points at it: its rules are read once', async (t) => {
  const { scan, content } = await plannedSandbox(t, {
    'AGENTS.md': '- Use pnpm.\n- Run the tests.\n',
    'CLAUDE.md': '# Claude\n\nSee [AGENTS.md](./AGENTS.md) for all rules.\n',
  });
  assert.equal(scan.sources.find((s) => s.path === 'CLAUDE.md')!.aliasOf, 'AGENTS.md');
  assert.doesNotMatch(content(COPILOT)!, /See \[AGENTS/);
});

test('files that share rules but are not copies, and copies with a narrower kept scope, are merged as before', async (t) => {
  const half = RULES.slice(0, 12).join('\n') + '\n- A different rule.\n- Another one.\n- And a third.\n';
  const { scan } = await plannedSandbox(t, { 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': half, 'pkg/AGENTS.md': DRIFTED.join('\n') });
  // pkg/AGENTS.md is the most complete, but applies only below pkg/: the root file is not its copy.
  assert.deepEqual(scan.copies, []);
});

test('after a migration that kept the files, the next plan is a no-op', async (t) => {
  const { repo, plan } = await plannedSandbox(t, { 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': DRIFTED.join('\n') });
  const again = await applyAndReplan(repo, plan);
  assert.deepEqual(
    again.plan.operations.map((o) => o.path),
    [],
  );
  assert.ok(fs.existsSync(path.join(repo, 'AGENTS.md')));
});

test('a Copilot file that says it is a hand-kept distillation of AGENTS.md is left as it is, and AGENTS.md is not merged into it', async (t) => {
  const copilot =
    '# Review instructions\n\n> **`AGENTS.md` is the source of truth.** This file is a review-focused distillation of it, kept in sync by hand.\n\n- Flag any new dependency.\n';
  const { scan, plan } = await plannedSandbox(t, { [COPILOT]: copilot, 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': '@./AGENTS.md\n' });
  const written = plan.operations.map((o) => o.content ?? '').join('\n');
  assert.doesNotMatch(written, /Never commit the dist folder|named exports/, 'no rule of AGENTS.md is merged into the distillation');
  assert.ok(!plan.operations.some((o) => o.path === 'AGENTS.md' || o.path === 'CLAUDE.md'));
  assert.match(
    scan.sources.find((s) => s.path === 'AGENTS.md')!.notRule!,
    /^the source \.github\/copilot-instructions\.md says it is written from by hand/,
  );
  assert.ok(
    plan.notes.some((n) => n.startsWith('.github/copilot-instructions.md is kept as the hand-written distillation of AGENTS.md')),
    plan.notes.join('\n'),
  );
  assert.deepEqual(plan.legacy.find((l) => l.path === 'AGENTS.md')!.fates, ['keep', 'migrate'], 'the source is never offered for removal');
});

test('choosing to migrate the left-out copy instead: its rules are migrated, the most complete file is left out as the copy, with the diff reversed', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': DRIFTED.join('\n') });
  const { plan } = await planRepo(repo, { legacy: { 'AGENTS.md': 'use-this' }, conflicts: {} });
  const out = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.match(out, /^- Run `pnpm test` before pushing\.$/m);
  assert.doesNotMatch(out, /pnpm lint|Avoid default exports/, `nothing of CLAUDE.md is interleaved:\n${out}`);
  assert.ok(!plan.operations.some((o) => o.path === 'AGENTS.md' || o.path === 'CLAUDE.md'), 'both files are kept as they are');
  const diff = plan.notes.find((n) =>
    n.startsWith('The differences between AGENTS.md (migrated) and its copy CLAUDE.md (left out), as one diff'),
  )!;
  assert.ok(diff, plan.notes.join('\n'));
  assert.match(diff, /^--- a\/AGENTS\.md$/m);
  assert.match(diff, /^\+- Avoid default exports in new files\.$/m);
  assert.ok(
    plan.notes.some((n) => /^CLAUDE\.md is a copy of AGENTS\.md: you chose to migrate AGENTS\.md instead/.test(n)),
    plan.notes.join('\n'),
  );
  assert.ok(!plan.notes.some((n) => n.startsWith('The differences between CLAUDE.md (migrated)')));
});

test('a copy whose kept file applies more widely than it cannot be chosen instead', async (t) => {
  const { plan } = await plannedSandbox(t, {
    'AGENTS.md': DRIFTED.join('\n'),
    '.cursor/rules/all.mdc': '---\nglobs: src/**\n---\n' + RULES.join('\n'),
  });
  const option = plan.legacy.find((l) => l.path === '.cursor/rules/all.mdc')!;
  assert.equal(option.copyOf?.path, 'AGENTS.md');
  assert.deepEqual(
    option.fates,
    ['keep', 'migrate'],
    'its rules apply only to src/**: migrating it instead would narrow the rules of AGENTS.md',
  );
});

/** Round one answered by `first`; round two, migrate and rollback with yes. */
const person =
  (first: (req: any) => Record<string, unknown>): ElicitAnswer =>
  (req) =>
    isChoicesRound(req) ? { action: 'accept', content: first(req) } : yesToAll(req);
const fieldFor = (props: Record<string, any>, needle: string) => Object.keys(props).find((k) => String(props[k].title).includes(needle));

for (const useThis of [false, true]) {
  test(`two-round approval over MCP ${useThis ? 'choosing the other copy migrates it and leaves the most complete out' : 'with the default keeps the most complete copy'}; rollback is byte-identical; a second plan is a no-op`, async (t) => {
    const repo = sandbox(t, { 'AGENTS.md': RULES.join('\n'), 'CLAUDE.md': DRIFTED.join('\n') });
    const tree = hashTree(repo);
    const s = await openSession(t, {
      repo,
      elicit: person((req) => (useThis ? { [fieldFor(req.requestedSchema.properties, 'AGENTS.md')!]: 'use-this' } : {})),
    });
    assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
    const a = await s.call('onboarding_approve');
    assert.equal(outcomeOf(a), 'approved', textOf(a));
    const one = s.elicitations[0] as unknown as { message: string; requestedSchema: { properties: Record<string, any> } };
    const field = one.requestedSchema.properties[fieldFor(one.requestedSchema.properties, 'AGENTS.md')!];
    assert.deepEqual(
      field.oneOf.map((o: any) => o.const),
      ['keep', 'migrate', 'use-this'],
    );
    assert.equal(field.default, 'keep');
    assert.match(field.oneOf[2].title, /^Migrate AGENTS\.md instead of CLAUDE\.md \(CLAUDE\.md is then left out as the copy\)/);
    assert.match(one.message, /^--- a\/CLAUDE\.md$/m, 'round one shows the diff between the copies');
    assert.match(one.message, /^\+- Run `pnpm test` before pushing\.$/m);
    const m = await s.call('onboarding_migrate');
    assert.equal(outcomeOf(m), 'migrated', textOf(m));
    const out = fs.readFileSync(path.join(repo, COPILOT), 'utf8');
    assert.equal(/pnpm lint/.test(out), !useThis, out);
    assert.equal(/Avoid default exports/.test(out), !useThis, out);
    assert.equal(out.split('\n').filter((l) => /pnpm test/.test(l)).length, 1, out);

    assert.deepEqual(
      (await planRepo(repo)).plan.operations.map((o) => o.path),
      [],
      'a second plan changes nothing',
    );

    const r = await s.call('onboarding_rollback');
    assert.equal(outcomeOf(r), 'rolled_back', textOf(r));
    const after = hashTree(repo);
    for (const [p, h] of Object.entries(tree)) assert.equal(after[p], h, p);
    assert.equal(fs.existsSync(path.join(repo, COPILOT)), false);
  });
}

test("round one's diff between two copies is cut to a sane length, and says how much more the plan's notes hold", () => {
  const long = [
    '--- a/CLAUDE.md',
    '+++ b/AGENTS.md',
    '@@ -1,500 +1,500 @@',
    ...Array.from({ length: 500 }, (_, i) => `-- rule ${i} ${'x'.repeat(i === 3 ? 20000 : 10)}`),
  ].join('\n');
  const lines = copyChoiceLines({
    path: 'AGENTS.md',
    target: COPILOT,
    fates: ['keep', 'migrate', 'use-this'],
    copyOf: { path: 'CLAUDE.md', diff: long },
  });
  assert.ok(lines.join('\n').length < MAX_COPY_DIFF_CHARS + 1000, String(lines.join('\n').length));
  assert.match(lines.at(-1)!, /^… \d+ more lines of differences in the plan's notes/);
  assert.match(lines[0]!, /Use this: AGENTS\.md is migrated instead, and CLAUDE\.md is left out as the copy\./);
});

test('files with the same lines in another order are copies of one another, not of a file with the same count, first and last line', async (t) => {
  const lines = [
    '- Alpha rule one.',
    '- Bravo rule two.',
    '- Charlie rule three.',
    '- Delta rule four.',
    '- Echo rule five.',
    '- Zulu rule six.',
  ];
  const other = lines.map((l) => (l.startsWith('- Bravo') || l.startsWith('- Delta') ? `${l} More.` : l));
  const { scan } = await plannedSandbox(t, {
    'AGENTS.md': lines.join('\n'),
    'CLAUDE.md': other.join('\n'),
    '.cursorrules': [...other].reverse().join('\n'),
  });
  assert.deepEqual(
    scan.copies.map((c) => `${c.path} -> ${c.keptPath} (${c.why})`),
    ['.cursorrules -> CLAUDE.md (100% of its lines are the same)'],
  );
});
