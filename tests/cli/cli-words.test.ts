import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, connect, openSession, textOf, yesToAll } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, sandbox, tempDir, writeFile, type Cleanup } from '../helpers/sandbox.js';
import { skipWithoutTmux, TmuxSession } from '../helpers/tmux.js';
import { colourFor, styled } from '../../server/src/show/diff-text.js';

/** The texts a person reads at the CLI, and the tool's words over MCP (issue 14, defects 1, 3, 6, 7, 8). */

const FILE = '.github/copilot-instructions.md';

function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string | undefined> = { ...process.env, ...(opts.env ?? {}) };
  delete env.COPILOT_ONBOARD_REPO;
  if (!opts.env?.NO_COLOR) delete env.NO_COLOR;
  if (!opts.env?.FORCE_COLOR) delete env.FORCE_COLOR;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', cwd: opts.cwd, env });
}

/** Run a command line as a person would paste it into the same shell (same working directory). */
function paste(command: string, cwd: string) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  return spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', input: '', cwd, env });
}

/** A repository in a folder whose name has a space and a quote, inside a fresh parent folder. */
function awkwardRepo(t: Cleanup, files: Record<string, string>): { parent: string; name: string; repo: string } {
  const parent = tempDir(t, 'co-words-');
  const name = "my repo's copy";
  const repo = path.join(parent, name);
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  for (const [rel, content] of Object.entries(files)) writeFile(repo, rel, content);
  return { parent, name, repo };
}

test('the Next hint after propose names --repo as typed, and the printed command works when pasted', (t) => {
  const { parent, name } = awkwardRepo(t, { [FILE]: MESSY_INSTRUCTIONS });
  const r = cli(['propose', '--repo', name], { cwd: parent });
  assert.equal(r.status, 0, r.stderr);
  const hint = /Next: (.+ approve .+?) asks the person/.exec(r.stdout);
  assert.ok(hint, r.stdout);
  assert.match(hint[1]!, / approve --repo 'my repo'\\''s copy'$/);
  // Pasted in the same shell: it finds the plan (no terminal here, so it stops at the form: exit 3, not 4).
  const run = paste(hint[1]!, parent);
  assert.equal(run.status, 3, run.stdout + run.stderr);
  assert.doesNotMatch(run.stderr, /There is no plan/);
  // The refusal names the terminal command with the same --repo.
  assert.match(run.stderr, /approve --repo 'my repo'\\''s copy'/);
  // status names the same command.
  const status = cli(['status', '--repo', name], { cwd: parent });
  const next = /Next: Review the plan, then run (.+)\.$/m.exec(status.stdout);
  assert.ok(next, status.stdout);
  assert.equal(next[1], hint[1]);
});

test('without --repo the hint names no repository, and works from the repository folder', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const r = cli(['propose'], { cwd: repo });
  const hint = /Next: (.+ approve) asks the person/.exec(r.stdout);
  assert.ok(hint, r.stdout);
  assert.doesNotMatch(hint[1]!, /--repo/);
  assert.equal(paste(hint[1]!, repo).status, 3);
});

test('over MCP the hints name the tools, and the terminal command in a refusal names the repository', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo });
  assert.match(textOf(await s.call('onboarding_propose')), /Next: onboarding_approve asks/);
  const refused = textOf(await s.call('onboarding_approve'));
  // The command this server was started with: it runs where the person stands.
  assert.ok(refused.includes(`or the terminal: node ${CLI} approve --repo ${repo}.`), refused);
});

test('a contradiction pairs each value with its own locations, and each location says that value', (t) => {
  const repo = sandbox(t, {
    [FILE]: '# Guide\n\n## Tools\n\n- Use pnpm for all package management.\n',
    'AGENTS.md': '# Agents\n\n- Use npm to install dependencies.\n\n## More\n\n- Always use npm.\n',
    'CLAUDE.md': '# Claude\n\n- Use pnpm, not npm.\n',
  });
  const json = JSON.parse(cli(['analyze', '--repo', repo, '--json']).stdout);
  const contradictions = json.problems.filter((p: { type: string }) => p.type === 'contradiction');
  assert.equal(contradictions.length, 1, JSON.stringify(json.problems));
  const description: string = contradictions[0].description;
  assert.match(
    description,
    /^Contradicting rules about package manager: "pnpm" \(\.github\/copilot-instructions\.md:5\) vs "npm" \(AGENTS\.md:3, AGENTS\.md:7\) vs not "npm" \(CLAUDE\.md:3\)$/,
  );
  const sides = [...description.matchAll(/"(\w+)" \(([^)]+)\)/g)];
  assert.equal(sides.length, 3);
  for (const [, value, locations] of sides) {
    for (const location of locations!.split(', ')) {
      const [file, line] = location.split(':');
      const text = fs.readFileSync(path.join(repo, file!), 'utf8').split('\n')[Number(line) - 1]!;
      assert.ok(new RegExp(`\\b${value}\\b`).test(text), `${location} says ${value}: ${text}`);
    }
  }
  // The plan's conflict says the same.
  const plan = JSON.parse(cli(['propose', '--repo', repo, '--json']).stdout);
  assert.equal(plan.conflicts[0].description, description);
});

const noTmux = skipWithoutTmux;
const ESC = '\x1b';

/** What `propose` writes to a real terminal (tmux), escapes kept; `env` runs before it (`-u NAME`, `NAME=value`). */
async function proposeOnTerminal(name: string, env: string, repo: string): Promise<string> {
  const tm = TmuxSession.start(name, `env ${env} ${JSON.stringify(process.execPath)} ${CLI} propose --repo ${repo}`, repo);
  try {
    assert.equal(await tm.exitCode(), 0);
    return tm.screen(true);
  } finally {
    tm.kill();
  }
}

test('propose on a terminal colours its diff; NO_COLOR=1 leaves no escape at all', { skip: noTmux }, async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# Agents\n\n- Use npm to install dependencies.\n' });
  const coloured = await proposeOnTerminal('co-words-colour', '-u NO_COLOR -u FORCE_COLOR', repo);
  assert.match(coloured, /\x1b\[32m[^\x1b]*\+- Use npm to install dependencies\./, 'an added line is green');
  const plain = await proposeOnTerminal('co-words-nocolour', '-u FORCE_COLOR NO_COLOR=1', repo);
  assert.ok(plain.includes('+- Use npm to install dependencies.'), plain);
  assert.ok(!plain.includes(ESC), 'no escape with NO_COLOR');
});

test('FORCE_COLOR=1 colours the diff without a terminal; NO_COLOR=1 output has no ESC', (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# Agents\n\n- Use npm to install dependencies.\n' });
  const forced = cli(['propose', '--repo', repo], { env: { FORCE_COLOR: '1' } });
  assert.match(forced.stdout, /\x1b\[32m\+- Use npm/);
  assert.match(forced.stdout, /\x1b\[36m@@ -0,0 \+1,5 @@/);
  for (const command of ['analyze', 'propose', 'status', 'approve']) {
    const r = cli([command, '--repo', repo], { env: { NO_COLOR: '1' } });
    assert.ok(!(r.stdout + r.stderr).includes(ESC), `${command}: no escape with NO_COLOR`);
  }
});

test('one rule for every colour: styled() follows NO_COLOR and FORCE_COLOR as the diffs do', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  assert.equal(styled(['bold', 'cyan'], 'Heading', tty, {}), '\x1b[1m\x1b[36mHeading\x1b[39m\x1b[22m');
  assert.equal(styled(['bold', 'cyan'], 'Heading', tty, { NO_COLOR: '1' }), 'Heading');
  assert.equal(styled('bold', 'Heading', pipe, {}), 'Heading');
  assert.equal(styled('bold', 'Heading', pipe, { FORCE_COLOR: '1' }), '\x1b[1mHeading\x1b[22m');
  assert.equal(styled('bold', 'Heading', tty, { FORCE_COLOR: '0' }), 'Heading');
  assert.equal(colourFor(tty, { NO_COLOR: '' }), true, 'an empty NO_COLOR is not set');
});

test('propose again: an approval of the same plan stands (status says approved), one of a different plan no longer applies', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal((await s.call('onboarding_approve')).structuredContent?.outcome, 'approved');
  const again = await s.call('onboarding_propose');
  assert.match(textOf(again), /that approval still stands, so onboarding_migrate applies it/);
  assert.deepEqual((again.structuredContent as any).approval.stillApplies, true);
  let status = cli(['status', '--repo', repo]).stdout;
  assert.match(status, /^Step: approved$/m);
  assert.match(status, /^Approval: approved, not applied yet \(by /m);
  assert.match(status, /^Next: Run node \S+ migrate --repo \S+ to apply the approved plan\.$/m);
  // The files change: the new plan replaces the approved one.
  fs.appendFileSync(path.join(repo, FILE), '- Keep functions short.\n');
  const changed = await s.call('onboarding_propose');
  assert.match(textOf(changed), /The approval of the earlier plan [0-9a-f]{12} no longer applies/);
  status = cli(['status', '--repo', repo]).stdout;
  assert.match(status, /^Step: proposed$/m);
  assert.match(status, /^Approval: none$/m);
  // And the step the person is told to take works: migrate refuses for want of an approval.
  assert.match(textOf(await s.call('onboarding_migrate')), /has not been approved/);
});

test('the pattern is described as found: an AGENTS.md with headings is not "one flat list"', (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agents\n\n## Build\n\n- Use npm to install dependencies.\n\n## Tests\n\n- Run the tests before every commit.\n',
  });
  const json = JSON.parse(cli(['analyze', '--repo', repo, '--json']).stdout);
  // A file with headings is structured (issue 12); the detail still says the rules have to move.
  assert.equal(json.pattern, 'structured');
  assert.equal(
    json.patternDetail,
    "every file is organised in sections (rule: a file with headings is structured); the rules in AGENTS.md are not in Copilot's files yet",
  );
  const flat = sandbox(t, { [FILE]: '# Rules\n\n- Use npm.\n- Run the tests.\n' });
  assert.equal(
    JSON.parse(cli(['analyze', '--repo', flat, '--json']).stdout).patternDetail,
    // The person's own Copilot file is left as they wrote it (issue 40): nothing to do, already in Copilot's layout.
    `the instructions are already in Copilot's layout, and the plan changes nothing (rule: a repository the plan leaves as it is is structured); ${FILE} holds rules outside headed sections, which the plan leaves as they are`,
  );
  // Nothing to group and nothing to move: already in Copilot's layout, in analyze and propose alike (issue 40).
  const settled = sandbox(t, { [FILE]: 'Be kind and concise in answers.\nPrefer small diffs.\n' });
  for (const step of ['analyze', 'propose']) {
    const out = JSON.parse(cli([step, '--repo', settled, '--json']).stdout);
    assert.equal(out.pattern, 'structured', step);
    assert.equal(
      out.patternDetail,
      `the instructions are already in Copilot's layout, and the plan changes nothing (rule: a repository the plan leaves as it is is structured); ${FILE} holds rules outside headed sections, which the plan leaves as they are`,
      step,
    );
  }
});

test('the pattern counts many files instead of naming each one, and names a few in full', (t) => {
  const flatRule = (n: number) => `- Keep package ${n} free of circular imports.\n- Export package ${n} only from its index.\n`;
  const sectioned = (n: number) => `# Package ${n}\n\n## Build\n\n- Build package ${n} with tsc.\n`;
  const detail = (files: Record<string, string>) =>
    JSON.parse(cli(['analyze', '--repo', sandbox(t, files), '--json']).stdout).patternDetail;
  // Seven flat files: counted, the first three named (in the scan's order), and not counted twice.
  // Each is scoped to its folder: its scoped file takes it as it is, so the label does not say it is grouped.
  const seven = Object.fromEntries(Array.from({ length: 7 }, (_, n) => [`pkg${n}/AGENTS.md`, flatRule(n)]));
  assert.equal(
    detail(seven),
    "the rules in 7 files (pkg0/AGENTS.md, pkg1/AGENTS.md, pkg2/AGENTS.md and 4 more) are not in Copilot's files yet; " +
      'those 7 files hold rules outside headed sections, which move as they are into their scoped files (rule: a file without headings is unstructured)',
  );
  // Seven files of which two are flat: the seven counted, the two named in full; most are in sections, so the repository is structured (issue 40).
  const mixed = Object.fromEntries(
    Array.from({ length: 7 }, (_, n) => [`pkg${n}/AGENTS.md`, n === 2 || n === 5 ? flatRule(n) : sectioned(n)]),
  );
  assert.equal(
    detail(mixed),
    'most files are organised in sections, and the plan groups none (rule: a repository the plan does not group is structured); ' +
      "the rules in 7 files (pkg0/AGENTS.md, pkg1/AGENTS.md, pkg2/AGENTS.md and 4 more) are not in Copilot's files yet; " +
      'pkg2/AGENTS.md, pkg5/AGENTS.md hold rules outside headed sections, which move as they are into their scoped files',
  );
  // Five files are still named, every one.
  const five = Object.fromEntries(Array.from({ length: 5 }, (_, n) => [`pkg${n}/AGENTS.md`, flatRule(n)]));
  assert.equal(
    detail(five),
    "the rules in pkg0/AGENTS.md, pkg1/AGENTS.md, pkg2/AGENTS.md, pkg3/AGENTS.md, pkg4/AGENTS.md are not in Copilot's files yet; " +
      'pkg0/AGENTS.md, pkg1/AGENTS.md, pkg2/AGENTS.md, pkg3/AGENTS.md, pkg4/AGENTS.md hold rules outside headed sections, which move as they are into their scoped files (rule: a file without headings is unstructured)',
  );
});

test('a refused step speaks to the person at the CLI; --json and the trace keep the outcome code', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  assert.equal(cli(['propose', '--repo', repo]).status, 0);
  const r = cli(['approve', '--repo', repo]);
  assert.equal(r.status, 3);
  const said = r.stdout + r.stderr;
  for (const word of ['not_confirmed', 'keep_all', 'elicitation', 'ms)', ' ms;', 'The person'])
    assert.ok(!said.includes(word), `"${word}" in: ${said}`);
  assert.match(
    said,
    /The approve step needs your answer, and it cannot show a form here: there is no terminal to ask you in\. Nothing was changed\. Run it in a terminal: node \S+ approve --repo /,
  );
  const json = JSON.parse(cli(['approve', '--repo', repo, '--json']).stdout);
  assert.equal(json.outcome, 'elicitation_unsupported');
});

/** The approve step as the CLI runs it, the person at the terminal answering with `answer` (null: no terminal). */
async function approveAtCli(repo: string, answer: ((params: any) => any) | null) {
  const { callFromCli } = await import('../../server/src/cli/direct.js');
  const { terminalPerson } = await import('../../server/src/cli/terminal-person.js');
  const { TOOL_STEPS } = await import('../../server/src/steps/tool-steps.js');
  const options = { cliCommand: 'copilot-onboard', repoArg: repo };
  const at = (name: 'onboarding_propose' | 'onboarding_approve', person: ReturnType<typeof terminalPerson> | null) =>
    callFromCli({ repo: { explicit: repo, cwd: repo, root: repo }, name, run: TOOL_STEPS[name], person, options });
  await at('onboarding_propose', null);
  return at('onboarding_approve', answer ? terminalPerson(async (p) => answer(p)) : null);
}

test("the server writes its refusals in the person's words when the call comes from the CLI; over MCP a model reads its own", async (t) => {
  const files = {
    'AGENTS.md': '# Agents\n\n- Use npm to install dependencies.\n',
    'CLAUDE.md': '# Claude\n\n- Use pnpm to install dependencies.\n',
  };
  const repo = sandbox(t, files);
  const cases: Array<{ answer: ((p: any) => any) | null; outcome: string; person: RegExp; model: RegExp }> = [
    {
      answer: () => ({ action: 'cancel' }),
      outcome: 'cancelled',
      person: /^You closed the form\. Nothing was changed\.$/,
      model: /^The person dismissed the request\. Nothing was changed\. Do not ask again/,
    },
    {
      answer: () => ({ action: 'decline' }),
      outcome: 'declined',
      person: /^You answered No\. Nothing was changed\.$/,
      model: /^The person declined\. Nothing was changed\./,
    },
    {
      answer: (p) => ({ action: 'accept', content: 'approved' in p.requestedSchema.properties ? { approved: false } : {} }),
      outcome: 'not_confirmed',
      person: /^You answered No\. Nothing was changed\.$/,
      model: /^The form was sent, but "approved" was not confirmed\./,
    },
    {
      answer: null,
      outcome: 'elicitation_unsupported',
      person: /^The approve step needs your answer, and it cannot show a form here/,
      model: /did not declare MCP elicitation/,
    },
  ];
  for (const c of cases) {
    const r = await approveAtCli(repo, c.answer);
    assert.equal((r.structuredContent as any).outcome, c.outcome, 'the code stays in structuredContent');
    assert.match(textOf(r), c.person, c.outcome);
    const s = await connect({ repo, ...(c.answer ? { elicit: c.answer } : {}) });
    try {
      assert.match(textOf(await s.call('onboarding_approve')), c.model, `over MCP: ${c.outcome}`);
    } finally {
      await s.close();
    }
  }
  // The trace keeps the outcome code.
  const traces = fs
    .readdirSync(path.join(repo, '.copilot-state', 'elicitation-traces'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state', 'elicitation-traces', f), 'utf8')).outcome);
  for (const c of cases) assert.ok(traces.includes(c.outcome), c.outcome);
  // An approval with a chosen side names the conflict and the kept rule's place.
  const r = await approveAtCli(repo, (p) => {
    const props = p.requestedSchema.properties;
    if ('approved' in props) return { action: 'accept', content: { approved: true } };
    const id = Object.keys(props).find((k) => k.startsWith('conflict_'))!;
    return { action: 'accept', content: { [id]: 'keep_2' } };
  });
  assert.equal((r.structuredContent as any).outcome, 'approved');
  assert.match(textOf(r), /approved with these choices: the conflict about package manager: keep the rule at CLAUDE\.md:3\./);
  assert.doesNotMatch(textOf(r), /conflict_\d|keep_\d/);
});
