import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, textOf } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readTraces, removeRepo, sandbox, STRUCTURED_INSTRUCTIONS, tempDir } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';

/** Run the CLI as a person's shell would, but with no terminal: stdin is a pipe. */
function cli(args: string[], opts: { cwd?: string } = {}) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', cwd: opts.cwd, env });
}

test('analyze prints a report for a person, and JSON with --json', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const text = cli(['analyze', '--repo', repo]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /Pattern: messy/);
  assert.match(text.stdout, /contradiction: the package manager: /);
  const json = cli(['analyze', '--repo', repo, '--json']);
  assert.equal(json.status, 0);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.outcome, 'analyzed');
  assert.equal(parsed.pattern, 'messy');
  assert.equal(parsed.sources[0].path, FILE);
});

test('propose prints the plan with its diff and changes nothing outside .copilot-state', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const before = hashTree(repo);
  const r = cli(['propose', '--repo', repo]);
  assert.equal(r.status, 0, r.stderr);
  // The person's flat file keeps its order (issue 40): the diff adds the conflict's marks.
  assert.match(r.stdout, /\n\+<!-- copilot-onboard: conflicting rules about package manager/);
  assert.deepEqual(hashTree(repo), before);
  const json = JSON.parse(cli(['propose', '--repo', repo, '--json']).stdout);
  assert.match(json.planHash, /^[0-9a-f]{64}$/);
  assert.equal(json.operations[0].op, 'update');
});

test('the working directory is the repository by default', (t) => {
  const repo = sandbox(t, { [FILE]: STRUCTURED_INSTRUCTIONS });
  const r = cli(['analyze', '--json'], { cwd: repo });
  assert.equal(JSON.parse(r.stdout).pattern, 'structured');
});

for (const step of ['approve', 'migrate', 'rollback']) {
  // Before its precondition holds (migrate before an approval, rollback before a migration), the
  // step says what to do first (exit 4): asking a person could not help. See docs/flow.md.
  const early = step !== 'approve';
  test(`${step} without a terminal is refused with exit ${early ? '4 (precondition_failed)' : '3 and an elicitation_unsupported trace'}`, (t) => {
    const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
    assert.equal(cli(['propose', '--repo', repo]).status, 0);
    const before = hashTree(repo);
    const r = cli([step, '--repo', repo]);
    assert.equal(r.status, early ? 4 : 3, r.stdout + r.stderr);
    assert.match(r.stderr, early ? (step === 'migrate' ? /Run approve first/ : /no migration to roll back/) : /cannot show a form/);
    const traces = readTraces(repo, 'elicitation');
    assert.equal(traces.length, 1);
    assert.equal(traces[0]!.outcome, early ? 'precondition_failed' : 'elicitation_unsupported');
    assert.equal(traces[0]!.action, step);
    assert.equal(traces[0]!.client.name, 'copilot-onboard-cli');
    assert.deepEqual(hashTree(repo), before);
  });
}

test('there is no --yes: it is bad usage', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const r = cli(['approve', '--repo', repo, '--yes']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Unknown argument: yes/);
  assert.equal(fs.existsSync(path.join(repo, '.copilot-state')), false);
});

test('unknown commands and missing repositories exit 2', () => {
  assert.equal(cli(['frobnicate']).status, 2);
  assert.equal(cli([]).status, 2);
  const r = cli(['analyze', '--repo', '/nonexistent/co-repo']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /does not exist/);
});

test('status on a state this clone did not write says so and how to stop the notice, never with an rm; propose goes on and keeps the file aside', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS, '.copilot-state/onboarding.json': 'nope' });
  const s = cli(['status', '--repo', repo]);
  assert.equal(s.status, 0);
  assert.match(s.stdout, /not written here: ignored \(\.copilot-state\/onboarding\.json\)/);
  assert.match(s.stdout, /moving a file aside \(to NAME\.damaged, which git ignores\) stops this notice/);
  assert.doesNotMatch(s.stdout, /\brm -r/);
  const p = cli(['propose', '--repo', repo]);
  assert.equal(p.status, 0, p.stderr);
  const aside = fs.readdirSync(path.join(repo, '.copilot-state')).filter((n) => n.startsWith('onboarding.json.not-written-here-'));
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state', aside[0]!), 'utf8'), 'nope');
});

test('status after propose names the next step', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  cli(['propose', '--repo', repo]);
  const s = JSON.parse(cli(['status', '--repo', repo, '--json']).stdout);
  assert.equal(s.outcome, 'status');
  assert.equal(s.step, 'proposed');
  assert.match(s.next, /approve/);
});

test('traces list shows each exchange; --help and --version work', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  cli(['analyze', '--repo', repo]);
  cli(['approve', '--repo', repo]);
  const list = cli(['traces', 'list', '--repo', repo]);
  assert.equal(list.status, 0);
  assert.match(list.stdout, /sampling\s+analyze\s+unsupported/);
  // No plan yet: approve says to propose first, even where no form could be shown.
  assert.match(list.stdout, /elicitation\s+approve\s+precondition_failed/);
  const json = JSON.parse(cli(['traces', '--repo', repo, '--json']).stdout);
  assert.equal(json.length, 2);
  const show = cli(['traces', 'show', json[0].id, '--repo', repo]);
  assert.equal(JSON.parse(show.stdout).timestamp, json[0].timestamp);
  assert.equal(cli(['--help']).status, 0);
  assert.match(cli(['--version']).stdout, /^\d+\.\d+\.\d+/);
});

test('text for a person names commands, not tools; over MCP the text stays as the model needs it', async (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const r = cli(['propose', '--repo', repo]);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /onboarding_/);
  assert.ok(r.stdout.includes(`Next: node ${CLI} approve`), r.stdout.slice(-300));
  const s = await openSession(t, { repo });
  assert.match(textOf(await s.call('onboarding_propose')), /Next: onboarding_approve/);
});

test('--repo -x and --repo=-x both name the folder -x', (t) => {
  const parent = tempDir(t, 'co-dash-');
  const repo = path.join(parent, '-lea');
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q', repo]);
  fs.writeFileSync(path.join(repo, 'AGENTS.md'), '# Agents\n\n- Use npm.\n');
  for (const args of [['--repo', '-lea'], ['--repo=-lea']]) {
    const r = spawnSync(process.execPath, [CLI, 'status', ...args, '--json'], { cwd: parent, encoding: 'utf8', input: '' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).outcome, 'status');
    assert.ok(JSON.parse(r.stdout).next, 'it read the folder -lea');
    const p = spawnSync(process.execPath, [CLI, 'propose', ...args], { cwd: parent, encoding: 'utf8', input: '' });
    assert.equal(p.status, 0, p.stderr);
    assert.match(p.stdout, /approve --repo \.\/-lea/, 'the hint names the folder so that it is not read as an option');
  }
  // An option of the command line after --repo is still an option: the folder is missing.
  const missing = spawnSync(process.execPath, [CLI, 'status', '--repo', '--json'], { cwd: parent, encoding: 'utf8', input: '' });
  assert.equal(missing.status, 2);
});

test('the demo without a terminal stops before the first question and exits 3, as the gated commands do; its sandbox is removed unless --keep', (t) => {
  const r = spawnSync(process.execPath, [CLI, 'demo'], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stdout, /there is no terminal to ask you in\. The demo stops here; nothing was changed\./);
  assert.doesNotMatch(r.stdout, /elicitation_unsupported/);
  const sandbox = /a sandbox repository in (\S+)/.exec(r.stdout)![1]!;
  assert.ok(r.stdout.includes(`The sandbox was in ${sandbox}; it is removed now (demo --keep keeps it).`), r.stdout);
  assert.ok(!fs.existsSync(sandbox), 'the sandbox is gone');
  const kept = spawnSync(process.execPath, [CLI, 'demo', '--keep'], { encoding: 'utf8', input: '' });
  assert.equal(kept.status, 3);
  const dir = /a sandbox repository in (\S+)/.exec(kept.stdout)![1]!;
  t.after(() => removeRepo(dir));
  assert.ok(fs.existsSync(path.join(dir, 'AGENTS.md')), 'kept');
  assert.ok(kept.stdout.includes(`The sandbox stays in ${dir} (--keep). Remove it with: rm -rf ${dir}`));
  // The help says it.
  assert.match(spawnSync(process.execPath, [CLI, 'demo', '--help'], { encoding: 'utf8' }).stdout, /exits 3/);
});

test('propose at the CLI ends with a summary table whose figures match the plan; --json and MCP keep their shapes', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md':
      '# Agents\n\n## Build\n\n- Use npm to install dependencies.\n- Run the tests before every commit.\n\n## Style\n\n- Prefer small functions.\n',
    'CLAUDE.md': '# Claude\n\n- Use pnpm to install dependencies.\n- Run the tests before every commit.\n',
  });
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  const text = spawnSync(process.execPath, [CLI, 'propose', '--repo', repo], { encoding: 'utf8', input: '', env }).stdout;
  const json = JSON.parse(
    spawnSync(process.execPath, [CLI, 'propose', '--repo', repo, '--json'], { encoding: 'utf8', input: '', env }).stdout,
  );
  assert.equal(json.summary, undefined);
  // eslint-disable-next-line no-regex-spaces -- the spaces are the table's alignment, as the person sees it
  const table = /^Summary:\n  Files read  (.+)\n  Rules       (.+)\n  Sections    (.+)\n  Problems    (.+)\n  Operations  (.+)$/m.exec(
    text,
  );
  assert.ok(table, text);
  const [, files, rules, sections, problems, operations] = table;
  assert.equal(files, '2');
  assert.equal(rules, '5');
  const written = json.operations.filter((o: any) => o.content !== null);
  const count = written.reduce((n: number, o: any) => n + (o.content.match(/^## /gm)?.length ?? 0), 0);
  assert.equal(sections, `${count} in the Copilot files the plan writes`);
  assert.match(problems!, new RegExp(`^${json.problems.length} \\(`));
  assert.match(problems!, /1 contradiction/);
  assert.equal(operations, `${json.operations.length} (${json.operations.length} to create)`);
  // It is the last thing propose says (before a one-time notice about .copilot-state/).
  assert.ok(text.indexOf('Summary:') > text.indexOf('Plan '), 'at the end');
  const s = await openSession(t, { repo });
  assert.doesNotMatch(textOf(await s.call('onboarding_propose')), /^Summary:/m);
});

test('propose says the pattern in the same words as analyze', (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agents\n\n## Build\n\n- Use npm to install dependencies.\n\n## Tests\n\n- Run the tests before every commit.\n',
  });
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args, '--repo', repo], { encoding: 'utf8', input: '' }).stdout;
  const line = (text: string) => /^Pattern: .*$/m.exec(text)![0];
  assert.equal(line(run('propose')), line(run('analyze')));
  assert.match(
    line(run('propose')),
    /^Pattern: structured: every file is organised in sections \(rule: a file with headings is structured\); the rules in AGENTS\.md are not in Copilot's files yet\.$/,
  );
  assert.equal(JSON.parse(run('propose', '--json')).patternDetail, JSON.parse(run('analyze', '--json')).patternDetail);
});

test('a mistyped command gets the command it was probably meant to be, and a help line that runs where the person stands', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const r = cli(['analyse', '--repo', repo]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Unknown command: analyse\. Did you mean analyze\?/);
  assert.match(r.stderr, new RegExp(`Run node ${CLI.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} --help for the commands`));
});

test('traces show of a trace that does not exist names the list command with the --repo it was given', (t) => {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  const r = cli(['traces', 'show', 'nope', '--repo', repo]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /No trace named nope\. Run node \S+ traces list --repo \S+ to see their names\./);
  assert.ok(r.stderr.includes(`traces list --repo ${repo}`), r.stderr);
});
