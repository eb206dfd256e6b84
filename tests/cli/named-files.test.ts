import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, sandbox, tempDir, writeFile } from '../helpers/sandbox.js';

/**
 * Issue 27: every file the person names on the command line (`check --baseline FILE`,
 * `check --write-baseline FILE`) is read and written with the rules of the tool's own state: no
 * link on the way, a regular file only (a FIFO never blocks, a device is never read), a bounded
 * size, and an error that quotes nothing of the file. Each case is what a hostile repository could
 * ship where CI runs `check --baseline .github/copilot-onboard-baseline.json`.
 */

const BASELINE = '.github/copilot-onboard-baseline.json';
const SECRET = 'SECRET_TOKEN=hunter2-0123456789abcdef';
const LIMIT = 16 * 1024 * 1024;

/** The built CLI, killed after 20 s so that a read that blocks fails the test instead of hanging it. */
function cli(args: string[], cwd: string) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env, cwd, timeout: 20_000, killSignal: 'SIGKILL' });
  assert.equal(r.signal, null, `the command was killed after 20 s (it blocked): ${args.join(' ')}`);
  return r;
}

/** A repository with a contradiction: `check` exits 1 without a baseline that holds it. */
function messyRepo(t: Parameters<typeof sandbox>[0]): string {
  return sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS });
}

/** A baseline of the repository's findings, written by the CLI itself (to a folder of its own). */
function validBaseline(t: Parameters<typeof sandbox>[0], repo: string): string {
  const dir = tempDir(t, 'named-valid-');
  const w = cli(['check', '--repo', repo, '--write-baseline', 'b.json'], dir);
  assert.equal(w.status, 0, w.stderr);
  return fs.readFileSync(path.join(dir, 'b.json'), 'utf8');
}

/** Refused with exit 2, one line naming the option, never showing the secret anywhere. */
function assertRefused(r: ReturnType<typeof cli>, pattern: RegExp): void {
  assert.equal(r.status, 2, `exit ${r.status}\n${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stdout, '', 'nothing is reported when the named file is refused');
  assert.ok(!`${r.stdout}${r.stderr}`.includes('hunter2'), `the secret was shown:\n${r.stderr}`);
}

test('--baseline naming a FIFO in the repository exits 2 at once, naming it: it never blocks', (t) => {
  const repo = messyRepo(t);
  fs.mkdirSync(path.join(repo, '.github'), { recursive: true });
  execFileSync('mkfifo', [path.join(repo, BASELINE)]);
  const started = Date.now();
  const r = cli(['check', '--baseline', BASELINE], repo);
  assertRefused(r, /--baseline \.github\/copilot-onboard-baseline\.json is a FIFO, not a regular file/);
  assert.ok(Date.now() - started < 15_000);
});

test('--baseline /dev/zero is refused as a device: it is never read', (t) => {
  const repo = messyRepo(t);
  const r = cli(['check', '--baseline', '/dev/zero'], repo);
  assertRefused(r, /--baseline \/dev\/zero is a device, not a regular file/);
});

test('--baseline as a link to an outside file holding a secret: exit 2 naming the link, and the secret is not shown', (t) => {
  const repo = messyRepo(t);
  const outside = tempDir(t, 'named-outside-');
  fs.writeFileSync(path.join(outside, 'secret.env'), `${SECRET}\n`);
  fs.mkdirSync(path.join(repo, '.github'), { recursive: true });
  fs.symlinkSync(path.join(outside, 'secret.env'), path.join(repo, BASELINE));
  for (const named of [BASELINE, path.join(repo, BASELINE)]) {
    const r = cli(['check', '--repo', repo, '--baseline', named], repo);
    assertRefused(
      r,
      /copilot-onboard-baseline\.json is a symlink \(to .*secret\.env\); copilot-onboard reads and writes no file you name through a link/,
    );
    assert.ok(r.stderr.includes(named), `the path is named as given: ${r.stderr}`);
  }
  // The JSON, SARIF and text formats alike: the refusal comes before any output.
  assertRefused(cli(['check', '--format', 'sarif', '--baseline', BASELINE], repo), /is a symlink/);
});

test('--baseline behind a folder link that leaves the repository: refused naming the folder, even when the file there is a valid baseline', (t) => {
  const repo = messyRepo(t);
  const outside = tempDir(t, 'named-outside-');
  fs.writeFileSync(path.join(outside, 'copilot-onboard-baseline.json'), validBaseline(t, repo));
  fs.writeFileSync(path.join(outside, 'secret.json'), `${SECRET}\n`);
  fs.mkdirSync(path.join(repo, 'ci'));
  fs.symlinkSync(outside, path.join(repo, 'ci', 'shared'));
  for (const name of ['copilot-onboard-baseline.json', 'secret.json']) {
    const r = cli(['check', '--baseline', `ci/shared/${name}`], repo);
    assertRefused(r, new RegExp(`--baseline ci/shared/${name.replace('.', '\\.')}: ci/shared is a symlink \\(to `));
  }
});

test('--baseline as a link to a file inside the repository is refused too: a link is never followed', (t) => {
  const repo = messyRepo(t);
  writeFile(repo, 'baselines/real.json', validBaseline(t, repo));
  fs.mkdirSync(path.join(repo, '.github'), { recursive: true });
  fs.symlinkSync('../baselines/real.json', path.join(repo, BASELINE));
  assertRefused(cli(['check', '--baseline', BASELINE], repo), /is a symlink \(to \.\.\/baselines\/real\.json\)/);
  // The real file itself is read.
  assert.equal(cli(['check', '--baseline', 'baselines/real.json'], repo).status, 0);
});

test('--baseline naming a folder, or a file that is not there, exits 2 with a clear line', (t) => {
  const repo = messyRepo(t);
  fs.mkdirSync(path.join(repo, 'baseline.json'));
  assertRefused(cli(['check', '--baseline', 'baseline.json'], repo), /--baseline baseline\.json is a folder, not a regular file/);
  assertRefused(cli(['check', '--baseline', 'missing.json'], repo), /--baseline missing\.json does not exist/);
  assertRefused(cli(['check', '--baseline', '.'], repo), /is a folder, not a regular file/);
});

test('--baseline over the size limit is refused by its size, never read', (t) => {
  const repo = messyRepo(t);
  // A valid baseline padded past the limit: it would be accepted if it were read.
  const valid = validBaseline(t, repo);
  const padded = (size: number) => valid.replace(/\n$/, ' '.repeat(size - Buffer.byteLength(valid) + 1));
  writeFile(repo, 'big.json', padded(LIMIT + 1));
  assert.equal(fs.statSync(path.join(repo, 'big.json')).size, LIMIT + 1);
  assertRefused(
    cli(['check', '--baseline', 'big.json'], repo),
    new RegExp(`--baseline big\\.json is ${LIMIT + 1} bytes, over the ${LIMIT}-byte limit`),
  );
  // At the limit it is read.
  writeFile(repo, 'big.json', padded(LIMIT));
  assert.equal(cli(['check', '--baseline', 'big.json'], repo).status, 0);
});

test('a baseline that is not JSON, or not a baseline, is named without quoting a byte of it', (t) => {
  const repo = messyRepo(t);
  writeFile(repo, 'secret.json', `${SECRET}\n`);
  assertRefused(cli(['check', '--baseline', 'secret.json'], repo), /--baseline secret\.json is not valid JSON$/m);
  writeFile(repo, 'broken.json', `{\n  "tool": "copilot-onboard",\n  hunter2: 1\n}\n`);
  assertRefused(cli(['check', '--baseline', 'broken.json'], repo), /--baseline broken\.json is not valid JSON \(line 3, column 3\)/);
  writeFile(repo, 'other.json', JSON.stringify({ tool: 'hunter2', version: 1, findings: [] }));
  assertRefused(cli(['check', '--baseline', 'other.json'], repo), /--baseline other\.json is not a copilot-onboard baseline \(version 1\)/);
  writeFile(repo, 'nulls.json', JSON.stringify({ tool: 'copilot-onboard', version: 1, findings: [null, { fingerprint: 7 }] }));
  assertRefused(
    cli(['check', '--baseline', 'nulls.json'], repo),
    /--baseline nulls\.json is not a copilot-onboard baseline: findings\[0\] has no fingerprint/,
  );
});

test('a valid baseline still works: in the repository, under the working directory, and anywhere else named by the person', (t) => {
  const repo = messyRepo(t);
  const text = validBaseline(t, repo);
  writeFile(repo, BASELINE, text);
  assert.equal(cli(['check', '--repo', repo, '--baseline', BASELINE], repo).status, 0);
  const elsewhere = tempDir(t, 'named-elsewhere-');
  writeFile(elsewhere, 'kept/b.json', text);
  const work = tempDir(t, 'named-work-');
  const r = cli(['check', '--repo', repo, '--baseline', path.join(elsewhere, 'kept/b.json')], work);
  assert.equal(r.status, 0, r.stderr);
  // With a byte order mark, as some editors save it.
  writeFile(repo, 'bom.json', `\uFEFF${text}`);
  assert.equal(cli(['check', '--baseline', 'bom.json'], repo).status, 0);
});

test('--write-baseline at a link, a FIFO or a folder, or behind a folder link, exits 2 naming it and writes nothing anywhere', (t) => {
  const repo = messyRepo(t);
  const outside = tempDir(t, 'named-outside-');
  fs.writeFileSync(path.join(outside, 'secret.env'), `${SECRET}\n`);
  fs.symlinkSync(path.join(outside, 'secret.env'), path.join(repo, 'linked.json'));
  fs.symlinkSync(path.join(outside, 'not-yet.json'), path.join(repo, 'dangling.json'));
  fs.symlinkSync(outside, path.join(repo, 'out'));
  execFileSync('mkfifo', [path.join(repo, 'fifo.json')]);
  fs.mkdirSync(path.join(repo, 'folder.json'));
  const before = { repo: hashTree(repo), outside: hashTree(outside) };
  const cases: [string, RegExp][] = [
    ['linked.json', /--write-baseline linked\.json is a symlink \(to .*secret\.env\)/],
    ['dangling.json', /--write-baseline dangling\.json is a symlink \(to .*not-yet\.json\)/],
    ['out/b.json', /--write-baseline out\/b\.json: out is a symlink \(to /],
    ['fifo.json', /--write-baseline fifo\.json is a FIFO, not a regular file/],
    ['folder.json', /--write-baseline folder\.json is a folder, not a regular file/],
  ];
  for (const [named, pattern] of cases) assertRefused(cli(['check', '--write-baseline', named], repo), pattern);
  assert.deepEqual(hashTree(repo), before.repo);
  assert.deepEqual(hashTree(outside), before.outside);
  assert.equal(fs.readFileSync(path.join(outside, 'secret.env'), 'utf8'), `${SECRET}\n`);
});

test('--write-baseline writes a real file under the repository, and refuses a path outside it and the working directory', (t) => {
  const repo = messyRepo(t);
  const w = cli(['check', '--write-baseline', BASELINE], repo);
  assert.equal(w.status, 0, w.stderr);
  assert.ok(fs.lstatSync(path.join(repo, BASELINE)).isFile());
  assert.equal(cli(['check', '--baseline', BASELINE], repo).status, 0);
  const outside = tempDir(t, 'named-outside-');
  assertRefused(
    cli(['check', '--repo', repo, '--write-baseline', path.join(outside, 'b.json')], repo),
    /--write-baseline .*b\.json: write it under the working directory or the repository/,
  );
  assert.deepEqual(fs.readdirSync(outside), []);
});

test('a baseline over the limit is never written, so every baseline written can be read back; a file that says nothing of its size is read only to the limit', async (t) => {
  const { readNamedFile, writeNamedFile } = await import('../../server/src/repo/named-file.js');
  const repo = messyRepo(t);
  const file = path.join(repo, 'b.json');
  await assert.rejects(writeNamedFile('--write-baseline', file, repo, 'x'.repeat(11), 10), {
    name: 'BadInputError',
    message: /b\.json would be 11 bytes, over the 10-byte limit for a file named on the command line; nothing was written/,
  });
  assert.ok(!fs.existsSync(file));
  await writeNamedFile('--write-baseline', file, repo, 'x'.repeat(10), 10);
  assert.equal((await readNamedFile('--baseline', file, repo, 10)).toString(), 'x'.repeat(10));
  // /proc files are regular files of size 0 whatever they hold: the read stops past the limit.
  if (!fs.existsSync('/proc/self/environ')) return t.skip('no /proc here');
  assert.equal(fs.statSync('/proc/self/environ').size, 0);
  await assert.rejects(readNamedFile('--baseline', '/proc/self/environ', repo, 4), {
    name: 'BadInputError',
    message: /--baseline \/proc\/self\/environ is \d+ bytes, over the 4-byte limit/,
  });
});
