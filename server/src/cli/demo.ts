import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ToolResult as CallToolResult } from '../steps/tool-call.js';
import { TOOL_STEPS, type ToolName } from '../steps/tool-steps.js';
import type { Person } from '../call/ports.js';
import { callFromCli } from './direct.js';
import { terminalPersonIfAny } from './terminal-person.js';
import { colourDiff, colourFor, styled, type StyleName } from '../show/diff-text.js';
import { showPath, showText } from '../show/untrusted.js';
import { cliCommand, shellQuote } from '../call/for-person.js';
import { terminalForm } from './terminal-form.js';
import { checkedRepo, repoChoice, type CheckedRepo } from '../steps/repo-choice.js';
import { makeTempFolder, removeTree, writeFile } from '../repo/safe-fs.js';

/** A small, realistic repository: several formats, one duplicate, one contradiction. */
const EXAMPLE: Record<string, string> = {
  '.github/copilot-instructions.md': `# Invoice service

This service turns orders into invoices and e-mails them to customers.

- Use pnpm for all package management.
- Run the tests with vitest before every commit.
- Indent with 2 spaces.
- Never log customer e-mail addresses.
- Document every exported function with JSDoc.
`,
  'AGENTS.md': `# Notes for agents

- Use npm to install new dependencies.
- Keep pull requests small: one concern each.
- Run the tests with vitest before every commit.
`,
  '.cursor/rules/api.mdc': `---
description: HTTP handlers
globs: src/api/**/*.ts
alwaysApply: false
---
- Validate every request body with a zod schema before using it.
- Answer errors with problem+json bodies.
`,
  'src/index.ts': 'export const ready = true;\n',
};

/** Colour only for a terminal. */
// Headings and names follow the CLI's one colour rule (FORCE_COLOR, NO_COLOR, a terminal).
const styleText = (format: StyleName | StyleName[], text: string): string => styled(format, text);
const say = (text: string) => process.stdout.write(`${text}\n`);
const heading = (text: string) => say(`\n${styleText(['bold', 'cyan'], `── ${text} ${'─'.repeat(Math.max(0, 60 - text.length))}`)}`);

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/**
 * `copilot-onboard demo`: builds a throw-away repository and walks the whole flow in this terminal.
 * Every change still waits for your answer; without a terminal the gated steps are refused and the
 * demo exits 3, as they do. The sandbox is removed at the end unless `keep` (it says where it was).
 */
export async function runDemo(options: { keep?: boolean } = {}): Promise<number> {
  const root = makeTempFolder('copilot-onboard-demo-');
  try {
    return await walk(root, options.keep === true);
  } finally {
    // The sandbox goes at the end, whatever the end was, unless the person asked to keep it.
    if (options.keep) say(`\nThe sandbox stays in ${root} (--keep). Remove it with: rm -rf ${shellQuote(root)}`);
    else {
      const gone = await removeTree(path.dirname(root), path.basename(root)).catch(() => false);
      say(
        gone
          ? `\nThe sandbox was in ${root}; it is removed now (demo --keep keeps it).`
          : `\nThe sandbox in ${root} could not be removed; remove it with: rm -rf ${shellQuote(root)}`,
      );
    }
  }
}

async function walk(root: string, keep: boolean): Promise<number> {
  for (const [rel, text] of Object.entries(EXAMPLE)) await writeFile(root, rel, text);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, '-c', 'user.name=demo', '-c', 'user.email=demo@localhost', ...args], { stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'Instructions before the demo');
  const repo = await checkedRepo(repoChoice(root));
  let shownPlan: string | null = null;
  const person = terminalPersonIfAny(terminalForm({ diffShown: () => shownPlan }));
  say(styleText('bold', `copilot-onboard demo: a sandbox repository in ${root}`));
  say('It holds .github/copilot-instructions.md, AGENTS.md and a Cursor rule, with one repeated rule and one contradiction.');

  heading('1. analyze (read-only)');
  say(textOf(await call(repo, 'onboarding_analyze', null)));

  heading('2. propose (read-only: the exact plan)');
  const proposed = await call(repo, 'onboarding_propose', null);
  const ops = (proposed.structuredContent as { operations?: { op: string; path: string; diff: string }[] }).operations ?? [];
  shownPlan = (proposed.structuredContent as { planHash?: string }).planHash ?? null;
  for (const op of ops)
    say(`\n${styleText('bold', `${op.op} ${showPath(op.path)}`)}\n${colourDiff(showText(op.diff.trimEnd()), colourFor(process.stdout))}`);

  for (const [step, tool] of [
    ['3. approve (you decide: yes, or no with a comment to ask for changes)', 'onboarding_approve'],
    ['4. migrate (you confirm; everything is backed up first)', 'onboarding_migrate'],
  ] as const) {
    heading(step);
    if (tool === 'onboarding_approve' && person) {
      say(
        'First you choose (what happens to each legacy file, which rule stands); then you see the exact plan those choices give, with its diff, and approve it or not. No lets you go back to the choices, or record a comment with the changes you ask for; no without one declines.',
      );
    }
    const r = await call(repo, tool, person);
    const outcome = (r.structuredContent as { outcome: string }).outcome;
    // Without a terminal the demo stops at the first question and exits 3, as approve, migrate and
    // rollback do without one (the contract's exit 3: no way to ask a person). The step's own hint
    // names the sandbox, which is removed at the end: the demo says what to run instead.
    if (outcome === 'elicitation_unsupported') {
      say(`This step needs your answer, and there is no terminal to ask you in. The demo stops here; nothing was changed.`);
      say(`Run ${cliCommand()} demo in a terminal to answer the questions yourself.`);
      return 3;
    }
    say(textOf(r));
    // The approved plan's diff was on screen in approve's second round: migrate, naming that plan, points back to it.
    if (outcome === 'approved') shownPlan = (r.structuredContent as { planHash?: string }).planHash ?? shownPlan;
    if (outcome !== 'approved' && outcome !== 'migrated') {
      say('\nThe demo stops here; nothing was changed.');
      return outcome === 'precondition_failed' ? 4 : 3;
    }
  }

  heading('5. the result');
  for (const rel of listFiles(root, '.github')) {
    say(styleText('bold', rel));
    say(showText(fs.readFileSync(path.join(root, rel), 'utf8')));
  }

  heading('6. rollback (optional: restores every file byte for byte)');
  const r = await call(repo, 'onboarding_rollback', person);
  say(textOf(r));
  heading('traces');
  say(
    keep
      ? `Every question and answer is in ${path.join(root, '.copilot-state')}; list them with:\n  ${cliCommand()} traces --repo ${shellQuote(root)}`
      : `Every question and answer was traced in ${path.join(root, '.copilot-state')}. Run ${cliCommand()} demo --keep to keep the sandbox and list them with ${cliCommand()} traces --repo <sandbox>.`,
  );
  say('Demo finished.');
  return 0;
}

/** A step of the flow on the sandbox, as its command runs it. */
function call(repo: CheckedRepo, name: ToolName, person: Person | null): Promise<CallToolResult> {
  return callFromCli({ repo, name, run: TOOL_STEPS[name], person });
}

function listFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  if (fs.existsSync(path.join(root, dir))) walk(dir);
  return out.sort();
}
