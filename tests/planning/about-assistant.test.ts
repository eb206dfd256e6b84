import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { aboutAssistantSections } from '../../server/src/analysis/discovery/about-assistant.js';
import { splitUnits } from '../../server/src/model/markdown-units.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { hashTree, sandbox } from '../helpers/sandbox.js';

/**
 * Text about an assistant itself (its features, its keys, the setup of its cloud machine, a catalogue
 * of its skills or commands) is not a rule for Copilot: approve's first round offers to leave it out,
 * with its lines listed, the way it offers lines written for another assistant (issue 40).
 */
const sections = (text: string) =>
  aboutAssistantSections({ units: splitUnits('AGENTS.md', text.split('\n')) }).map((s) => ({
    heading: s.line,
    names: s.names,
    lines: s.lines.map((l) => l.line),
  }));

const KEYS =
  '# Rules\n\n- Use pnpm.\n\n## Working in Windsurf\n\n- Cmd+I opens the inline prompt.\n- Ctrl+Shift+L adds the selection to the chat.\n- Press Alt+] for the next suggestion.\n\n## Testing\n\n- Run `pnpm test`.\n';
const SETUP =
  '# Rules\n\n## Background agent environment\n\nThe agent runs in a VM with Node 22 pre-installed.\n\n```bash\napt-get install -y ripgrep\n```\n\n- Caches persist across sessions.\n\n## Style\n\n- Keep functions short.\n';
const SKILLS =
  '# Rules\n\n## Skills\n\n| Skill | Use for |\n|---|---|\n| [db-migrate](.agents/skills/db-migrate/SKILL.md) | Writing a migration |\n| [release](.agents/skills/release/SKILL.md) | Cutting a release |\n\n## Commands\n\n- `/review`: reviews the staged diff.\n- `/ship`: opens the pull request.\n\n## Build\n\n- Run `make` before pushing.\n';
const WHAT_IT_IS =
  '# Guide\n\n## About Devin\n\nDevin is an autonomous AI software engineer that works in its own cloud workspace.\nIt can open pull requests and answer in Slack.\n\n## Layout\n\n- Sources live in `src/`.\n';

test('a section about an assistant is found by its structure: its keys, the setup of its machine, a catalogue, what it is', () => {
  assert.deepEqual(sections(KEYS), [{ heading: 5, names: 'a section about Windsurf itself (its keys), not a rule', lines: [5, 7, 8, 9] }]);
  assert.deepEqual(sections(SETUP), [
    { heading: 3, names: 'a section about the agent itself (the setup of its machine), not a rule', lines: [3, 5, 7, 8, 9, 11] },
  ]);
  assert.deepEqual(sections(SKILLS), [
    {
      heading: 3,
      names: 'a section about the assistant itself (a catalogue of its skills or commands), not a rule',
      lines: [3, 5, 6, 7, 8],
    },
    { heading: 10, names: 'a section about the assistant itself (a catalogue of its skills or commands), not a rule', lines: [10, 12, 13] },
  ]);
  assert.deepEqual(sections('# R\n\n## Cursor Cloud specific instructions\n\n- Node 22 is installed at `/usr/local/bin`.\n'), [
    { heading: 3, names: 'a section about Cursor itself (the setup of its machine), not a rule', lines: [3, 5] },
  ]);
  assert.deepEqual(
    sections('# R\n\n### Subagents\n\n- `@reviewer` — reads the diff and comments.\n- `@planner` — splits the task.\n').length,
    1,
  );
  assert.deepEqual(
    sections('# R\n\n## Shortcuts\n\nIn Cursor:\n- ⌘K edits the selection.\n- ⌘L opens the chat.\n')[0]?.names,
    'a section about Cursor itself (its keys), not a rule',
  );
  assert.deepEqual(sections(WHAT_IT_IS), [
    { heading: 3, names: 'a section about Devin itself (what it is), not a rule', lines: [3, 5, 6] },
  ]);
});

test("real rules that mention an assistant, an app's own shortcuts, shell commands, code classes and a project that is an assistant are not about one", () => {
  const rules = [
    '# Rules',
    '',
    '## Git',
    '',
    '- Do not commit `.cursor/` or `.claude/` files.',
    '- Claude Code settings stay out of the repository.',
    '',
    '## Keyboard shortcuts',
    '',
    '- Ctrl+K opens the command palette of the app; keep it in `src/palette.ts`.',
    '- Cmd+S saves the draft.',
    '',
    '## Commands',
    '',
    '- `pnpm dev`: starts the dev server.',
    '- `pnpm test`: runs the tests.',
    '',
    '## Agents',
    '',
    '- `PlannerAgent` in `src/agents/planner.ts` plans the steps.',
    '- `ReviewAgent` reviews them.',
    '',
    '## Environment setup',
    '',
    '- Copy `.env.example` to `.env` and run `pnpm install`.',
    '',
    '## Overview',
    '',
    'Cline is an editor extension, and this repository is its source.',
    '',
    '### Skills (`skills.py`)',
    '',
    '- **`SkillLoader`** - reads each skill from disk.',
    "- **`SkillRunner`** - runs a skill's scripts.",
    '',
    '## Keeping the skill updated',
    '',
    '1. **Check for new features**: run `tool --help`.',
    '2. **Bump the version** in `SKILL.md`.',
    '',
  ].join('\n');
  assert.deepEqual(sections(rules), []);
});

test('the plan offers a section about an assistant as leave out with its lines; the default keeps them, leave out names them in dropped', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': KEYS });
  const scan = await scanRepository(repo);
  const kept = buildPlan(scan);
  const option = kept.assistants.find((o) => o.path === 'AGENTS.md')!;
  assert.deepEqual(option.fates, ['keep', 'leave_out']);
  assert.deepEqual(
    option.lines.map((l) => [l.line, l.names]),
    [[5, 'a section about Windsurf itself (its keys), not a rule']],
  );
  assert.deepEqual(
    option.leftOut.map((l) => l.line),
    [5, 7, 8, 9],
  );
  assert.match(kept.operations[0]!.content!, /Ctrl\+Shift\+L/, 'kept by default, like lines for another assistant');
  assert.deepEqual(kept.dropped, []);
  const left = buildPlan(scan, undefined, { legacy: {}, conflicts: {}, assistants: { 'AGENTS.md': 'leave_out' } });
  assert.equal(left.operations[0]!.content, '# Copilot instructions\n\n## Rules\n\n- Use pnpm.\n\n### Testing\n\n- Run `pnpm test`.\n');
  assert.deepEqual(
    left.dropped.map((d) => [d.line, d.text, d.reason]),
    [
      [5, '## Working in Windsurf', 'a section about Windsurf itself (its keys), not a rule: left out as you chose'],
      [7, '- Cmd+I opens the inline prompt.', 'a section about Windsurf itself (its keys), not a rule: left out as you chose'],
      [
        8,
        '- Ctrl+Shift+L adds the selection to the chat.',
        'a section about Windsurf itself (its keys), not a rule: left out as you chose',
      ],
      [9, '- Press Alt+] for the next suggestion.', 'a section about Windsurf itself (its keys), not a rule: left out as you chose'],
    ],
  );
});

test("approve's first round lists a cloud agent's setup section, leave out drops it on disk, rollback restores every byte", async (t) => {
  const repo = sandbox(t, { 'CLAUDE.md': SETUP });
  const before = hashTree(repo);
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
    /^ {2}CLAUDE\.md:3: ## Background agent environment \(a section about the agent itself \(the setup of its machine\), not a rule\)$/m,
  );
  assert.match(message, /also leaves out the 5 line\(s\) of the sections named above: CLAUDE\.md lines 5, 7-9, 11\./);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(
    fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8'),
    '# Copilot instructions\n\n## Rules\n\n### Style\n\n- Keep functions short.\n',
  );
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
});

test('a file describing itself is not a rule: its self-descriptions are offered to leave out; a pointer line stays a rule, and a section configuring a product option named for an assistant is no section for it', async (t) => {
  const agents =
    '# Agents\n\n> **Context file for coding agents.** Full documentation at [docs/agent.md](docs/agent.md).\n\n' +
    'This file exists for compatibility with tools that look for AGENTS.md.\n\n## Build\n\n- Run `make`.\n- See CONTRIBUTING.md for the release steps.\n\n' +
    'This file should not duplicate the command matrix.\n';
  const gemini =
    '# Gemini package\n\nIntegration with the Gemini API.\n\n## Gemini-specific Options\n\n- **`top_k`** - Top-K sampling parameter\n';
  const repo = sandbox(t, {
    'AGENTS.md': agents,
    'packages/gemini/AGENTS.md': gemini,
    'packages/gemini/pyproject.toml': '',
    'docs/agent.md': '# Agent docs\n',
  });
  const base = buildPlan(await scanRepository(repo));
  const option = base.assistants.find((a) => a.path === 'AGENTS.md');
  assert.deepEqual(
    option?.lines.map((l) => l.line),
    [3, 5, 12],
    JSON.stringify(base.assistants, null, 1),
  );
  assert.ok(
    option!.lines.every((l) => l.names === 'the file describing itself, not a rule'),
    JSON.stringify(option!.lines),
  );
  assert.equal(
    base.assistants.find((a) => a.path === 'packages/gemini/AGENTS.md'),
    undefined,
    'a section configuring the Gemini option of the product is not for Gemini',
  );
  const chosen = buildPlan(await scanRepository(repo), undefined, { legacy: {}, conflicts: {}, assistants: { 'AGENTS.md': 'leave_out' } });
  const content = chosen.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content!;
  assert.ok(!content.includes('This file') && !content.includes('Context file'), content);
  assert.ok(content.includes('- See CONTRIBUTING.md for the release steps.') && content.includes('- Run `make`.'), content);
});

const CATALOGUES = [
  '# Handbook',
  '',
  'Run `make check` before pushing.',
  '',
  '**Helper skills** (`.claude/skills/`) — loaded when a task needs them:',
  '- `schema-diff` — compares two database schemas',
  '- `flaky-hunt` — reruns a failing test until it flakes',
  '- `docs-sync` — keeps the reference pages current',
  '',
  '## Helpers',
  '',
  '| Helper | Where | When |',
  '|---|---|---|',
  '| **triage** | `.claude/agents/triage.md` | Sorting new bug reports |',
  '| **porter** | `.claude/agents/porter.md` | Moving code between modules |',
  '',
  '### Editor prompts',
  '',
  '| Prompt | Purpose |',
  '|---|---|',
  '| `explain-diff` | Explains the staged change |',
  '| `draft-notes` | Drafts release notes |',
  '',
  '## Workflows',
  '',
  '- [Bisect](.github/prompts/bisect.prompt.md): finds the change that broke a test',
  '- [Backport](.github/prompts/backport.prompt.md): copies a fix to the release branch',
  '',
  '## Files',
  '',
  'Keep these files current:',
  '- `src/config.ts` — the one place for settings',
  '- `docs/setup.md` — update it when a step changes',
  '- `.github/prompts/` must hold no secrets.',
  '- Edit [the release skill](.claude/skills/release/SKILL.md) only with a review.',
  '',
  '## Scripts',
  '',
  '- `lint-fix` — fixes what the linter can',
  '- `type-check` — checks the types',
  '',
  '## Agents',
  '',
  '- `planner` — splits a request into steps',
  '- `critic` — reviews the steps',
  '',
  '## Layout',
  '',
  '- `src/skills/` — where the product discovers skills',
  '- `lib/skills/` — the skill loader',
  '- `src/prompts.ts` — the prompt templates',
  '',
].join('\n');

test('a catalogue list or table of skills, agents or prompts is found by its items and its lead; a list of rules that mention such files is not', () => {
  assert.deepEqual(sections(CATALOGUES), [
    { heading: 5, names: 'a catalogue of skills, not a rule', lines: [5, 6, 7, 8] },
    { heading: 12, names: 'a catalogue of agents, not a rule', lines: [12, 13, 14, 15] },
    { heading: 19, names: 'a catalogue of prompts, not a rule', lines: [19, 20, 21, 22] },
    { heading: 26, names: 'a catalogue of prompts, not a rule', lines: [26, 27] },
  ]);
});

test('the plan offers a catalogue with its lead as one leave-out entry, kept by default; leave out drops it and the headings left empty', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': CATALOGUES });
  const scan = await scanRepository(repo);
  const option = buildPlan(scan).assistants.find((o) => o.path === 'AGENTS.md')!;
  assert.deepEqual(option.fates, ['keep', 'leave_out']);
  assert.deepEqual(
    option.lines.map((l) => [l.line, l.text]),
    [
      [5, '**Helper skills** (`.claude/skills/`) — loaded when a task needs them:'],
      [12, '| Helper | Where | When |'],
      [19, '| Prompt | Purpose |'],
      [26, '- [Bisect](.github/prompts/bisect.prompt.md): finds the change that broke a test'],
    ],
  );
  assert.match(buildPlan(scan).operations[0]!.content!, /schema-diff/, 'kept by default');
  const left = buildPlan(scan, undefined, { legacy: {}, conflicts: {}, assistants: { 'AGENTS.md': 'leave_out' } });
  const content = left.operations[0]!.content!;
  for (const gone of ['schema-diff', 'Helper skills', 'triage', 'explain-diff', 'Bisect', '## Helpers', 'Editor prompts', 'Workflows'])
    assert.ok(!content.includes(gone), `${gone} left out:\n${content}`);
  for (const kept of [
    'make check',
    '`src/config.ts` — the one place',
    '`.github/prompts/` must hold no secrets',
    'release skill',
    'lint-fix',
    '`planner`',
  ])
    assert.ok(content.includes(kept), `${kept} kept:\n${content}`);
  assert.ok(
    left.dropped.some((d) => d.line === 7 && d.reason === 'a catalogue of skills, not a rule: left out as you chose'),
    JSON.stringify(left.dropped),
  );
});

test("approve's first round lists each catalogue with why; leave out drops them on disk and keeps the rules that mention such files", async (t) => {
  const repo = sandbox(t, { 'CLAUDE.md': CATALOGUES });
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) => ({
      [Object.keys(props).find((k) => k.startsWith('assistant_') && String(props[k].title).includes('Lines of CLAUDE.md '))!]: 'leave_out',
    })),
  });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const message = (s.elicitations[0] as any).message as string;
  assert.match(
    message,
    /^ {2}CLAUDE\.md:5: \*\*Helper skills\*\* \(`\.claude\/skills\/`\) — loaded when a task needs them: \(a catalogue of skills, not a rule\)$/m,
  );
  assert.match(message, /^ {2}CLAUDE\.md:12: \| Helper \| Where \| When \| \(a catalogue of agents, not a rule\)$/m);
  // The headings left with nothing under them go too (10, 17, 24).
  assert.match(message, /the 13 line\(s\) of the sections named above: CLAUDE\.md lines 6-8, 10, 13-15, 17, 20-22, 24, 27\./);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  const written = fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8');
  for (const gone of ['schema-diff', 'triage', 'explain-diff', 'bisect.prompt.md', 'Editor prompts'])
    assert.ok(!written.includes(gone), `${gone} left out:\n${written}`);
  for (const kept of [
    '- `src/skills/` — where the product discovers skills',
    '- Edit [the release skill](.claude/skills/release/SKILL.md) only with a review.',
  ])
    assert.ok(written.includes(kept), `${kept} kept:\n${written}`);
});
