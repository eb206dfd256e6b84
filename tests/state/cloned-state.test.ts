/**
 * State that arrives with a cloned repository never acts. Built as an attacker would: a real
 * interrupted migrate (the contract's crash point) whose `.copilot-state` is extended by hand in the
 * tool's own formats (journal, manifest and copies that agree with each other), force-added and
 * committed; a committed approval; then the repository is cloned, the person makes their own edits,
 * and every read-only command and MCP tool runs. The whole clone must stay as it was: content and
 * modes, the git folder's config, refs and hooks folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { CLI, connect, openSession, outcomeOf, textOf, yesToAll } from '../helpers/mcp.js';
import { readTraces, sandbox, tempDir, writeFile, type Cleanup } from '../helpers/sandbox.js';
import { entries } from '../helpers/forged-state.js';

const FILES = {
  '.github/copilot-instructions.md': '# Copilot\n\n- Prefer small pull requests.\n',
  'AGENTS.md': '# Agents\n\n- Write a test for every bug fix.\n- Use pnpm for packages.\n',
  'CLAUDE.md': '- Keep functions small.\n',
  '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n- Validate request bodies.\n',
  'scripts/run.sh': '#!/bin/sh\necho run\n',
};
const EVIL = 'API_KEY=the-attackers-key\n';
const SECRET = 'API_KEY=the-persons-own-secret\n';
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@example.com', ...args], { cwd, encoding: 'utf8', stdio: 'pipe' });
}

function cli(repo: string, ...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args, '--repo', repo], { encoding: 'utf8', input: '', timeout: 60_000 });
}

/** A repository the author committed, with its instruction files. */
function authorRepo(t: Cleanup): string {
  const repo = sandbox(t, FILES);
  fs.chmodSync(path.join(repo, 'scripts/run.sh'), 0o755);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'instructions');
  return repo;
}

/** Commit the author's whole `.copilot-state`, ignored files included, and clone the repository. */
function pushAndClone(t: Cleanup, author: string): string {
  git(author, 'add', '-f', '.copilot-state');
  git(author, 'commit', '-qm', 'state');
  const clone = path.join(tempDir(t, 'co-clone-'), 'clone');
  git(path.dirname(clone), 'clone', '-q', author, clone);
  return clone;
}

/** The person's own work in the clone: an untracked secret, untracked notes, an uncommitted edit. */
function personsEdits(clone: string): void {
  writeFile(clone, '.env', SECRET);
  fs.chmodSync(path.join(clone, '.env'), 0o600);
  writeFile(clone, 'notes/todo.md', '- call the bank\n');
  writeFile(clone, 'notes/draft.md', 'half a thought\n');
  fs.appendFileSync(path.join(clone, 'CLAUDE.md'), '- My own new rule.\n');
}

/**
 * Every entry of the clone a command must leave alone: bytes and modes of files, modes of folders,
 * link targets; the git folder too (config, refs, hooks, HEAD), but for what git itself refreshes
 * (its index), its objects, and the key copilot-onboard keeps there.
 */
const SNAPSHOT_SKIP = new Set(['.copilot-state', '.git/objects', '.git/index', '.git/copilot-onboard', '.git/logs']);
function snapshot(root: string): Record<string, string> {
  return entries(root, (rel) => SNAPSHOT_SKIP.has(rel));
}

/** Crash a migrate while it writes the repository's files (journal phase `apply`, some file changed). */
async function interruptedMigrate(author: string): Promise<void> {
  const s = await connect({ repo: author, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  await s.close();
  for (let n = 1; n < 40; n++) {
    const before = snapshot(author);
    const m = await connect({ repo: author, elicit: yesToAll, env: { COPILOT_ONBOARD_CRASH_AFTER: String(n) } });
    await m.call('onboarding_migrate').catch(() => null);
    await m.close().catch(() => {});
    const journal = path.join(author, '.copilot-state/journal.json');
    if (fs.existsSync(journal) && JSON.parse(fs.readFileSync(journal, 'utf8')).phase === 'apply') {
      const after = snapshot(author);
      if (JSON.stringify(after) !== JSON.stringify(before) || n > 12) return;
    }
    assert.ok(!fs.existsSync(path.join(author, '.copilot-state/onboarding.json')) || n < 39, 'found no crash in the apply phase');
    // Not there yet: undo what this attempt did and approve again, as the person would.
    fs.rmSync(journal, { force: true });
    git(author, 'checkout', '-q', '--', '.');
    git(author, 'clean', '-qfd', '-e', '.copilot-state');
    fs.rmSync(path.join(author, '.copilot-state/backups'), { recursive: true, force: true });
    const again = await connect({ repo: author, elicit: yesToAll });
    await again.call('onboarding_propose');
    await again.call('onboarding_approve');
    await again.close();
  }
  assert.fail('no crash point fell in the apply phase');
}

/**
 * The author's hand-made additions, in the tool's own formats and agreeing with each other: the
 * journal and the manifest name the clone's `.env` (saved bytes: the attacker's), notes to remove, git's
 * config and packed refs, a committed script to make setuid and world-writable, and git's folders to open up.
 */
function forgeJournal(author: string): void {
  const state = path.join(author, '.copilot-state');
  const journalFile = path.join(state, 'journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
  const id = journal.migrationId as string;
  const manifestFile = path.join(state, 'backups', id, 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const script = fs.readFileSync(path.join(author, 'scripts/run.sh'));
  const extra = [
    { path: '.env', before: EVIL, mode: 0o6777 },
    { path: 'notes/todo.md', before: null },
    { path: 'notes/draft.md', before: null },
    { path: '.git/config', before: null },
    { path: '.git/packed-refs', before: null },
    { path: 'scripts/run.sh', before: script, mode: 0o7777 },
  ];
  for (const e of extra) {
    const before = e.before === null ? null : sha(e.before);
    journal.files.push({ path: e.path, beforeSha256: before, afterSha256: sha('x') });
    manifest.files.push({
      path: e.path,
      existed: before !== null,
      sha256: before,
      beforeSha256: before,
      afterSha256: sha('x'),
      backup: before !== null ? `files/${e.path}` : null,
      ...(e.mode !== undefined ? { mode: e.mode } : {}),
    });
    if (e.before !== null) writeFile(path.join(state, 'backups', id), `files/${e.path}`, e.before);
  }
  manifest.createdDirs = [...(manifest.createdDirs ?? []), 'notes'];
  manifest.dirModes = { ...(manifest.dirModes ?? {}), '.git': 0o777, '.git/hooks': 0o777, scripts: 0o777 };
  delete journal.binding;
  delete manifest.binding;
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  fs.writeFileSync(manifestFile, JSON.stringify(manifest));
}

const READ_ONLY_CLI = [
  ['analyze'],
  ['analyze', '--json'],
  ['status'],
  ['status', '--json'],
  ['traces', 'list'],
  ['traces', 'verify'],
  ['check'],
];

test('a committed, hand-extended interrupted migrate acts on nothing in a clone: every read-only command and tool leaves the clone as it was', async (t) => {
  const author = authorRepo(t);
  await interruptedMigrate(author);
  forgeJournal(author);
  const clone = pushAndClone(t, author);
  personsEdits(clone);
  const before = snapshot(clone);
  assert.equal(before['.env'], `file 600 ${sha(SECRET)}`);

  for (const args of READ_ONLY_CLI) {
    const r = cli(clone, ...args);
    assert.ok(r.status === 0 || (args[0] === 'check' && r.status === 1) || args[0] === 'traces', `${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stdout + r.stderr, /Recovered first/, args.join(' '));
    if (args.includes('--json')) assert.ok(JSON.parse(r.stdout).ignoredState.files.includes('.copilot-state/journal.json'), args.join(' '));
    else assert.match(r.stdout + r.stderr, /not written here: ignored/, `${args.join(' ')} reports the ignored state`);
    assert.deepEqual(snapshot(clone), before, `${args.join(' ')} changed the clone`);
  }
  const s = await openSession(t, { repo: clone, elicit: yesToAll });
  for (const tool of ['onboarding_status', 'onboarding_analyze', 'onboarding_check', 'onboarding_propose']) {
    const r = await s.call(tool);
    assert.equal(r.isError, false, `${tool}: ${textOf(r)}`);
    assert.equal((r.structuredContent as { recovered?: unknown }).recovered, undefined, tool);
    assert.deepEqual(snapshot(clone), before, `${tool} changed the clone`);
  }
  for (const tool of ['onboarding_migrate', 'onboarding_rollback']) {
    const r = await s.call(tool);
    assert.equal(outcomeOf(r), 'precondition_failed', `${tool}: ${textOf(r)}`);
    assert.deepEqual(snapshot(clone), before, `${tool} changed the clone`);
  }
  assert.equal(s.elicitations.length, 0, "nobody was asked to go on with the author's migration");
  assert.equal(readTraces(clone, 'elicitation').filter((x) => x.recovery && !x._file.includes('approve')).length, 0);
  assert.ok(fs.existsSync(path.join(clone, '.copilot-state/journal.json')), 'the ignored journal is left where it was');
});

test('a committed approval is no approval in a clone: status says none, migrate refuses, approve asks the person again', async (t) => {
  const author = authorRepo(t);
  const a = await connect({ repo: author, elicit: yesToAll, clientName: 'Visual Studio Code' });
  await a.call('onboarding_propose');
  assert.equal(outcomeOf(await a.call('onboarding_approve')), 'approved');
  await a.close();
  const clone = pushAndClone(t, author);
  const before = snapshot(clone);

  const st = cli(clone, 'status');
  assert.equal(st.status, 0, st.stderr);
  assert.match(st.stdout, /Approval: none/);
  assert.doesNotMatch(st.stdout, /Visual Studio Code/);
  assert.match(st.stdout, /not written here: ignored \(\.copilot-state\/onboarding\.json, \.copilot-state\/plan\.json\)/);

  const s = await openSession(t, { repo: clone, elicit: yesToAll });
  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'precondition_failed', textOf(m));
  assert.equal(s.elicitations.length, 0);
  assert.deepEqual(snapshot(clone), before, 'migrate wrote nothing');

  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.ok(s.elicitations.length > 0, 'the person in the clone was asked');
});

test("a journal sealed in this clone is still acted on only within its plan: git's folder is never touched, and no mode bit is added", async (t) => {
  const { sealed } = await import('../../server/src/state/binding.js');
  const author = authorRepo(t);
  await interruptedMigrate(author);
  // The forgery again, this time sealed with the clone's own key: what a defect elsewhere could leave behind.
  forgeJournal(author);
  const state = path.join(author, '.copilot-state');
  const journalFile = path.join(state, 'journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
  const manifestRel = `.copilot-state/backups/${journal.migrationId}/manifest.json`;
  const manifest = JSON.parse(fs.readFileSync(path.join(author, manifestRel), 'utf8'));
  fs.writeFileSync(journalFile, JSON.stringify(await sealed(author, '.copilot-state/journal.json', journal)));
  fs.writeFileSync(path.join(author, manifestRel), JSON.stringify(await sealed(author, manifestRel, manifest)));
  personsEdits(author);
  const before = snapshot(author);
  const st = cli(author, 'status');
  assert.match(st.stdout + st.stderr, /names a plan|which its plan does not touch|inside git's own folder/);
  assert.deepEqual(snapshot(author), before, 'nothing was restored from it');
});

test("a recovery of this clone's own interrupted migrate names every file it put back or removed, and adds no mode bit", async (t) => {
  const { sealed } = await import('../../server/src/state/binding.js');
  const repo = authorRepo(t);
  const original = snapshot(repo);
  await interruptedMigrate(repo);
  // The planned file's saved mode says setuid and world-writable: restored, it has neither.
  const journal = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/journal.json'), 'utf8'));
  const manifestRel = `.copilot-state/backups/${journal.migrationId}/manifest.json`;
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, manifestRel), 'utf8'));
  const copilot = manifest.files.find((f: { path: string }) => f.path === '.github/copilot-instructions.md');
  assert.ok(copilot?.existed, 'the plan changes the Copilot file');
  copilot.mode = 0o6646;
  fs.writeFileSync(path.join(repo, manifestRel), JSON.stringify(await sealed(repo, manifestRel, manifest)));

  const r = cli(repo, 'status');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr + r.stdout, /Recovered first: .*put back: [^)]*\.github\/copilot-instructions\.md/);
  assert.equal(
    fs.statSync(path.join(repo, '.github/copilot-instructions.md')).mode & 0o7777,
    0o644,
    'no setuid, setgid or world-write added',
  );
  const trace = readTraces(repo, 'elicitation').find((x) => x.recovery);
  assert.ok(trace?.recovery.restored.includes('.github/copilot-instructions.md'), 'the trace names the files');
  const now = snapshot(repo);
  for (const [rel, v] of Object.entries(original)) if (!rel.startsWith('.git')) assert.equal(now[rel], v, rel);
});

test('a folder copied whole, outside git, carries no state that acts: its key belongs to the folder it was made in', async (t) => {
  const dir = tempDir(t, 'co-nogit-');
  const repo = path.join(dir, 'a');
  for (const [rel, content] of Object.entries(FILES)) writeFile(repo, rel, content);
  assert.equal(cli(repo, 'propose').status, 0);
  assert.equal(
    fs.existsSync(path.join(repo, '.copilot-state/clone-key')),
    false,
    "the key is in the user's state folder, not in the folder",
  );
  assert.doesNotMatch(cli(repo, 'status').stdout, /not written here/);
  const copy = path.join(dir, 'b');
  execFileSync('cp', ['-a', repo, copy]);
  const st = cli(copy, 'status');
  assert.match(st.stdout, /Plan: none/);
  assert.match(st.stdout, /not written here: ignored \(\.copilot-state\/onboarding\.json, \.copilot-state\/plan\.json\)/);
});

test('a linked worktree has a key of its own: state copied from the main work tree is ignored there', async (t) => {
  const main = authorRepo(t);
  assert.equal(cli(main, 'propose').status, 0);
  const wt = path.join(tempDir(t, 'co-wt-'), 'wt');
  git(main, 'worktree', 'add', '-q', wt);
  fs.cpSync(path.join(main, '.copilot-state'), path.join(wt, '.copilot-state'), { recursive: true });
  assert.match(cli(wt, 'status').stdout, /Plan: none/);
  assert.equal(cli(wt, 'propose').status, 0);
  assert.match(cli(wt, 'status').stdout, /Plan: [0-9a-f]{12}/);
  assert.match(cli(main, 'status').stdout, /Plan: [0-9a-f]{12}/, 'the main work tree keeps its own');
});

test("the key's folder in .git as a link to an outside folder: propose refuses naming it, and nothing is written there", (t) => {
  const repo = authorRepo(t);
  const outside = tempDir(t, 'co-outside-');
  fs.symlinkSync(outside, path.join(repo, '.git/copilot-onboard'));
  const r = cli(repo, 'propose');
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /copilot-onboard.*symlink/);
  assert.deepEqual(fs.readdirSync(outside), [], 'no key lands outside');
  assert.equal(fs.existsSync(path.join(repo, '.copilot-state/plan.json')), false, 'no plan without its seal');
});
