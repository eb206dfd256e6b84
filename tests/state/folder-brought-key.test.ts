/**
 * A folder that arrives from anywhere never acts: built as an attacker would. The attacker seals an
 * "interrupted rollback" of `.env` with a key of their own and ships the key where an earlier build
 * believed it (a `.git` git rejects, a `.git` file or link into the folder, or `.copilot-state/clone-key`
 * with the inode the folder will have), packed with tar or zip and unpacked into a folder that holds
 * the person's `.env`. No step may finish that rollback: `.env`, every mode and `.git` stay as they were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, textOf, yesToAll } from '../helpers/mcp.js';
import { tempDir, writeFile, type Cleanup } from '../helpers/sandbox.js';
import { ATTACKER_KEY, entries, forgeInterruptedRollback, hasZip, keyFileText, SECRET, shipArchive } from '../helpers/forged-state.js';

const RULES = { 'AGENTS.md': '# Agents\n\n- Use pnpm for packages.\n', 'CLAUDE.md': '- Keep functions small.\n' };

function cli(repo: string, ...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args, '--repo', repo], { encoding: 'utf8', input: '', timeout: 60_000 });
}

/** The person's folder: their rules and their `.env`, readable by them alone. */
function personsFolder(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(RULES)) writeFile(dir, rel, content);
  writeFile(dir, '.env', SECRET);
  fs.chmodSync(path.join(dir, '.env'), 0o600);
  return dir;
}

/** What no step may change: every entry but the tool's own state folder (where it may add traces and a plan). */
const persons = (dir: string) => entries(dir, (rel) => rel === '.copilot-state');

/** A git folder git accepts (HEAD, objects, refs), made with git, at `dir` (relative to nothing: moved into place by the caller). */
function realGitFolder(dir: string): void {
  const tmp = `${dir}-init`;
  execFileSync('git', ['init', '-q', '--bare', tmp]);
  fs.renameSync(tmp, dir);
}

type Hostile = (hostile: string, target: string) => void;

const CASES: Record<string, Hostile> = {
  'a plain .git/copilot-onboard/clone-key folder, no HEAD (git says: not a git repository)': (h) => {
    writeFile(h, '.git/copilot-onboard/clone-key', keyFileText(ATTACKER_KEY, null));
  },
  'a .git file saying gitdir: .copilot-state/g (a folder git rejects)': (h) => {
    writeFile(h, '.copilot-state/g/copilot-onboard/clone-key', keyFileText(ATTACKER_KEY, null));
    writeFile(h, '.git', 'gitdir: .copilot-state/g\n');
  },
  'a .git file saying gitdir: .copilot-state/g (a git folder git accepts, inside the work tree)': (h) => {
    realGitFolder(path.join(h, '.copilot-state/g'));
    writeFile(h, '.copilot-state/g/copilot-onboard/clone-key', keyFileText(ATTACKER_KEY, null));
    writeFile(h, '.git', 'gitdir: .copilot-state/g\n');
  },
  'a .git link into the folder (to a folder git rejects)': (h) => {
    writeFile(h, '.copilot-state/g/copilot-onboard/clone-key', keyFileText(ATTACKER_KEY, null));
    fs.symlinkSync('.copilot-state/g', path.join(h, '.git'));
  },
  'a .git link into the folder (to a git folder git accepts)': (h) => {
    realGitFolder(path.join(h, '.copilot-state/g'));
    writeFile(h, '.copilot-state/g/copilot-onboard/clone-key', keyFileText(ATTACKER_KEY, null));
    fs.symlinkSync('.copilot-state/g', path.join(h, '.git'));
  },
  'outside git, .copilot-state/clone-key forged for the inode of the folder it lands in': (h, target) => {
    writeFile(h, '.copilot-state/clone-key', keyFileText(ATTACKER_KEY, fs.statSync(target).ino));
  },
};

/** Every read-only command, and propose, in the CLI, then onboarding_status and onboarding_analyze over MCP: none acts (`all` false: analyze and status alone, for the second archive format). */
async function noStepActs(t: Cleanup, target: string, label: string, all: boolean): Promise<void> {
  const before = persons(target);
  assert.equal(before['.env'], entries(target)['.env']);
  for (const args of all ? [['analyze'], ['status'], ['check'], ['propose']] : [['analyze'], ['status']]) {
    const r = cli(target, ...args);
    assert.doesNotMatch(r.stdout + r.stderr, /Recovered first/, `${label}: ${args[0]}`);
    assert.doesNotMatch(r.stdout + r.stderr, /Internal error/, `${label}: ${args[0]}: ${r.stderr}`);
    assert.equal(fs.readFileSync(path.join(target, '.env'), 'utf8'), SECRET, `${label}: ${args[0]} wrote over .env`);
    assert.deepEqual(persons(target), before, `${label}: ${args[0]} changed the person's folder`);
  }
  if (!all) return;
  const s = await openSession(t, { repo: target, elicit: yesToAll });
  for (const tool of ['onboarding_status', 'onboarding_analyze']) {
    const r = await s.call(tool);
    assert.equal(r.isError, false, `${label}: ${tool}: ${textOf(r)}`);
    assert.equal((r.structuredContent as { recovered?: unknown }).recovered, undefined, `${label}: ${tool}`);
    assert.doesNotMatch(textOf(r), /Recovered/, `${label}: ${tool}`);
    assert.deepEqual(persons(target), before, `${label}: ${tool} changed the person's folder`);
  }
  assert.equal(s.elicitations.length, 0);
}

for (const [name, build] of Object.entries(CASES)) {
  for (const kind of ['tar', 'zip'] as const) {
    test(`an archive (${kind}) with ${name}, unpacked over the person's .env: no step finishes its rollback`, async (t) => {
      if (kind === 'zip' && !hasZip) return t.skip('zip or unzip is not installed on this machine');
      const dir = tempDir(t, 'co-archive-');
      const target = personsFolder(path.join(dir, 'target'));
      const hostile = path.join(dir, 'hostile');
      fs.mkdirSync(hostile);
      forgeInterruptedRollback(hostile);
      build(hostile, target);
      shipArchive(hostile, target, kind);
      await noStepActs(t, target, name, kind === 'tar');
      const st = cli(target, 'status');
      assert.match(st.stdout, /not written here: ignored/, 'the state it brought is reported');
    });
  }
}

test('an archive unpacked at the root of a fresh tmpfs (inode 1), with a key forged for inode 1: no step acts', async (t) => {
  const dir = tempDir(t, 'co-tmpfs-');
  const mount = path.join(dir, 'mnt');
  fs.mkdirSync(mount);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'none', mount], { encoding: 'utf8' });
  if (mounted.status !== 0)
    return t.skip(
      `cannot mount a tmpfs here (needs root and a machine that allows it): ${(mounted.stderr || String(mounted.error)).trim()}`,
    );
  try {
    const root = fs.statSync(mount).ino;
    const target = personsFolder(mount);
    const hostile = path.join(dir, 'hostile');
    fs.mkdirSync(hostile);
    forgeInterruptedRollback(hostile);
    writeFile(hostile, '.copilot-state/clone-key', keyFileText(ATTACKER_KEY, root));
    shipArchive(hostile, target, 'tar');
    await noStepActs(t, target, `tmpfs root (inode ${root})`, true);
  } finally {
    // Lazily: the server of the MCP session may still be running; the folder is then removed with the others.
    spawnSync('umount', ['-l', mount]);
  }
});

test("outside git the key is kept in the user's state folder, never in the folder: a copy has none, a renamed folder keeps its own", (t) => {
  const dir = tempDir(t, 'co-nogit-');
  const repo = personsFolder(path.join(dir, 'a'));
  assert.equal(cli(repo, 'propose').status, 0);
  assert.equal(fs.existsSync(path.join(repo, '.copilot-state/clone-key')), false, 'no key file in the folder');
  const keys = path.join(process.env.COPILOT_ONBOARD_STATE_HOME!, 'clone-keys');
  const key = fs.readdirSync(keys).find((k) => fs.statSync(path.join(keys, k)).mtimeMs >= Date.now() - 60_000);
  assert.ok(key, "the key is in the user's state folder");
  assert.equal(fs.statSync(path.join(keys, key!)).mode & 0o777, 0o600);
  assert.equal(fs.statSync(keys).mode & 0o777, 0o700);
  assert.match(cli(repo, 'status').stdout, /Plan: [0-9a-f]{12}/);

  const copy = path.join(dir, 'copy');
  execFileSync('cp', ['-a', repo, copy]);
  assert.match(cli(copy, 'status').stdout, /Plan: none/, 'a copy carries no key');

  const moved = path.join(dir, 'moved');
  fs.renameSync(repo, moved);
  const st = cli(moved, 'status');
  assert.match(st.stdout, /Plan: [0-9a-f]{12}/, 'a folder renamed on the same file system is the same folder');
  assert.doesNotMatch(st.stdout, /not written here/);
});

test("a .git that git rejects is no git folder: the key goes to the user's state folder, and nothing is written into that .git", (t) => {
  const dir = tempDir(t, 'co-fakegit-');
  const repo = personsFolder(path.join(dir, 'a'));
  fs.mkdirSync(path.join(repo, '.git'));
  assert.equal(cli(repo, 'propose').status, 0);
  assert.deepEqual(fs.readdirSync(path.join(repo, '.git')), [], 'no key in a .git without HEAD');
  assert.match(cli(repo, 'status').stdout, /Plan: [0-9a-f]{12}/, 'the plan is bound all the same');
});
