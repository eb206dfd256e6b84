import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, openSession, textOf } from '../helpers/mcp.js';
import { sandbox, tempDir, writeFile } from '../helpers/sandbox.js';

/**
 * Issue 37: what `check` cannot read is a finding. A file an assistant reads but check skipped (too
 * large, not UTF-8, in a folder whose name is not UTF-8, binary, unreadable) is reported with its
 * path and why, in every format, and fails the check at every --fail-on but none.
 */

function cli(args: string[]) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  delete env.COPILOT_ONBOARD_REPOSITORY_NAME;
  delete env.GITHUB_REPOSITORY;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env });
}

/** A CLAUDE.md with a contradiction at its top, padded past the 1 MiB read limit. */
const PADDED = Buffer.concat([
  Buffer.from('# Rules\n\n- Always use tabs for indentation.\n- Never use tabs for indentation.\n\n'),
  Buffer.alloc(1100 * 1024, 'a'),
  Buffer.from('\n'),
]);
const CLEAN = '# Guidelines\n\n## Build\n\n- Use pnpm for all package management.\n';

function commit(repo: string): void {
  execFileSync('git', ['-C', repo, 'add', '-A']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x']);
}

test('a CLAUDE.md padded past 1 MiB is an unread finding: check fails at every --fail-on but none, in every format', (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': CLEAN, 'CLAUDE.md': PADDED });
  commit(repo);
  const j = cli(['check', '--repo', repo, '--format', 'json']);
  const report = JSON.parse(j.stdout);
  const unread = report.findings.filter((f: any) => f.rule === 'unread');
  assert.deepEqual(
    unread.map((f: any) => [f.kind, f.locations]),
    [['too-large', [{ path: 'CLAUDE.md', line: 1 }]]],
  );
  assert.match(unread[0].message, /CLAUDE\.md is \d+ bytes, over the 1048576-byte limit/);
  assert.equal(report.failed, true);
  assert.equal(report.counts.unread, 1);
  for (const [level, code] of Object.entries({ contradiction: 1, duplicate: 1, drift: 1, any: 1, none: 0 }))
    assert.equal(cli(['check', '--repo', repo, '--fail-on', level]).status, code, level);

  const text = cli(['check', '--repo', repo]);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /^unread \[too-large, high\] CLAUDE\.md:1: /m);
  assert.doesNotMatch(text.stdout, /No findings/);
  const md = cli(['check', '--repo', repo, '--format', 'markdown']);
  assert.match(md.stdout, /\*\*unread\*\*, ` too-large `, high certainty: ` CLAUDE\.md is \d+ bytes.* at ` CLAUDE\.md:1 `/);
  assert.match(md.stdout, /\| unread \| 1 \| 0 \| 0 \| 1 \|/);
  const sarif = JSON.parse(cli(['check', '--repo', repo, '--format', 'sarif']).stdout);
  const result = sarif.runs[0].results.find((r: any) => r.ruleId === 'copilot-onboard/unread');
  assert.equal(result.level, 'error');
  assert.equal(result.locations[0].physicalLocation.artifactLocation.uri, 'CLAUDE.md');
  assert.ok(sarif.runs[0].tool.driver.rules.some((r: any) => r.id === 'copilot-onboard/unread'));
});

test('a file that is not UTF-8, a binary one, and a rule file in a folder whose name is not UTF-8 are each an unread finding', (t) => {
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': CLEAN,
    'AGENTS.md': Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0x0a]),
    '.cursor/rules/bin.mdc': Buffer.from([0x2d, 0x00, 0x0a]),
  });
  // A folder name of bytes that are not UTF-8 (Linux file names are bytes): made through a Buffer path.
  const odd = Buffer.concat([Buffer.from(path.join(repo, 'pkg-')), Buffer.from([0xff, 0xfe])]);
  fs.mkdirSync(odd);
  fs.writeFileSync(Buffer.concat([odd, Buffer.from('/AGENTS.md')]), '# Rules\n\n- Never use npm.\n');
  commit(repo);
  const r = cli(['check', '--repo', repo, '--format', 'json']);
  assert.equal(r.status, 1, r.stderr);
  const kinds = JSON.parse(r.stdout)
    .findings.filter((f: any) => f.rule === 'unread')
    .map((f: any) => [f.kind, f.locations[0].path]);
  assert.deepEqual(kinds.sort(), [
    ['binary', '.cursor/rules/bin.mdc'],
    ['not-utf8', 'AGENTS.md'],
    ['not-utf8', 'pkg-\uFFFD\uFFFD/AGENTS.md'],
  ]);
  // The text names each one, as git lists it (U+FFFD for each byte that is not UTF-8).
  const text = cli(['check', '--repo', repo]).stdout;
  assert.match(text, /^unread \[not-utf8, high\] pkg-\uFFFD\uFFFD\/AGENTS\.md:1: .*has a name that is not valid UTF-8/m);
});

test("outside git: an archive unpacked beside the person's files brings a padded CLAUDE.md; check fails and names it, the files stay as they were", (t) => {
  const src = tempDir(t, 'co-archive-src-');
  fs.writeFileSync(path.join(src, 'CLAUDE.md'), PADDED);
  const tarball = path.join(tempDir(t, 'co-archive-'), 'a.tar');
  execFileSync('tar', ['-cf', tarball, '-C', src, 'CLAUDE.md']);
  const home = tempDir(t, 'co-person-');
  fs.writeFileSync(path.join(home, '.env'), 'SECRET=1\n');
  writeFile(home, '.github/copilot-instructions.md', CLEAN);
  execFileSync('tar', ['-xf', tarball, '-C', home]);
  const before = fs.readFileSync(path.join(home, '.env'), 'utf8');
  const r = cli(['check', '--repo', home]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^unread \[too-large, high\] CLAUDE\.md:1: /m);
  assert.equal(fs.readFileSync(path.join(home, '.env'), 'utf8'), before);
});

test('MCP onboarding_check carries the unread finding, in its text and its data', async (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': CLEAN, 'CLAUDE.md': PADDED });
  const s = await openSession(t, { repo });
  const r = await s.call('onboarding_check');
  const data = r.structuredContent as any;
  assert.equal(data.failed, true);
  assert.ok(data.findings.some((f: any) => f.rule === 'unread' && f.locations[0].path === 'CLAUDE.md'));
  assert.match(textOf(r), /unread \[too-large, high\] CLAUDE\.md:1/);
});

/** As root every file can be opened: the CLI runs as nobody then (setpriv), else as this user. */
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];
const asOther =
  process.getuid?.() !== 0 ||
  spawnSync('setpriv', [...NOBODY, process.execPath, '-e', `require('node:fs').accessSync(${JSON.stringify(CLI)}, 4)`]).status === 0;

test(
  'a file this process may not open is an unread finding, not a crash that prints an absolute path',
  { skip: asOther ? false : 'running as root, and nobody cannot run the CLI through setpriv here: no way to be denied a file' },
  (t) => {
    const repo = tempDir(t, 'co-denied-');
    fs.writeFileSync(path.join(repo, 'AGENTS.md'), CLEAN);
    fs.mkdirSync(path.join(repo, 'pkg'));
    fs.writeFileSync(path.join(repo, 'pkg', 'CLAUDE.md'), '# Rules\n\n- Never use pnpm.\n');
    fs.chmodSync(repo, 0o755);
    fs.chmodSync(path.join(repo, 'pkg'), 0o755);
    fs.chmodSync(path.join(repo, 'pkg', 'CLAUDE.md'), 0o000);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: os.tmpdir() };
    delete env.COPILOT_ONBOARD_REPO;
    const args = [CLI, 'check', '--repo', repo];
    const r =
      process.getuid?.() === 0
        ? spawnSync('setpriv', [...NOBODY, process.execPath, ...args], { encoding: 'utf8', env })
        : spawnSync(process.execPath, args, { encoding: 'utf8', env });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^unread \[unreadable, high\] pkg\/CLAUDE\.md:1: pkg\/CLAUDE\.md cannot be opened \(permission denied\)/m);
    assert.doesNotMatch(r.stderr + r.stdout, new RegExp(repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  },
);
