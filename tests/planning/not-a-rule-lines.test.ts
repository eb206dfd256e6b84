import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Lines that are no rule for Copilot because Copilot cannot act on them (issue 40): an order to the
 * agent's own harness (its tools, its tool calls, "your harness lists them"), a file describing itself
 * in other shapes (a tool's marker comment and the line explaining it, a role label in a blockquote),
 * a file to read in a home folder, an `@` import of a file the repository does not hold. Each is
 * offered in approve's first round to leave out, with why, and kept by default; a real rule that
 * mentions a tool, a home folder or a file stays a rule, and an `@` import of a file that is there
 * becomes a Markdown link that leads to it from the new file.
 */
const CLAUDE = [
  '# CLAUDE.md',
  '',
  '## Stop: read this first',
  '',
  'Before you answer anything, you MUST use the Open tool to load [AGENTS.md](AGENTS.md) and obey',
  'every rule in it. Never skip this step.',
  '',
  '## Style',
  '',
  '- Follow @STYLE.md when naming things.',
  '- Keep @notes/retired.md in mind when writing migrations.',
  '- Use the Gradle tool to build the release.',
  '',
].join('\n');

const AGENTS = [
  '# Agents',
  '',
  '<!-- agent-lint-divergence: accepted -->',
  '',
  'The marker above tells `agent-lint` that this file differs from CLAUDE.md on purpose.',
  '',
  '> **Briefing sheet for coding agents.** The long version is in [docs/agents.md](docs/agents.md).',
  '',
  '## Helpers',
  '',
  'Task helpers are declared in `helpers.yaml`. Your harness shows each of them with its summary;',
  'reach for them before doing the steps by hand.',
  '',
  '## Setup',
  '',
  '- Load `~/dotfiles/agent-notes/RULES.md` before you start (skip it when absent).',
  '- Binaries install into `~/.local/bin`; never commit them.',
  '- Set `max_retries` in `config.toml`, never in code.',
  '- Entry point: `if __name__ == "__main__": main()` closes every script.',
  '',
  '<!-- rule-id: 12 -->',
  '- Keep handlers small.',
  '<!-- rule-id: 13 -->',
  '- Log every retry.',
  '',
].join('\n');

const SCRIPT = [
  '---',
  'description: Checking the inspector by hand',
  'globs: inspector/**',
  '---',
  '# Inspector check',
  '',
  '**Tools it needs:**',
  '- `run_shell_command`',
  '- `browser_take_snapshot`',
  '',
  '1. **Start the inspector:**',
  '    *   Action: Call `run_shell_command`.',
  '    *   `command`: `npx inspector`',
  '    *   `is_background`: `true`',
  '2. **Look at it:**',
  '    *   Take a snapshot and check the title reads "Inspector".',
  '',
  '- Reviewers asked us to use the `apply_patch_file` tool for edits to rule files.',
  '- Keep the inspector port at 6274.',
  '- Consumers call `generate_tests` from `build.rs`; follow @docs/agents.md when naming checks.',
  '',
].join('\n');

const FILES = {
  'CLAUDE.md': CLAUDE,
  'AGENTS.md': AGENTS,
  '.cursor/rules/inspector.mdc': SCRIPT,
  'STYLE.md': '# Style\n',
  'docs/agents.md': '# Agents, long\n',
};

const WHY = {
  harness: "an order to another agent's own tools or harness, not a rule",
  missing: (p: string) => `imports ${p}, which is not in the repository, not a rule`,
  home: (p: string) => `points at ${p}, in a home folder Copilot cannot read, not a rule`,
  marker: "a tool's marker comment, which its tool reads in this file only, not a rule",
  self: 'the file describing itself, not a rule',
};

test('lines Copilot cannot act on are offered to leave out with why; the real rules that mention tools, home folders and files are not', async (t) => {
  const repo = sandbox(t, FILES);
  const plan = buildPlan(await scanRepository(repo));
  const offered = (p: string) => plan.assistants.find((o) => o.path === p)?.lines.map((l) => [l.line, l.names]);
  assert.deepEqual(offered('CLAUDE.md'), [
    [5, WHY.harness],
    [6, WHY.harness],
    [11, WHY.missing('notes/retired.md')],
  ]);
  assert.deepEqual(offered('AGENTS.md'), [
    [3, WHY.marker],
    [5, WHY.self],
    [7, WHY.self],
    [11, WHY.harness],
    [12, WHY.harness],
    [16, WHY.home('~/dotfiles/agent-notes/RULES.md')],
  ]);
  assert.deepEqual(offered('.cursor/rules/inspector.mdc'), [
    [7, WHY.harness],
    [8, WHY.harness],
    [9, WHY.harness],
    [12, WHY.harness],
    [13, WHY.harness],
    [14, WHY.harness],
  ]);
  // Kept by default, as for lines written for another assistant.
  const content = plan.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content!;
  assert.ok(content.includes('Your harness shows each of them') && content.includes('<!-- agent-lint-divergence: accepted -->'), content);
});

test('leave out writes the files without those lines, byte for byte; an @ import of a file that is there becomes a link from the new file', async (t) => {
  const repo = sandbox(t, FILES);
  const all = { 'CLAUDE.md': 'leave_out', 'AGENTS.md': 'leave_out', '.cursor/rules/inspector.mdc': 'leave_out' } as const;
  const plan = buildPlan(await scanRepository(repo), undefined, { legacy: {}, conflicts: {}, assistants: all });
  const content = (p: string) => plan.operations.find((o) => o.path === p)?.content;
  assert.equal(
    content('.github/copilot-instructions.md'),
    [
      '# Copilot instructions',
      '',
      '## Agents',
      '',
      '### Setup',
      '',
      '- Binaries install into `~/.local/bin`; never commit them.',
      '- Set `max_retries` in `config.toml`, never in code.',
      '- Entry point: `if __name__ == "__main__": main()` closes every script.',
      '',
      // A marker named twice marks the rules under it: it travels with them.
      '<!-- rule-id: 12 -->',
      '',
      '- Keep handlers small.',
      '',
      '<!-- rule-id: 13 -->',
      '',
      '- Log every retry.',
      '',
      // CLAUDE.md's title stands above its first chapter written (its "Stop" chapter is left out).
      '<!-- copilot-onboard: top-level heading from CLAUDE.md, kept as a comment (one title per file):',
      '# CLAUDE.md',
      '-->',
      '',
      '## Style',
      '',
      '- Follow [STYLE.md](../STYLE.md) when naming things.',
      '- Use the Gradle tool to build the release.',
      '',
    ].join('\n'),
  );
  assert.equal(
    content('.github/instructions/inspector.instructions.md'),
    [
      '---',
      'applyTo: "inspector/**"',
      'description: "Checking the inspector by hand"',
      '---',
      '',
      '# Inspector check',
      '',
      '1. **Start the inspector:**',
      '2. **Look at it:**',
      '    *   Take a snapshot and check the title reads "Inspector".',
      '',
      '- Reviewers asked us to use the `apply_patch_file` tool for edits to rule files.',
      '- Keep the inspector port at 6274.',
      '- Consumers call `generate_tests` from `build.rs`; follow @docs/agents.md when naming checks.',
      '',
    ].join('\n'),
  );
  assert.ok(
    plan.dropped.some(
      (d) =>
        d.path === 'AGENTS.md' && d.line === 16 && d.reason === `${WHY.home('~/dotfiles/agent-notes/RULES.md')}: left out as you chose`,
    ),
    JSON.stringify(plan.dropped),
  );
});

test("approve's first round lists the lines Copilot cannot act on with why; leave out drops them on disk", async (t) => {
  const repo = sandbox(t, { 'CLAUDE.md': CLAUDE, 'STYLE.md': '# Style\n' });
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) => ({
      [Object.keys(props).find((k) => k.startsWith('assistant_') && String(props[k].title).includes('Lines of CLAUDE.md '))!]: 'leave_out',
    })),
  });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  const message = (s.elicitations[0] as any).message as string;
  assert.match(
    message,
    /^ {2}CLAUDE\.md:5: Before you answer anything, you MUST use the Open tool .* \(an order to another agent's own tools or harness/m,
  );
  assert.match(
    message,
    /^ {2}CLAUDE\.md:11: - Keep @notes\/retired\.md in mind when writing migrations\. \(imports notes\/retired\.md, which is not in the repository, not a rule\)$/m,
  );
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(
    fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8'),
    '# Copilot instructions\n\n<!-- copilot-onboard: top-level heading from CLAUDE.md, kept as a comment (one title per file):\n# CLAUDE.md\n-->\n\n## Style\n\n- Follow [STYLE.md](../STYLE.md) when naming things.\n- Use the Gradle tool to build the release.\n',
  );
});

test('an @ import of a missing file inside a block a tool manages stays as written, in its file: no question, and the note says why', async (t) => {
  const claude =
    '# Rules\n\n- Use mix format.\n\n<!-- lint-rules-start -->\n## lint usage\n@deps/lint/usage-rules.md\n<!-- lint-rules-end -->\n';
  const repo = sandbox(t, { 'CLAUDE.md': claude });
  const plan = buildPlan(await scanRepository(repo));
  assert.deepEqual(plan.assistants, []);
  // The block stays in CLAUDE.md (managed-stays.test.ts): Copilot's file gets the other rules only.
  assert.equal(plan.operations[0]!.content, '# Copilot instructions\n\n## Rules\n\n- Use mix format.\n');
  assert.ok(!plan.notes.some((n) => n.includes('another assistant')), plan.notes.join('\n'));
  assert.ok(
    plan.notes.some((n) => n.startsWith('CLAUDE.md:5-8 (from "<!-- lint-rules-start -->" to its end marker) is a block a tool writes')),
    plan.notes.join('\n'),
  );
});

test("a paragraph's last sentence about the file itself is offered from where it starts: leave out cuts it, the words before it stay", async (t) => {
  const agents = [
    '# Handbook',
    '',
    '## Commands',
    '',
    'Use [POLICY.md](POLICY.md) for the command policy. This file should not repeat command tables',
    'or release steps.',
    '',
    'Keep the build green on every branch.',
    'This document is regenerated each week.',
    '',
    '- Name a file after what it holds; this file names the rest.',
    '',
  ].join('\n');
  const repo = sandbox(t, { 'AGENTS.md': agents, 'POLICY.md': '# Policy\n' });
  const scan = await scanRepository(repo);
  const offered = buildPlan(scan).assistants.find((o) => o.path === 'AGENTS.md')!;
  assert.deepEqual(
    offered.lines.map((l) => [l.line, l.names]),
    [
      [5, `${WHY.self} (from "This file should not rep…"; the words before it stay)`],
      [6, WHY.self],
      [9, WHY.self],
    ],
  );
  assert.deepEqual(
    offered.leftOut.map((l) => l.line),
    [6, 9],
  );
  const left = buildPlan(scan, undefined, { legacy: {}, conflicts: {}, assistants: { 'AGENTS.md': 'leave_out' } });
  assert.equal(
    left.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content,
    [
      '# Copilot instructions',
      '',
      '## Handbook',
      '',
      '### Commands',
      '',
      'Use [POLICY.md](../POLICY.md) for the command policy.',
      '',
      'Keep the build green on every branch.',
      '',
      '- Name a file after what it holds; this file names the rest.',
      '',
    ].join('\n'),
  );
});
