import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { CLI, connect, openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, readTraces, round, sandbox, tempDir, type Cleanup } from '../helpers/sandbox.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command.
 */

const RULES = '# Rules\n\n- Write a test for every fix.\n- Use pnpm for packages.\n';
const SCOPED = '---\ndescription: API rules\nglobs: src/api/**\nalwaysApply: false\n---\n- Validate every request body.\n';
const VICTIM = "precious bytes that are not the repository's\n";

const GITIGNORE = `# Written by copilot-onboard when it created this folder. The traces (elicitation-traces/,
# sampling-traces/ and trace-chain.json) are meant to be reviewed and may be committed; the rest is
# this machine's working state: full copies of your files (backups/), the plan, the state that
# points at those backups, the journal and the locks (and, outside git, this folder's key).
backups/
plan.json
onboarding.json
journal.json
*.lock
*.lock-owner.json
*.damaged
*.not-written-here-*
clone-key
used-request-states/
.copilot-tmp-*
`;

type Run = ReturnType<typeof spawnSync> & { stdout: string; stderr: string };

function cli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Run {
  return spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    input: '',
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    timeout: opts.timeout ?? 60_000,
  }) as Run;
}

/** A folder outside the repository with a file and a folder a link can point at. */
function outsideDir(t: Cleanup): string {
  const dir = tempDir(t, 'co-outside-');
  fs.writeFileSync(path.join(dir, 'victim.txt'), VICTIM);
  fs.mkdirSync(path.join(dir, 'folder'));
  fs.writeFileSync(path.join(dir, 'folder', 'inner.md'), '- An outside rule.\n');
  fs.mkdirSync(path.join(dir, 'empty'));
  return dir;
}

/** Every entry under `dir`, with its kind, mode, mtime and bytes: any write, create or remove shows. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string) => {
    const st = fs.lstatSync(abs);
    out[rel || '.'] = `dir:${st.mode & 0o7777}:${st.mtimeMs}`;
    for (const name of fs.readdirSync(abs).sort()) {
      const a = path.join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const s = fs.lstatSync(a);
      if (s.isSymbolicLink()) out[r] = `link:${fs.readlinkSync(a)}`;
      else if (s.isDirectory()) walk(a, r);
      else if (s.isFile()) out[r] = `file:${s.mode & 0o7777}:${s.mtimeMs}:${createHash('sha256').update(fs.readFileSync(a)).digest('hex')}`;
      else out[r] = `other:${s.mode}`;
    }
  };
  walk(dir, '');
  return out;
}

function repoWithRules(t: Cleanup): string {
  const repo = sandbox(t, { 'CLAUDE.md': RULES, '.cursor/rules/api.mdc': SCOPED });
  return repo;
}

/**
 * Put a symlink at `rel` when every folder on the way is a real folder of the repository (missing
 * ones are made); false, touching nothing, when one is a link or a file: the test itself must never
 * write through a link it placed earlier.
 */
function placeLink(repo: string, rel: string, target: string): boolean {
  const parts = rel.split('/');
  let dir = repo;
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!st) fs.mkdirSync(dir);
    else if (st.isSymbolicLink() || !st.isDirectory()) return false;
  }
  linkAt(repo, rel, target);
  return true;
}

/** Put a symlink at `rel` in the repository (whatever was there is removed first). */
function linkAt(repo: string, rel: string, target: string): void {
  const abs = path.join(repo, rel);
  fs.rmSync(abs, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.symlinkSync(target, abs);
}

async function proposedAndApproved(repo: string): Promise<void> {
  const s = await connect({ repo, elicit: yesToAll });
  try {
    assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
    assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  } finally {
    await s.close();
  }
}

const json = (r: Run) => JSON.parse(r.stdout) as { outcome: string; message?: string } & Record<string, unknown>;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---------------------------------------------------------------------------------------------
// State files as links

const STATE_FILE_LINKS: Array<[string, 'file' | 'folder']> = [
  ['trace-chain.json', 'file'],
  ['plan.json', 'file'],
  ['onboarding.json', 'file'],
  ['journal.json', 'file'],
  ['operation.lock', 'folder'],
  ['traces.lock-owner.json', 'file'],
  ['.gitignore', 'file'],
];

for (const [name, kind] of STATE_FILE_LINKS) {
  test(`.copilot-state/${name} as a link to an outside ${kind}: analyze, propose, status and traces refuse (exit 2) naming it, and write nothing anywhere`, async (t) => {
    const repo = repoWithRules(t);
    const outside = outsideDir(t);
    assert.equal(cli(['propose', '--json', '--repo', repo]).status, 0);
    linkAt(repo, `.copilot-state/${name}`, path.join(outside, kind === 'file' ? 'victim.txt' : 'folder'));
    const before = snapshot(outside);
    const state = snapshot(path.join(repo, '.copilot-state'));
    const tree = hashTree(repo);
    for (const cmd of ['analyze', 'propose', 'status']) {
      const r = cli([cmd, '--json', '--repo', repo]);
      assert.equal(r.status, 2, `${cmd}: ${r.stdout}${r.stderr}`);
      assert.equal(json(r).outcome, 'precondition_failed', cmd);
      assert.match(String(json(r).message), new RegExp(`\\.copilot-state/${escape(name)}.*link`), cmd);
    }
    const v = cli(['traces', 'verify', '--repo', repo]);
    assert.equal(v.status, 2, v.stderr);
    assert.match(v.stderr, new RegExp(`\\.copilot-state/${escape(name)}`));
    assert.deepEqual(snapshot(outside), before, 'nothing outside changed');
    assert.deepEqual(snapshot(path.join(repo, '.copilot-state')), state, 'nothing in .copilot-state changed either');
    assert.deepEqual(hashTree(repo), tree);
    assert.equal(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8'), VICTIM);
  });
}

for (const name of ['trace-chain.json', 'plan.json', 'onboarding.json', 'journal.json', 'traces.lock']) {
  test(`.copilot-state/${name} as a link to an outside file: migrate is precondition_failed naming it, nobody is asked, nothing changes`, async (t) => {
    const repo = repoWithRules(t);
    const outside = outsideDir(t);
    await proposedAndApproved(repo);
    linkAt(repo, `.copilot-state/${name}`, path.join(outside, 'victim.txt'));
    const before = snapshot(outside);
    const tree = hashTree(repo);
    const s = await openSession(t, { repo, elicit: yesToAll });
    for (const tool of ['onboarding_migrate', 'onboarding_approve', 'onboarding_rollback']) {
      const r = await s.call(tool);
      assert.equal(outcomeOf(r), 'precondition_failed', `${tool}: ${textOf(r)}`);
      assert.match(textOf(r), new RegExp(`\\.copilot-state/${escape(name)}`));
    }
    assert.equal(s.elicitations.length, 0, 'the person is not asked');
    assert.deepEqual(snapshot(outside), before);
    assert.deepEqual(hashTree(repo), tree);
    assert.equal(fs.existsSync(path.join(repo, '.copilot-state/backups')), false, 'no backup was made');
  });
}

// ---------------------------------------------------------------------------------------------
// .copilot-state and its folders as links

test('.copilot-state as a link to an outside folder: every command refuses naming it, and the outside folder stays empty', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.symlinkSync(path.join(outside, 'empty'), path.join(repo, '.copilot-state'));
  const before = snapshot(outside);
  for (const cmd of ['analyze', 'propose', 'status']) {
    const r = cli([cmd, '--json', '--repo', repo]);
    assert.equal(r.status, 2, `${cmd}: ${r.stdout}${r.stderr}`);
    assert.equal(json(r).outcome, 'precondition_failed');
    assert.match(String(json(r).message), /"?\.copilot-state"?.*link/);
  }
  for (const action of ['list', 'verify']) assert.equal(cli(['traces', action, '--repo', repo]).status, 2, action);
  const s = await openSession(t, { repo, elicit: yesToAll });
  for (const tool of [
    'onboarding_analyze',
    'onboarding_propose',
    'onboarding_approve',
    'onboarding_migrate',
    'onboarding_rollback',
    'onboarding_status',
  ]) {
    const r = await s.call(tool);
    assert.equal(outcomeOf(r), 'precondition_failed', `${tool}: ${textOf(r)}`);
    assert.match(textOf(r), /\.copilot-state/);
  }
  assert.equal(s.elicitations.length, 0);
  assert.deepEqual(snapshot(outside), before);
  assert.deepEqual(fs.readdirSync(path.join(outside, 'empty')), []);
});

for (const sub of ['backups', 'elicitation-traces', 'sampling-traces']) {
  test(`.copilot-state/${sub} as a link to an outside folder: analyze and migrate refuse naming it; no backup or trace lands outside`, async (t) => {
    const repo = repoWithRules(t);
    const outside = outsideDir(t);
    await proposedAndApproved(repo);
    linkAt(repo, `.copilot-state/${sub}`, path.join(outside, 'empty'));
    const before = snapshot(outside);
    const tree = hashTree(repo);
    const a = cli(['analyze', '--json', '--repo', repo]);
    assert.equal(a.status, 2, a.stdout);
    assert.match(String(json(a).message), new RegExp(`\\.copilot-state/${sub}`));
    const s = await openSession(t, { repo, elicit: yesToAll });
    const r = await s.call('onboarding_migrate');
    assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
    assert.match(textOf(r), new RegExp(`\\.copilot-state/${sub}`));
    assert.equal(s.elicitations.length, 0);
    assert.deepEqual(snapshot(outside), before);
    assert.deepEqual(fs.readdirSync(path.join(outside, 'empty')), []);
    assert.deepEqual(hashTree(repo), tree);
  });
}

test('a backup folder turned into a link after the migration: rollback refuses naming it, and restores nothing from outside', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  const backups = path.join(repo, '.copilot-state/backups');
  const [id] = fs.readdirSync(backups);
  fs.cpSync(path.join(backups, id!), path.join(outside, 'copy'), { recursive: true });
  linkAt(repo, `.copilot-state/backups/${id}`, path.join(outside, 'copy'));
  const before = snapshot(outside);
  const tree = hashTree(repo);
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
  assert.match(textOf(r), new RegExp(`\\.copilot-state/backups/${escape(id!)}`));
  assert.deepEqual(snapshot(outside), before);
  assert.deepEqual(hashTree(repo), tree);
});

// ---------------------------------------------------------------------------------------------
// Links on the way to the files migrate writes

for (const [what, place, target] of [
  ['.github as a link to an outside folder', '.github', 'outside'],
  ['.github/instructions as a link to an outside folder', '.github/instructions', 'outside'],
  ['.github/instructions as a link to a folder inside the repository', '.github/instructions', 'inside'],
] as const) {
  test(`migrate with ${what}, made after approve: precondition_failed naming it, nobody asked, nothing written anywhere`, async (t) => {
    const repo = repoWithRules(t);
    const outside = outsideDir(t);
    await proposedAndApproved(repo);
    if (target === 'inside') fs.mkdirSync(path.join(repo, 'docs/instructions'), { recursive: true });
    linkAt(repo, place, target === 'inside' ? path.join(repo, 'docs/instructions') : path.join(outside, 'empty'));
    const before = snapshot(outside);
    const tree = hashTree(repo);
    const s = await openSession(t, { repo, elicit: yesToAll });
    const r = await s.call('onboarding_migrate');
    assert.equal(outcomeOf(r), 'precondition_failed', textOf(r));
    assert.match(textOf(r), new RegExp(`"?${escape(place)}"?.*link`));
    assert.equal(s.elicitations.length, 0, 'refused before the person is asked');
    assert.deepEqual(snapshot(outside), before);
    assert.deepEqual(hashTree(repo), tree);
    assert.equal(fs.existsSync(path.join(repo, '.copilot-state/backups')), false);
  });
}

test('a link on the way refused by a gated step is exit 2 from the command line', async () => {
  const { resultForError } = await import('../../server/src/steps/result.js');
  const { UnsafePathError } = await import('../../server/src/common/errors.js');
  const { exitCodeFor } = await import('../../server/src/common/outcomes.js');
  const r = resultForError(new UnsafePathError('.copilot-state', 'is a symlink'));
  assert.equal(r.outcome, 'precondition_failed');
  assert.equal(exitCodeFor(r.outcome, r.badInput), 2);
});

// ---------------------------------------------------------------------------------------------
// setup vscode

test('setup vscode with .vscode as a link to an outside folder: exit 2 naming it, the outside file is neither shown nor written', (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'folder', 'mcp.json'), '{ "servers": { "secret-outside": {} } }\n');
  fs.symlinkSync(path.join(outside, 'folder'), path.join(repo, '.vscode'));
  const before = snapshot(outside);
  const r = cli(['setup', 'vscode', '--repo', repo]);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /\.vscode.*link/);
  assert.doesNotMatch(r.stdout, /secret-outside/);
  assert.deepEqual(snapshot(outside), before);
});

test('setup vscode with .vscode/mcp.json as a link to an outside file: exit 2 naming it', (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'mcp.json'), '{}\n');
  linkAt(repo, '.vscode/mcp.json', path.join(outside, 'mcp.json'));
  const before = snapshot(outside);
  const r = cli(['setup', 'vscode', '--repo', repo]);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /\.vscode\/mcp\.json.*link/);
  assert.deepEqual(snapshot(outside), before);
});

test('setup vscode: .vscode replaced by an outside link after the diff was shown is refused when writing', async (t) => {
  const { planVscodeSetup, applyVscodeSetup } = await import('../../server/src/cli/setup.js');
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.mkdirSync(path.join(repo, '.vscode'));
  const change = await planVscodeSetup(repo);
  assert.ok(change);
  linkAt(repo, '.vscode', path.join(outside, 'empty'));
  const before = snapshot(outside);
  await assert.rejects(applyVscodeSetup(change), /\.vscode.*link/);
  assert.deepEqual(snapshot(outside), before);
});

// ---------------------------------------------------------------------------------------------
// A source that leaves the repository is left out, and blocks nothing

test('AGENTS.md as a link out of the repository is left out, and approve, migrate and rollback go on without it', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'agents.md'), '# Outside\n\n- Use npm for packages.\n');
  fs.symlinkSync(path.join(outside, 'agents.md'), path.join(repo, 'AGENTS.md'));
  const before = snapshot(outside);
  const s = await openSession(t, { repo, elicit: yesToAll });
  const a = await s.call('onboarding_analyze');
  const skipped = (a.structuredContent as { skipped: { path: string; reason: string }[] }).skipped;
  assert.deepEqual(
    skipped.map((x) => `${x.path}:${x.reason}`),
    ['AGENTS.md:symlink_outside'],
  );
  assert.doesNotMatch(textOf(a), /Use npm/);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'proposed');
  assert.ok(!(p.structuredContent as { operations: { path: string }[] }).operations.some((o) => o.path === 'AGENTS.md'));
  const ap = await s.call('onboarding_approve');
  assert.equal(outcomeOf(ap), 'approved', textOf(ap));
  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'migrated', textOf(m));
  assert.equal(fs.readlinkSync(path.join(repo, 'AGENTS.md')), path.join(outside, 'agents.md'));
  const r = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(r), 'rolled_back', textOf(r));
  assert.equal(fs.readlinkSync(path.join(repo, 'AGENTS.md')), path.join(outside, 'agents.md'));
  assert.deepEqual(snapshot(outside), before);
});

test('a source behind a folder link that leaves the repository is left out too, and blocks nothing', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'folder', 'CLAUDE.md'), '- Use yarn.\n');
  fs.symlinkSync(path.join(outside, 'folder'), path.join(repo, 'docs'));
  execFileSync('git', ['-C', repo, 'add', '-A']);
  const before = snapshot(outside);
  const s = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  const ap = await s.call('onboarding_approve');
  assert.equal(outcomeOf(ap), 'approved', textOf(ap));
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.deepEqual(snapshot(outside), before);
});

// ---------------------------------------------------------------------------------------------
// --repo ""

test('--repo "" (an unset shell variable) exits 2 with a clear line, for every command, and never uses the working directory', (t) => {
  const cwd = repoWithRules(t);
  for (const args of [
    ['analyze', '--repo', ''],
    ['analyze', '--repo='],
    ['propose', '--json', '--repo', ''],
    ['status', '--repo', ''],
    ['approve', '--repo', ''],
    ['migrate', '--repo', ''],
    ['rollback', '--repo', ''],
    ['traces', 'verify', '--repo', ''],
    ['traces', 'list', '--repo', ''],
    ['setup', 'vscode', '--repo', ''],
    ['serve', '--repo', ''],
  ]) {
    const r = cli(args, { cwd, env: { ...process.env, COPILOT_ONBOARD_REPO: cwd } });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /--repo is empty/, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, `one clear line: ${r.stderr}`);
  }
  assert.equal(fs.existsSync(path.join(cwd, '.copilot-state')), false, 'nothing was created in the working directory');
  assert.equal(fs.existsSync(path.join(cwd, '.vscode')), false);
});

test('COPILOT_ONBOARD_REPO="" is treated as unset: the working directory is the repository', (t) => {
  const cwd = repoWithRules(t);
  const r = cli(['status', '--json'], { cwd, env: { ...process.env, COPILOT_ONBOARD_REPO: '' } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(json(r).outcome, 'status');
});

// ---------------------------------------------------------------------------------------------
// Odd entries in the trace folders

test('traces verify and list with a folder named x.json, a FIFO and a link in the trace folders: listed as problems, no crash, no hang', async (t) => {
  const repo = repoWithRules(t);
  const outside = outsideDir(t);
  assert.equal(cli(['analyze', '--repo', repo]).status, 0);
  const sampling = path.join(repo, '.copilot-state/sampling-traces');
  const elicitation = path.join(repo, '.copilot-state/elicitation-traces');
  fs.mkdirSync(elicitation, { recursive: true });
  fs.mkdirSync(path.join(sampling, 'x.json'));
  execFileSync('mkfifo', [path.join(elicitation, 'y.json')]);
  fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(sampling, 'z.json'));
  const before = snapshot(outside);
  const v = cli(['traces', 'verify', '--repo', repo], { timeout: 20_000 });
  assert.equal(v.signal, null, 'verify did not hang');
  assert.equal(v.status, 2, v.stdout + v.stderr);
  for (const name of ['sampling-traces/x.json', 'elicitation-traces/y.json', 'sampling-traces/z.json'])
    assert.match(v.stderr, new RegExp(escape(name)));
  assert.doesNotMatch(v.stderr, /Internal error|TypeError|EISDIR|at .*\.js:\d+/);
  assert.doesNotMatch(v.stderr, /precious/);
  const vj = cli(['traces', 'verify', '--json', '--repo', repo], { timeout: 20_000 });
  assert.equal(vj.status, 2);
  assert.ok((JSON.parse(vj.stdout) as { problems: string[] }).problems.length >= 3);
  const l = cli(['traces', 'list', '--repo', repo], { timeout: 20_000 });
  assert.equal(l.signal, null, 'list did not hang');
  assert.equal(l.status, 0, l.stderr);
  assert.doesNotMatch(l.stdout + l.stderr, /precious/);
  // An ordinary command still works, also when it has to look for the newest trace.
  fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
  const a = cli(['analyze', '--repo', repo], { timeout: 20_000 });
  assert.equal(a.signal, null, 'analyze did not hang');
  assert.equal(a.status, 0, a.stderr);
  assert.deepEqual(snapshot(outside), before);
});

// ---------------------------------------------------------------------------------------------
// Honest traces

async function fullFlow(repo: string): Promise<void> {
  const s = await connect({ repo, elicit: yesToAll });
  try {
    await s.call('onboarding_analyze');
    await s.call('onboarding_propose');
    assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
    assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  } finally {
    await s.close();
  }
}

type Traced = Record<string, any> & { _file: string; _kind: string };

function allTraces(repo: string): Traced[] {
  const all: Traced[] = [
    ...readTraces(repo, 'elicitation').map((x) => ({ ...x, _kind: 'elicitation' })),
    ...readTraces(repo, 'sampling').map((x) => ({ ...x, _kind: 'sampling' })),
  ];
  return all.sort((a, b) => a.seq - b.seq);
}

const traceFileOf = (repo: string, x: { _file: string; _kind: string }) => path.join(repo, '.copilot-state', `${x._kind}-traces`, x._file);

for (const [what, damage] of [
  [
    'the newest two traces and trace-chain.json deleted',
    (repo: string) => {
      for (const x of allTraces(repo).slice(-2)) fs.rmSync(traceFileOf(repo, x));
      fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
    },
  ],
  [
    'the newest trace deleted, the chain head kept',
    (repo: string) => {
      fs.rmSync(traceFileOf(repo, allTraces(repo).at(-1)!));
    },
  ],
  [
    'the newest trace edited',
    (repo: string) => {
      const file = traceFileOf(repo, allTraces(repo).at(-1)!);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"migrated"', '"declined"'));
    },
  ],
  [
    'a trace in the middle deleted',
    (repo: string) => {
      fs.rmSync(traceFileOf(repo, allTraces(repo)[1]!));
    },
  ],
  [
    'trace-chain.json deleted',
    (repo: string) => {
      fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
    },
  ],
] as const) {
  test(`${what}: the next command does not heal the chain; verify fails until the break is acknowledged, with a trace saying so`, async (t) => {
    const repo = repoWithRules(t);
    await fullFlow(repo);
    assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 0);
    damage(repo);
    assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 2);
    assert.equal(cli(['analyze', '--repo', repo]).status, 0);
    assert.equal(cli(['status', '--repo', repo]).status, 0);
    const still = cli(['traces', 'verify', '--repo', repo]);
    assert.equal(still.status, 2, `verify must keep failing after an ordinary command: ${still.stdout}`);
    assert.match(still.stderr, /acknowledge/);
    const noReason = cli(['traces', 'acknowledge', '--repo', repo]);
    assert.equal(noReason.status, 2);
    assert.match(noReason.stderr, /--reason/);
    assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 2, 'a refused acknowledgement changes nothing');
    const reason = 'I removed traces by hand while testing';
    const ack = cli(['traces', 'acknowledge', '--reason', reason, '--repo', repo]);
    assert.equal(ack.status, 0, ack.stderr);
    const v = cli(['traces', 'verify', '--repo', repo]);
    assert.equal(v.status, 0, v.stderr);
    const newest = allTraces(repo).at(-1)!;
    assert.equal(newest.action, 'acknowledge');
    assert.equal(newest.outcome, 'acknowledged');
    assert.equal(newest.acknowledged.reason, reason);
    assert.ok(newest.acknowledged.problems.length > 0);
    // What was acknowledged stays acknowledged; the chain goes on as usual.
    assert.equal(cli(['analyze', '--repo', repo]).status, 0);
    assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 0);
  });
}

test('traces acknowledge with nothing to acknowledge writes nothing', async (t) => {
  const repo = repoWithRules(t);
  await fullFlow(repo);
  const before = allTraces(repo).length;
  const r = cli(['traces', 'acknowledge', '--reason', 'just checking', '--repo', repo]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /nothing to acknowledge/i);
  assert.equal(allTraces(repo).length, before);
});

test('a new break after an acknowledgement is reported again', async (t) => {
  const repo = repoWithRules(t);
  await fullFlow(repo);
  fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
  assert.equal(cli(['traces', 'acknowledge', '--reason', 'first', '--repo', repo]).status, 0);
  assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 0);
  fs.rmSync(traceFileOf(repo, allTraces(repo).at(-1)!));
  fs.rmSync(path.join(repo, '.copilot-state/trace-chain.json'));
  assert.equal(cli(['analyze', '--repo', repo]).status, 0);
  assert.equal(cli(['traces', 'verify', '--repo', repo]).status, 2);
});

test('no absolute path of the machine appears in any trace after an error', async (t) => {
  const repo = repoWithRules(t);
  await proposedAndApproved(repo);
  // A file where the backups folder should be: migrate fails while saving the backup.
  fs.writeFileSync(path.join(repo, '.copilot-state/backups'), 'in the way\n');
  const s = await openSession(t, { repo, elicit: yesToAll });
  const r = await s.call('onboarding_migrate');
  assert.notEqual(outcomeOf(r), 'migrated', textOf(r));
  await s.close();
  const real = fs.realpathSync(repo);
  const files = [
    ...readTraces(repo, 'elicitation').map((x) => path.join(repo, '.copilot-state/elicitation-traces', x._file)),
    ...readTraces(repo, 'sampling').map((x) => path.join(repo, '.copilot-state/sampling-traces', x._file)),
    path.join(repo, '.copilot-state/trace-chain.json'),
  ];
  assert.ok(files.length >= 4);
  const migrate = readTraces(repo, 'elicitation').find((x) => x.action === 'migrate')!;
  assert.match(migrate.detail, /\.copilot-state\/backups/, 'the path is still named, relative to the repository');
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes(repo) && !text.includes(real), `${path.basename(file)} holds the repository's absolute path:\n${text}`);
    if (os.homedir().length > 1) assert.ok(!text.includes(os.homedir()), `${path.basename(file)} holds the home folder`);
  }
});

test('paths in a trace are made relative to the repository in every field', async (t) => {
  const { writeElicitationTrace } = await import('../../server/src/state/traces/writer.js');
  const repo = repoWithRules(t);
  const real = fs.realpathSync(repo);
  const file = await writeElicitationTrace(repo, {
    action: 'migrate',
    message: `Write ${real}/.github/copilot-instructions.md`,
    schema: { note: `${repo}/x` },
    response: { action: 'accept', content: { where: repo } },
    outcome: 'error',
    duration_ms: 1,
    planHash: null,
    client: null,
    detail: `ENOENT: no such file or directory, open '${repo}/.copilot-state/backups/x'. The repository is ${real}. Not ${repo}-2 nor ${repo}.git.`,
  });
  const text = fs.readFileSync(file, 'utf8');
  const trace = JSON.parse(text);
  const rest = JSON.stringify({ ...trace, detail: '' });
  assert.ok(!rest.includes(repo) && !rest.includes(real), text);
  assert.equal(trace.message, 'Write .github/copilot-instructions.md');
  assert.equal(
    trace.detail,
    `ENOENT: no such file or directory, open '.copilot-state/backups/x'. The repository is .. Not ${repo}-2 nor ${repo}.git.`,
  );
  assert.equal(trace.response.content.where, '.');
});

// ---------------------------------------------------------------------------------------------
// .copilot-state/.gitignore

test('the first run that creates .copilot-state writes its .gitignore and says so once', (t) => {
  const repo = repoWithRules(t);
  const first = cli(['analyze', '--repo', repo]);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), GITIGNORE);
  assert.equal(first.stdout.match(/\.copilot-state\/\.gitignore/g)?.length, 1, first.stdout);
  const second = cli(['analyze', '--repo', repo]);
  assert.doesNotMatch(second.stdout + second.stderr, /\.gitignore/);
});

test('over MCP, the result text of the run that created .copilot-state says so, and the next does not', async (t) => {
  const repo = repoWithRules(t);
  const s = await openSession(t, { repo });
  const first = await s.call('onboarding_analyze');
  assert.match(textOf(first), /\.copilot-state\/\.gitignore/);
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), GITIGNORE);
  const second = await s.call('onboarding_status');
  assert.doesNotMatch(textOf(second), /\.gitignore/);
});

test('an existing .copilot-state/.gitignore is left as it is, and an existing .copilot-state gets none', async (t) => {
  const repo = repoWithRules(t);
  fs.mkdirSync(path.join(repo, '.copilot-state'));
  fs.writeFileSync(path.join(repo, '.copilot-state/.gitignore'), '# ours\nbackups/\n');
  const r = cli(['propose', '--repo', repo]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), '# ours\nbackups/\n');
  assert.doesNotMatch(r.stdout, /\.gitignore/);
  const other = repoWithRules(t);
  fs.mkdirSync(path.join(other, '.copilot-state'));
  assert.equal(cli(['propose', '--repo', other]).status, 0);
  assert.equal(fs.existsSync(path.join(other, '.copilot-state/.gitignore')), false);
});

test('after a whole flow, git status offers only the traces under .copilot-state/, and .copilot-state is never a source', async (t) => {
  const repo = repoWithRules(t);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
  git('add', '-A');
  git('commit', '-qm', 'init');
  await fullFlow(repo);
  const allowed = /^\?\? \.copilot-state\/(\.gitignore|trace-chain\.json|(elicitation|sampling)-traces\/[^/]+\.json)$/;
  const check = () => {
    const lines = git('status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter((l) => l.includes('.copilot-state'));
    assert.ok(
      lines.some((l) => /elicitation-traces/.test(l)),
      lines.join('\n'),
    );
    for (const l of lines) assert.match(l, allowed);
  };
  check();
  const s = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  await s.close();
  check();
  // An instruction file inside .copilot-state (a backup copy, or a note) is never read as a source.
  fs.mkdirSync(path.join(repo, '.copilot-state/notes'));
  fs.writeFileSync(path.join(repo, '.copilot-state/notes/CLAUDE.md'), '- Not a rule of this repository.\n');
  const a = cli(['analyze', '--json', '--repo', repo]);
  const sources = (json(a) as unknown as { sources: { path: string }[] }).sources.map((x) => x.path);
  assert.ok(sources.length > 0);
  assert.ok(!sources.some((p) => p.startsWith('.copilot-state/')), sources.join(', '));
});

// ---------------------------------------------------------------------------------------------
// Property: random links, a whole accepted flow, nothing outside changes

const STATE_PLACES = [
  '.copilot-state',
  '.copilot-state/backups',
  '.copilot-state/elicitation-traces',
  '.copilot-state/sampling-traces',
  '.copilot-state/trace-chain.json',
  '.copilot-state/plan.json',
  '.copilot-state/onboarding.json',
  '.copilot-state/journal.json',
  '.copilot-state/operation.lock',
  '.copilot-state/traces.lock',
  '.copilot-state/operation.lock-owner.json',
  '.copilot-state/.gitignore',
];
const SOURCE_PLACES = [
  'AGENTS.md',
  'CLAUDE.md',
  'GEMINI.md',
  '.github',
  '.github/copilot-instructions.md',
  '.github/instructions',
  '.github/instructions/api.instructions.md',
  '.cursor/rules',
  '.cursor/rules/api.mdc',
];
const TARGETS = ['victim.txt', 'folder', 'folder/inner.md', 'empty', 'missing-file', 'missing-folder/x.json'];
const STEPS = [
  'onboarding_analyze',
  'onboarding_propose',
  'onboarding_approve',
  'onboarding_migrate',
  'onboarding_rollback',
  'onboarding_status',
];

test('property: links to outside files and folders under .copilot-state and at source places, then a whole accepted flow: nothing outside changes', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(
        fc.record({
          place: fc.constantFrom(...STATE_PLACES, ...SOURCE_PLACES),
          target: fc.constantFrom(...TARGETS),
          before: fc.nat({ max: STEPS.length - 1 }),
        }),
        { minLength: 1, maxLength: 3, selector: (l) => l.place },
      ),
      async (links) => {
        const cleanup = round();
        const repo = sandbox(cleanup, { 'CLAUDE.md': RULES, '.cursor/rules/api.mdc': SCOPED, 'GEMINI.md': '- Prefer small modules.\n' });
        const outside = outsideDir(cleanup);
        try {
          const before = snapshot(outside);
          const s = await connect({ repo, elicit: yesToAll });
          try {
            for (const [i, step] of STEPS.entries()) {
              for (const l of links.filter((x) => x.before === i)) placeLink(repo, l.place, path.join(outside, l.target));
              await s.call(step);
            }
          } finally {
            await s.close();
          }
          assert.deepEqual(snapshot(outside), before, `links: ${JSON.stringify(links)}`);
        } finally {
          await cleanup.done();
        }
      },
    ),
    { numRuns: 20 },
  );
});
