import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  assertStateTreeReal,
  assertWritable,
  createFile,
  createSymlink,
  ensureFolder,
  LinkRefusedError,
  lockFolder,
  NotAFileError,
  NotAFolderError,
  readFile,
  removeEmptyFolder,
  removeFile,
  removeLinkOrFile,
  removeTree,
  setMode,
  writeFile,
} from '../../server/src/repo/safe-fs.js';
import { tempDir, type Cleanup } from '../helpers/sandbox.js';

function sandbox(t: Cleanup) {
  const repo = tempDir(t, 'co-safe-');
  const outside = tempDir(t, 'co-outside-');
  fs.writeFileSync(path.join(outside, 'victim.txt'), 'precious\n');
  return { repo, outside, victim: path.join(outside, 'victim.txt') };
}

const listing = (dir: string) => fs.readdirSync(dir).sort();

test('writeFile makes the folders on the way, replaces the file whole, keeps its mode, and leaves no temporary file', async (t) => {
  const { repo } = sandbox(t);
  await writeFile(repo, 'a/b/c.txt', 'one\n');
  assert.equal(fs.readFileSync(path.join(repo, 'a/b/c.txt'), 'utf8'), 'one\n');
  fs.chmodSync(path.join(repo, 'a/b/c.txt'), 0o755);
  await writeFile(repo, 'a/b/c.txt', 'two\n');
  assert.equal(fs.readFileSync(path.join(repo, 'a/b/c.txt'), 'utf8'), 'two\n');
  assert.equal(fs.statSync(path.join(repo, 'a/b/c.txt')).mode & 0o777, 0o755);
  await writeFile(repo, 'a/b/c.txt', 'three\n', { mode: 0o600 });
  assert.equal(fs.statSync(path.join(repo, 'a/b/c.txt')).mode & 0o777, 0o600);
  assert.deepEqual(listing(path.join(repo, 'a/b')), ['c.txt']);
});

test('a link at the name, or on the way (to outside or inside), is refused with its path named, and nothing is written', async (t) => {
  const { repo, outside, victim } = sandbox(t);
  const mode = fs.statSync(victim).mode;
  fs.symlinkSync(victim, path.join(repo, 'state.json'));
  await assert.rejects(
    writeFile(repo, 'state.json', 'x'),
    (err: unknown) => err instanceof LinkRefusedError && /"state\.json": is a symlink/.test((err as Error).message),
  );
  fs.symlinkSync(outside, path.join(repo, 'out'));
  await assert.rejects(writeFile(repo, 'out/new.txt', 'x'), /"out": is a symlink/);
  fs.mkdirSync(path.join(repo, 'real'));
  fs.symlinkSync('real', path.join(repo, 'inside'));
  await assert.rejects(writeFile(repo, 'inside/new.txt', 'x'), /"inside": is a symlink/);
  await assert.rejects(createFile(repo, 'out/x.json', 'x'), LinkRefusedError);
  await assert.rejects(ensureFolder(repo, 'out/deeper'), LinkRefusedError);
  await assert.rejects(readFile(repo, 'state.json'), LinkRefusedError);
  await assert.rejects(readFile(repo, 'out/victim.txt'), LinkRefusedError);
  await assert.rejects(removeFile(repo, 'state.json'), LinkRefusedError);
  await assert.rejects(removeTree(repo, 'out'), LinkRefusedError);
  await assert.rejects(setMode(repo, 'state.json', 0o600), LinkRefusedError);
  await assert.rejects(assertWritable(repo, 'out/x.md'), LinkRefusedError);
  await assert.rejects(assertWritable(repo, 'state.json'), LinkRefusedError);
  await assertWritable(repo, 'state.json', { linkAtName: true });
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n');
  assert.deepEqual(listing(outside), ['victim.txt']);
  assert.deepEqual(listing(path.join(repo, 'real')), []);
  assert.equal(fs.statSync(victim).mode, mode);
});

test('a dangling link is refused too: nothing is created where it points', async (t) => {
  const { repo, outside } = sandbox(t);
  fs.symlinkSync(path.join(outside, 'not-yet.json'), path.join(repo, 'plan.json'));
  await assert.rejects(writeFile(repo, 'plan.json', '{}'), LinkRefusedError);
  assert.equal(await createFile(repo, 'plan.json', '{}'), false, 'a name taken by a link is taken');
  assert.deepEqual(listing(outside), ['victim.txt']);
});

test('a folder, FIFO or device where a file is read or written is NotAFileError; a FIFO never blocks', async (t) => {
  const { repo } = sandbox(t);
  fs.mkdirSync(path.join(repo, 'dir.json'));
  execFileSync('mkfifo', [path.join(repo, 'fifo.json')]);
  await assert.rejects(readFile(repo, 'dir.json'), NotAFileError);
  await assert.rejects(readFile(repo, 'fifo.json'), NotAFileError);
  await assert.rejects(writeFile(repo, 'fifo.json', 'x'), NotAFileError);
  await assert.rejects(writeFile(repo, 'dir.json', 'x'), NotAFileError);
  fs.writeFileSync(path.join(repo, 'file'), 'x');
  await assert.rejects(writeFile(repo, 'file/below.txt', 'x'), NotAFolderError);
  assert.equal(await readFile(repo, 'missing.json'), null);
  assert.equal(await readFile(repo, 'missing/x.json'), null);
});

test('createFile is exclusive, removeLinkOrFile removes a link itself, createSymlink makes one', async (t) => {
  const { repo, victim } = sandbox(t);
  assert.equal(await createFile(repo, 'x/a.json', 'first'), true);
  assert.equal(await createFile(repo, 'x/a.json', 'second'), false);
  assert.equal(fs.readFileSync(path.join(repo, 'x/a.json'), 'utf8'), 'first');
  assert.deepEqual(listing(path.join(repo, 'x')), ['a.json']);
  fs.symlinkSync(victim, path.join(repo, 'x/link.md'));
  assert.equal(await removeLinkOrFile(repo, 'x/link.md'), true);
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n');
  await createSymlink(repo, 'x/link.md', '../x/a.json');
  assert.equal(fs.readlinkSync(path.join(repo, 'x/link.md')), '../x/a.json');
});

test('removeTree never follows a link inside; removeEmptyFolder keeps a folder that is not empty', async (t) => {
  const { repo, outside, victim } = sandbox(t);
  fs.mkdirSync(path.join(repo, 'tree/sub'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'tree/sub/f'), 'x');
  fs.symlinkSync(outside, path.join(repo, 'tree/out'));
  fs.symlinkSync(victim, path.join(repo, 'tree/sub/v'));
  assert.equal(await removeTree(repo, 'tree'), true);
  assert.equal(fs.existsSync(path.join(repo, 'tree')), false);
  assert.deepEqual(listing(outside), ['victim.txt']);
  assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n');
  fs.mkdirSync(path.join(repo, 'full'));
  fs.writeFileSync(path.join(repo, 'full/x'), 'x');
  assert.equal(await removeEmptyFolder(repo, 'full'), false);
  fs.mkdirSync(path.join(repo, 'empty'));
  assert.equal(await removeEmptyFolder(repo, 'empty'), true);
});

test('paths that climb out are refused before anything is touched', async (t) => {
  const { repo } = sandbox(t);
  for (const bad of ['../x', '/etc/passwd', 'a/../../x', '']) await assert.rejects(writeFile(repo, bad, 'x'), /Unsafe path/);
});

test('the first write under .copilot-state makes it with its .gitignore, once; an existing .copilot-state gets none', async (t) => {
  const { repo } = sandbox(t);
  await writeFile(repo, '.copilot-state/plan.json', '{}\n');
  assert.match(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), /^backups\/$/m);
  const gitignore = fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8');
  await writeFile(repo, '.copilot-state/onboarding.json', '{}\n');
  assert.equal(fs.readFileSync(path.join(repo, '.copilot-state/.gitignore'), 'utf8'), gitignore);
  const other = sandbox(t).repo;
  fs.mkdirSync(path.join(other, '.copilot-state'));
  await writeFile(other, '.copilot-state/plan.json', '{}\n');
  assert.equal(fs.existsSync(path.join(other, '.copilot-state/.gitignore')), false);
});

test('assertStateTreeReal refuses .copilot-state, any entry in it and any backup as a link', async (t) => {
  const { repo, outside } = sandbox(t);
  assert.equal(await assertStateTreeReal(repo), false, 'no .copilot-state yet');
  fs.symlinkSync(outside, path.join(repo, '.copilot-state'));
  await assert.rejects(assertStateTreeReal(repo), /"\.copilot-state": is a symlink/);
  fs.unlinkSync(path.join(repo, '.copilot-state'));
  fs.mkdirSync(path.join(repo, '.copilot-state/backups'), { recursive: true });
  assert.equal(await assertStateTreeReal(repo), true, '.copilot-state is there');
  fs.symlinkSync(outside, path.join(repo, '.copilot-state/backups/2026'));
  await assert.rejects(assertStateTreeReal(repo), /"\.copilot-state\/backups\/2026"/);
  fs.unlinkSync(path.join(repo, '.copilot-state/backups/2026'));
  fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(repo, '.copilot-state/anything.json'));
  await assert.rejects(assertStateTreeReal(repo), /"\.copilot-state\/anything\.json"/);
});

test('a lock is taken and released through the checked calls; a lock that is a link is refused, its target untouched', async (t) => {
  const { repo, outside } = sandbox(t);
  const release = await lockFolder(repo, '.copilot-state/x.lock', { stale: 10_000, retries: 0, onCompromised: () => {} });
  assert.ok(fs.statSync(path.join(repo, '.copilot-state/x.lock')).isDirectory());
  await release();
  assert.equal(fs.existsSync(path.join(repo, '.copilot-state/x.lock')), false);
  fs.mkdirSync(path.join(outside, 'lockdir'));
  const before = fs.statSync(path.join(outside, 'lockdir')).mtimeMs;
  fs.symlinkSync(path.join(outside, 'lockdir'), path.join(repo, '.copilot-state/y.lock'));
  await assert.rejects(lockFolder(repo, '.copilot-state/y.lock', { stale: 10_000, retries: 0, onCompromised: () => {} }), LinkRefusedError);
  assert.equal(fs.statSync(path.join(outside, 'lockdir')).mtimeMs, before);
  assert.ok(fs.existsSync(path.join(outside, 'lockdir')));
});
