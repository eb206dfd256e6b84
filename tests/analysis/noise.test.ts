import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/analysis/analyze.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { plannedSandbox } from '../helpers/sandbox.js';

const SKILL = '# PDF skill\n\n- Use pdfplumber to read tables.\n- Never print whole documents.\n';

test('a third-party skill vendored byte for byte into several tool folders is reported and not migrated', async (t) => {
  const { scan, plan } = await plannedSandbox(t, {
    'AGENTS.md': '- Run the tests before pushing.\n',
    '.claude/skills/pdf/AGENTS.md': SKILL,
    '.codex/skills/pdf/AGENTS.md': SKILL,
    '.cursor/rules/skills/pdf.mdc': '---\nalwaysApply: true\n---\n- Cursor rule that stays.\n',
    '.agents/skills/pdf/CLAUDE.md': SKILL,
  });
  const left = scan.sources
    .filter((s) => s.notRule)
    .map((s) => s.path)
    .sort();
  assert.deepEqual(left, ['.agents/skills/pdf/CLAUDE.md', '.claude/skills/pdf/AGENTS.md', '.codex/skills/pdf/AGENTS.md']);
  assert.match(
    scan.sources.find((s) => s.path === '.claude/skills/pdf/AGENTS.md')!.notRule!,
    /skill in \.claude\/skills\/.*byte-identical copies sit at \.codex\/skills\/pdf\/AGENTS\.md, \.agents\/skills\/pdf\/CLAUDE\.md/,
  );
  assert.deepEqual(
    plan.operations.map((o) => o.path),
    ['.github/copilot-instructions.md'],
  );
  assert.doesNotMatch(plan.operations[0]!.content!, /pdfplumber/);
  assert.match(plan.operations[0]!.content!, /Cursor rule that stays/);
  assert.equal(
    plan.notes.filter((n) => /skill in .*it is reported, not migrated \(the approve form can migrate it all the same\)\.$/.test(n)).length,
    3,
    plan.notes.join('\n'),
  );
  assert.deepEqual(
    plan.legacy.filter((l) => left.includes(l.path)).map((l) => l.fates),
    [
      ['keep', 'migrate'],
      ['keep', 'migrate'],
      ['keep', 'migrate'],
    ],
    'a left-out file is kept out, or migrated on request; never removed',
  );
});

test('Cursor meta-rules about writing rules are reported and not migrated; ordinary rules are', async (t) => {
  const { scan, plan } = await plannedSandbox(t, {
    '.cursor/rules/cursor_rules.mdc':
      '---\ndescription: Guidelines for creating and maintaining Cursor rules to ensure consistency.\nglobs: .cursor/rules/*.mdc\nalwaysApply: true\n---\n- **Required Rule Structure:** front matter first.\n',
    '.cursor/rules/self_improve.mdc':
      '---\ndescription: Guidelines for continuously improving Cursor rules based on emerging code patterns.\nglobs: **/*\nalwaysApply: true\n---\n- **Rule Improvement Triggers:** new code patterns.\n',
    '.cursor/rules/index.mdc':
      "---\ndescription: Guide to this project's rules\nglobs: .cursor/rules/*.mdc\nalwaysApply: false\n---\n- See the rule list below.\n",
    '.cursor/rules/testing.mdc': '---\ndescription: How we test\nglobs: tests/**\nalwaysApply: false\n---\n- Use Pest for every test.\n',
  });
  const left = scan.sources
    .filter((s) => s.notRule)
    .map((s) => s.path)
    .sort();
  assert.deepEqual(left, ['.cursor/rules/cursor_rules.mdc', '.cursor/rules/index.mdc', '.cursor/rules/self_improve.mdc']);
  const written = plan.operations.map((o) => o.content ?? '').join('\n');
  assert.match(written, /Use Pest for every test/);
  assert.doesNotMatch(written, /Rule Improvement|Required Rule Structure|rule list/);
  assert.ok(
    plan.notes.some((n) => n.startsWith('.cursor/rules/self_improve.mdc is a Cursor meta-rule')),
    plan.notes.join('\n'),
  );
});

test('a Copilot file the plan writes past 4,000 characters comes with a size warning; a short one does not', async (t) => {
  const long = Array.from({ length: 80 }, (_, i) => `- Rule number ${i + 1}: keep this module free of side effects at import time.`).join(
    '\n',
  );
  const big = await plannedSandbox(t, { 'AGENTS.md': `# Rules\n\n${long}\n` });
  const warning = big.plan.notes.find((n) => n.startsWith('Warning: .github/copilot-instructions.md ('));
  assert.ok(warning, big.plan.notes.join('\n'));
  assert.match(
    warning!,
    /^Warning: \.github\/copilot-instructions\.md \(\d+\.\d KB, \d+ lines\) is over 4000 characters after the migration\. GitHub's documentation asks for short instructions/,
  );
  const small = await plannedSandbox(t, { 'AGENTS.md': '- Run the tests.\n' });
  assert.ok(!small.plan.notes.some((n) => n.startsWith('Warning:')));
});

test('a left-out file is offered in the approve choices, kept out by default, and migrated when the person asks', async (t) => {
  const { scan, plan } = await plannedSandbox(t, {
    'AGENTS.md': '- Run the tests before pushing.\n',
    '.claude/skills/pdf/AGENTS.md': SKILL,
    '.cursor/rules/self_improve.mdc':
      '---\ndescription: Guidelines for continuously improving Cursor rules.\nalwaysApply: true\n---\n- Add a rule when a pattern repeats.\n',
  });
  const options = plan.legacy.filter((l) => l.fates.includes('migrate')).map((l) => `${l.path} -> ${l.target} [${l.fates.join(',')}]`);
  assert.deepEqual(options, [
    '.claude/skills/pdf/AGENTS.md -> .github/instructions/claude-skills-pdf.instructions.md [keep,migrate]',
    '.cursor/rules/self_improve.mdc -> .github/copilot-instructions.md [keep,migrate]',
  ]);
  const chosen = buildPlan(scan, analyze(scan), { legacy: { '.cursor/rules/self_improve.mdc': 'migrate' }, conflicts: {} });
  const out = chosen.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content!;
  assert.match(out, /Add a rule when a pattern repeats/);
  assert.doesNotMatch(out, /pdfplumber/);
  assert.notEqual(chosen.chosenHash, chosen.planHash, 'the approval binds to the plan with the choice');
  assert.equal(chosen.planHash, plan.planHash, 'the options offered do not depend on the choice');
  assert.ok(
    chosen.notes.some(
      (n) =>
        n.startsWith('.cursor/rules/self_improve.mdc is a Cursor meta-rule') && n.endsWith('as you chose, it is migrated all the same.'),
    ),
  );
});

test("a skill's resource documents (a subfolder of a skill's folder) are reported and not migrated; the skill folder's own guide and a code folder named skills are", async (t) => {
  const guide = '# Maintaining the deploy skill\n\n- Bump the version in SKILL.md with every change.\n';
  const resource = '# Rollbacks\n\n> Taken from the platform runbook\n\n| Step | Command |\n|---|---|\n| Undo | `deploy undo` |\n';
  const { scan, plan } = await plannedSandbox(t, {
    'AGENTS.md': '- Run the tests before pushing.\n',
    // A plugin's skill: its references, and a subfolder of a skill folder that holds SKILL.md.
    'tools/plugin/skills/deploy/CLAUDE.md': guide,
    'tools/plugin/skills/deploy/references/AGENTS.md': resource,
    'agents/skills/review/SKILL.md': '---\nname: review\ndescription: Review a change\n---\nRead the diff.\n',
    'agents/skills/review/checklists/CLAUDE.md': '# Checklist\n\n- Every public function has a test.\n',
    // Code folders called skills: no SKILL.md, no resource folder.
    'src/skills/parser/AGENTS.md': '# Parser\n\n- Keep the grammar in `grammar.pest`.\n',
    'games/skills/fireball/examples/AGENTS.md': '# Fireball examples\n\n- Each example runs with `cargo run --example`.\n',
  });
  const left = scan.sources
    .filter((s) => s.notRule)
    .map((s) => s.path)
    .sort();
  assert.deepEqual(left, ['agents/skills/review/checklists/CLAUDE.md', 'tools/plugin/skills/deploy/references/AGENTS.md']);
  assert.match(
    scan.sources.find((s) => s.path === 'tools/plugin/skills/deploy/references/AGENTS.md')!.notRule!,
    /^a resource of the skill in tools\/plugin\/skills\/deploy\/ \(read when the skill runs and asks for it\), not instructions for its folder$/,
  );
  const written = plan.operations.map((o) => o.path).sort();
  assert.deepEqual(written, [
    '.github/copilot-instructions.md',
    '.github/instructions/games-skills-fireball-examples.instructions.md',
    '.github/instructions/src-skills-parser.instructions.md',
    '.github/instructions/tools-plugin-skills-deploy.instructions.md',
  ]);
  const all = plan.operations.map((o) => o.content ?? '').join('\n');
  assert.doesNotMatch(all, /Rollbacks|deploy undo|Every public function has a test/);
  assert.match(all, /Bump the version in SKILL\.md/);
  assert.deepEqual(
    plan.legacy.filter((l) => left.includes(l.path)).map((l) => l.fates),
    [
      ['keep', 'migrate'],
      ['keep', 'migrate'],
    ],
    'a resource is kept out, or migrated on request',
  );
});
