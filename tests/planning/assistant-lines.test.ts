import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { otherAssistantIn } from '../../server/src/analysis/discovery/other-assistants.js';
import { copilotRewrite } from '../../server/src/planning/assistant-lines.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { hashTree, readState, sandbox } from '../helpers/sandbox.js';

/**
 * Lines written for another assistant: in approve's first round the person chooses per file to keep
 * them as written (the default), rewrite them for Copilot, or leave them out. The form lists each
 * line in full with file:line; round two's diff shows the rewrite; migrate writes exactly that.
 */
const FILES = {
  'CLAUDE.md':
    '# CLAUDE.md\n\nThis file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.\n\n- Keep functions short.\n\n## Claude-specific\n\n- Use `TodoWrite` to track steps.\n- Commit often.\n\n## Testing\n\n- Run `pnpm test` before committing.\n',
  '.cursor/rules/layout.mdc':
    '---\ndescription: Source layout\nglobs: src/**\n---\n- Read [the layout](mdc:docs/layout.md) before moving files.\n- Keep modules small.\n',
};

const COPILOT_AS_WRITTEN =
  '# Copilot instructions\n\n<!-- copilot-onboard: top-level heading from CLAUDE.md, kept as a comment (one title per file):\n# CLAUDE.md\n-->\n\nThis file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.\n\n- Keep functions short.\n\n## Claude-specific\n\n- Use `TodoWrite` to track steps.\n- Commit often.\n\n## Testing\n\n- Run `pnpm test` before committing.\n';
const LAYOUT_HEAD = '---\napplyTo: "src/**"\ndescription: "Source layout"\n---\n\n';

const field = (props: Record<string, any>, file: string) =>
  Object.keys(props).find((k) => k.startsWith('assistant_') && String(props[k].title).includes(`Lines of ${file} `))!;
const read = (repo: string, p: string) => fs.readFileSync(path.join(repo, p), 'utf8');

test('a rewrite for Copilot: the assistant addressed becomes GitHub Copilot, an mdc: link a relative link from the target; code spans and lines it cannot rewrite stay', () => {
  assert.equal(
    copilotRewrite(
      'This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.',
      '.github/copilot-instructions.md',
    ),
    'This file provides guidance to GitHub Copilot when working with code in this repository.',
  );
  assert.equal(
    copilotRewrite('Codex cannot run the test suite.', '.github/copilot-instructions.md'),
    'GitHub Copilot cannot run the test suite.',
  );
  assert.equal(
    copilotRewrite('- See [repo](mdc:docs/repo.md) and [pkgs](mdc:packages/).', '.github/instructions/x.instructions.md'),
    '- See [repo](../../docs/repo.md) and [pkgs](../../packages/).',
  );
  assert.equal(copilotRewrite('Use `[file](mdc:path/to/file)` to link files.', '.github/copilot-instructions.md'), null);
  assert.equal(copilotRewrite('## Claude-specific', '.github/copilot-instructions.md'), null);
  assert.equal(otherAssistantIn('Run `claude -p "fix the build"` in CI.'), "runs claude, another assistant's command");
  assert.equal(otherAssistantIn('Use `/compact` when the context fills up.'), "names /compact, another assistant's command");
  assert.equal(otherAssistantIn('Run `pnpm test` before committing.'), null);
});

test('by default the lines stay as written; round one offers keep, rewrite and leave out per file and lists each line in full with file:line', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: choosing(() => ({})) });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const form = s.elicitations[0] as any;
  const props = form.requestedSchema.properties;
  const claude = props[field(props, 'CLAUDE.md')];
  assert.equal(claude.default, 'keep');
  assert.deepEqual(
    claude.oneOf.map((o: any) => o.const),
    ['keep', 'rewrite', 'leave_out'],
  );
  assert.match(
    form.message,
    /^ {2}CLAUDE\.md:3: This file provides guidance to Claude Code \(claude\.ai\/code\) when working with code in this repository\. \(names Claude Code\)$/m,
  );
  assert.match(
    form.message,
    /^ {4}rewritten for Copilot: This file provides guidance to GitHub Copilot when working with code in this repository\.$/m,
  );
  assert.match(form.message, /^ {2}CLAUDE\.md:9: - Use `TodoWrite` to track steps\. \(names TodoWrite, another assistant's tool\)$/m);
  assert.match(form.message, /^ {2}\.cursor\/rules\/layout\.mdc:5: - Read \[the layout\]\(mdc:docs\/layout\.md\) before moving files\./m);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(read(repo, '.github/copilot-instructions.md'), COPILOT_AS_WRITTEN, 'nothing is rewritten without the choice');
  assert.equal(
    read(repo, '.github/instructions/layout.instructions.md'),
    `${LAYOUT_HEAD}- Read [the layout](mdc:docs/layout.md) before moving files.\n- Keep modules small.\n`,
  );
});

test('rewrite for CLAUDE.md and leave out for layout.mdc: round two shows the rewrite, migrate writes exactly it, rollback restores every byte', async (t) => {
  const repo = sandbox(t, FILES);
  const before = hashTree(repo);
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) => ({ [field(props, 'CLAUDE.md')]: 'rewrite', [field(props, '.cursor/rules/layout.mdc')]: 'leave_out' })),
  });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  assert.deepEqual(readState(repo)!.approval.choices.assistants, { 'CLAUDE.md': 'rewrite', '.cursor/rules/layout.mdc': 'leave_out' });
  assert.match(
    (s.elicitations[1] as any).message,
    /^\+This file provides guidance to GitHub Copilot when working with code in this repository\.$/m,
  );
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(
    read(repo, '.github/copilot-instructions.md'),
    COPILOT_AS_WRITTEN.replace('guidance to Claude Code (claude.ai/code) when', 'guidance to GitHub Copilot when'),
  );
  assert.equal(read(repo, '.github/instructions/layout.instructions.md'), `${LAYOUT_HEAD}- Keep modules small.\n`);
  assert.equal(read(repo, 'CLAUDE.md'), FILES['CLAUDE.md'], 'the source keeps its lines');
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
});

test('leave out drops a section titled for another assistant with its lines, and leaves no heading with nothing under it', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: choosing((props) => ({ [field(props, 'CLAUDE.md')]: 'leave_out' })) });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.match((s.elicitations[0] as any).message, /also leaves out the 1 line\(s\) of the sections named above: CLAUDE\.md lines 10\./);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(
    read(repo, '.github/copilot-instructions.md'),
    '# Copilot instructions\n\n<!-- copilot-onboard: top-level heading from CLAUDE.md, kept as a comment (one title per file):\n# CLAUDE.md\n-->\n\n- Keep functions short.\n\n## Testing\n\n- Run `pnpm test` before committing.\n',
  );
});

test('leave out takes along a heading left with nothing under it', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# Rules\n\n- Use pnpm.\n\n## Notes\n\nCodex cannot run the test suite.\n' });
  const s = await openSession(t, { repo, elicit: choosing((props) => ({ [field(props, 'AGENTS.md')]: 'leave_out' })) });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(read(repo, '.github/copilot-instructions.md'), '# Copilot instructions\n\n## Rules\n\n- Use pnpm.\n');
});

test("a title that is an assistant's name alone names the file, not a section for it", () => {
  assert.equal(otherAssistantIn('# Claude'), null);
  assert.equal(otherAssistantIn('## Claude'), 'a section for Claude');
  assert.equal(otherAssistantIn('# Instructions for Claude Code'), 'a section for Claude Code');
});

test('a heading-less rule file whose every line is left out brings no heading of its own (trigger.dev writing-tests.mdc)', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Rules\n\n- Use pnpm.\n',
    '.cursor/rules/writing-tests.mdc':
      '---\ndescription: How to write tests in the monorepo\nalwaysApply: true\n---\nFollow our [tests.md](mdc:ai/references/tests.md) guide for how to write tests in the monorepo.',
  });
  const scan = await scanRepository(repo);
  const kept = buildPlan(scan);
  assert.match(kept.operations[0]!.content!, /^## How to write tests in the monorepo$/m);
  const left = buildPlan(scan, undefined, { legacy: {}, conflicts: {}, assistants: { '.cursor/rules/writing-tests.mdc': 'leave_out' } });
  assert.equal(left.operations[0]!.content, '# Copilot instructions\n\n## Rules\n\n- Use pnpm.\n');
  const rewritten = buildPlan(scan, undefined, { legacy: {}, conflicts: {}, assistants: { '.cursor/rules/writing-tests.mdc': 'rewrite' } });
  assert.match(rewritten.operations[0]!.content!, /^Follow our \[tests\.md\]\(\.\.\/ai\/references\/tests\.md\) guide/m);
});
