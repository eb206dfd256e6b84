/**
 * A folder's git configuration runs nothing. Each setting git may run a program for is written by
 * hand into a real repository's `.git/config` (or a hook into `.git/hooks/`, or a file an
 * `include.path` names in the work tree), as an archive would bring it; each program only touches
 * a marker file. analyze, check, propose and status in the CLI, onboarding_status over MCP, and a
 * whole gated migrate with --branch and --commit: no marker appears, and the person's files, their
 * modes and `.git` are as they were (but for what the migrate itself writes and commits).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, outcomeOf, textOf, type ElicitAnswer } from '../helpers/mcp.js';
import { sandbox, tempDir, writeFile, type Cleanup } from '../helpers/sandbox.js';
import { entries } from '../helpers/forged-state.js';

const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

const FILES = {
  'AGENTS.md': '# Agents\n\n- Use pnpm for packages.\n',
  'CLAUDE.md': '# Claude\n\n- Keep functions small.\n',
  'scripts/run.sh': '#!/bin/sh\necho run\n',
};

/** A program that only leaves a marker named `name` in `markers` (it reads nothing: a stdin nobody closes would hang it). */
function program(dir: string, markers: string, name: string): string {
  const file = path.join(dir, `${name}.sh`);
  fs.writeFileSync(file, `#!/bin/sh\ntouch '${path.join(markers, name)}'\nexit 0\n`, { mode: 0o755 });
  return file;
}

const HOOKS = [
  'post-index-change',
  'reference-transaction',
  'post-checkout',
  'pre-auto-gc',
  'prepare-commit-msg',
  'post-commit',
  'pre-commit',
  'commit-msg',
  'post-rewrite',
];

/** Each setting, as the archive's `.git/config` (or work tree) would bring it. */
const SETTINGS: Record<string, (repo: string, run: (name: string) => string, dir: string) => void> = {
  'core.fsmonitor': (repo, run) => git(repo, 'config', 'core.fsmonitor', run('fsmonitor')),
  'hooks in .git/hooks': (repo, run) => {
    for (const h of HOOKS) fs.copyFileSync(run(`hook-${h}`), path.join(repo, '.git/hooks', h));
  },
  'core.hooksPath': (repo, run, dir) => {
    fs.mkdirSync(path.join(dir, 'hooks'));
    for (const h of HOOKS) fs.copyFileSync(run(`hookspath-${h}`), path.join(dir, 'hooks', h));
    git(repo, 'config', 'core.hooksPath', path.join(dir, 'hooks'));
  },
  'filter.<driver>.clean and smudge (attributes in the work tree), required': (repo, run) => {
    git(repo, 'config', 'filter.evil.clean', run('filter-clean'));
    git(repo, 'config', 'filter.evil.smudge', run('filter-smudge'));
    git(repo, 'config', 'filter.evil.required', 'true');
    writeFile(repo, '.gitattributes', '* filter=evil\n');
  },
  'filter.<driver>.process (attributes in .git/info/attributes)': (repo, run) => {
    git(repo, 'config', 'filter.evp.process', run('filter-process'));
    writeFile(repo, '.git/info/attributes', '* filter=evp\n');
  },
  'diff.external, diff.<driver>.textconv and command': (repo, run) => {
    git(repo, 'config', 'diff.external', run('diff-external'));
    git(repo, 'config', 'diff.evil.textconv', run('diff-textconv'));
    git(repo, 'config', 'diff.evil.command', run('diff-command'));
    writeFile(repo, '.git/info/attributes', '* diff=evil\n');
  },
  'core.pager and pager.<command>': (repo, run) => {
    git(repo, 'config', 'core.pager', run('pager'));
    for (const c of ['status', 'log', 'branch', 'config']) git(repo, 'config', `pager.${c}`, run(`pager-${c}`));
  },
  'gpg.program with commit.gpgSign and log.showSignature': (repo, run) => {
    git(repo, 'config', 'gpg.program', run('gpg'));
    git(repo, 'config', 'gpg.ssh.program', run('gpg-ssh'));
    git(repo, 'config', 'commit.gpgSign', 'true');
    git(repo, 'config', 'log.showSignature', 'true');
  },
  'core.editor, sequence.editor': (repo, run) => {
    git(repo, 'config', 'core.editor', run('editor'));
    git(repo, 'config', 'sequence.editor', run('sequence-editor'));
  },
  'core.sshCommand, core.askPass, credential.helper, core.gitProxy': (repo, run) => {
    git(repo, 'config', 'core.sshCommand', run('ssh'));
    git(repo, 'config', 'core.askPass', run('askpass'));
    git(repo, 'config', 'credential.helper', `!${run('credential')}`);
    git(repo, 'config', 'core.gitProxy', run('git-proxy'));
  },
  'gc.auto with a pre-auto-gc hook': (repo, run) => {
    git(repo, 'config', 'gc.auto', '1');
    git(repo, 'config', 'gc.autoDetach', 'false');
    fs.copyFileSync(run('gc-hook-pre-auto-gc'), path.join(repo, '.git/hooks/pre-auto-gc'));
  },
  'include.path naming a file in the work tree (core.fsmonitor in it)': (repo, run) => {
    writeFile(repo, '.gitconfig.project', `[core]\n\tfsmonitor = ${run('included-fsmonitor')}\n`);
    git(repo, 'config', 'include.path', '../.gitconfig.project');
  },
};

/** A committed repository with the setting in place; the work tree's stat made stale so that status must hash files (and run a clean filter). */
function hostileRepo(t: Cleanup, setting: string): { repo: string; markers: string } {
  const repo = sandbox(t, FILES);
  fs.chmodSync(path.join(repo, 'scripts/run.sh'), 0o755);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'instructions');
  const dir = tempDir(t, 'co-programs-');
  const markers = path.join(dir, 'markers');
  fs.mkdirSync(markers);
  SETTINGS[setting]!(repo, (name) => program(dir, markers, name), dir);
  // What git's own writes of the setup (and the clean filter in it) may have marked is not the tool's.
  for (const m of fs.readdirSync(markers)) fs.rmSync(path.join(markers, m));
  const old = new Date('2001-01-01');
  for (const f of Object.keys(FILES)) fs.utimesSync(path.join(repo, f), old, old);
  return { repo, markers };
}

/** The person's files and `.git` (its index and objects aside: git may refresh them; and the key the tool keeps there), as entries. */
const watched = (repo: string) =>
  entries(repo, (rel) => ['.copilot-state', '.git/index', '.git/objects', '.git/copilot-onboard'].includes(rel));

function cli(repo: string, ...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args, '--repo', repo], { encoding: 'utf8', input: '', timeout: 60_000 });
}

for (const setting of Object.keys(SETTINGS)) {
  test(`${setting} in the folder's git config runs nothing during analyze, check, propose and status`, (t) => {
    const { repo, markers } = hostileRepo(t, setting);
    const before = watched(repo);
    for (const step of ['analyze', 'check', 'propose', 'status']) {
      const r = cli(repo, step);
      assert.ok(r.status === 0 || (step === 'check' && r.status === 1), `${step}: ${r.stderr}`);
      assert.deepEqual(fs.readdirSync(markers), [], `${setting}: ${step} ran a program the folder named`);
      assert.deepEqual(watched(repo), before, `${setting}: ${step} changed the person's files or .git`);
    }
  });
}

const answers: ElicitAnswer = (req: any) => {
  const props = req.requestedSchema.properties;
  if ('approved' in props) return { action: 'accept', content: { approved: true } };
  if ('understood_risks' in props) return { action: 'accept', content: { confirmed: true, understood_risks: true } };
  return { action: 'accept', content: { confirmed: true } };
};

test('every setting at once: onboarding_status over MCP, and a whole migrate with --branch and --commit, run nothing the folder named', async (t) => {
  const repo = sandbox(t, FILES);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'instructions');
  const dir = tempDir(t, 'co-programs-');
  const markers = path.join(dir, 'markers');
  fs.mkdirSync(markers);
  let n = 0;
  for (const setup of Object.values(SETTINGS)) {
    const sub = path.join(dir, `s${n++}`);
    fs.mkdirSync(sub);
    setup(repo, (name) => program(sub, markers, name), sub);
  }
  // The attributes of the two filter settings: both filters on every file.
  writeFile(repo, '.git/info/attributes', '* filter=evp diff=evil\n');
  for (const m of fs.readdirSync(markers)) fs.rmSync(path.join(markers, m));
  const old = new Date('2001-01-01');
  for (const f of Object.keys(FILES)) fs.utimesSync(path.join(repo, f), old, old);

  const s = await openSession(t, { repo, elicit: answers, args: ['--branch', 'copilot-onboarding', '--commit'] });
  const status = await s.call('onboarding_status');
  assert.equal(status.isError, false, textOf(status));
  assert.deepEqual(fs.readdirSync(markers), [], 'onboarding_status ran a program the folder named');
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', textOf(migrated));
  assert.match(textOf(migrated), /Committed as [0-9a-f]+/);
  assert.deepEqual(fs.readdirSync(markers), [], 'the gated migrate and its commit ran a program the folder named');
  assert.equal(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD'), 'copilot-onboarding');
  assert.equal(
    git(repo, '-c', 'log.showSignature=false', 'log', '-1', '--format=%G?'),
    'N',
    'the commit is not signed: no signing program ran',
  );
});
