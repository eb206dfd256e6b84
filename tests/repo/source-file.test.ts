import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { RepoPaths } from '../../server/src/repo/repo-path.js';
import { MAX_SOURCE_BYTES, SourceReader } from '../../server/src/repo/source-file.js';
import { sandbox } from '../helpers/sandbox.js';

const readerFor = (repo: string) => new SourceReader(new RepoPaths(repo), fs.realpathSync(repo));

test('the reader resolves a file through a symlinked folder inside the repository to its real path', (t) => {
  const repo = sandbox(t, { 'shared/rules/a.md': '- a\n', 'shared/rules/b.md': '- b\n', 'AGENTS.md': '- root\n' });
  fs.mkdirSync(path.join(repo, 'docs'));
  fs.symlinkSync('../shared/rules', path.join(repo, 'docs/rules'));
  const reader = readerFor(repo);
  for (const name of ['a', 'b']) {
    const read = reader.read(`docs/rules/${name}.md`);
    assert.equal(read.status, 'ok');
    assert.equal(read.status === 'ok' && read.linkTarget, `shared/rules/${name}.md`);
    assert.equal(read.status === 'ok' && read.link, null);
    assert.equal(read.status === 'ok' && read.text, `- ${name}\n`);
  }
  const own = reader.read('AGENTS.md');
  assert.equal(own.status === 'ok' && own.linkTarget, null);
  const direct = reader.read('shared/rules/a.md');
  assert.equal(direct.status === 'ok' && direct.linkTarget, null);
});

test('the reader skips a file in a symlinked folder that leads out, and one that is not there throws ENOENT', (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '- root\n' });
  const outside = sandbox(t, { 'rules/x.md': '- outside\n' });
  fs.symlinkSync(path.join(outside, 'rules'), path.join(repo, 'rules'));
  const reader = readerFor(repo);
  const read = reader.read('rules/x.md');
  assert.equal(read.status, 'skipped');
  assert.equal(read.status === 'skipped' && read.reason, 'symlink_outside');
  assert.match(read.status === 'skipped' ? read.detail : '', /inside a symlinked folder that leaves the repository/);
  assert.throws(() => reader.read('gone.md'), { code: 'ENOENT' });
});

test('the reader keeps a BOM in the text and refuses bytes that are not UTF-8', (t) => {
  const repo = sandbox(t, { 'bom.md': Buffer.from('\ufeff- rule\n'), 'latin1.md': Buffer.from([0x2d, 0x20, 0xe9, 0x0a]) });
  const reader = readerFor(repo);
  const bom = reader.read('bom.md');
  assert.equal(bom.status === 'ok' && bom.text, '\ufeff- rule\n');
  const latin1 = reader.read('latin1.md');
  assert.equal(latin1.status === 'skipped' && latin1.reason, 'not_utf8');
});

test('a scan reads in batches and reports its progress after each', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`.cursor/rules/r${String(i).padStart(2, '0')}.mdc`] = `- Rule ${i} keeps module ${i} small.\n`;
  const repo = sandbox(t, files);
  const reports: [number, number][] = [];
  const scan = await scanRepository(repo, (done, total) => reports.push([done, total]));
  assert.deepEqual(reports, [
    [25, 60],
    [50, 60],
    [60, 60],
  ]);
  assert.equal(scan.docs.length, 60);
});

test('a regular file is read without an lstat, whole, small, large or empty; a link at its name is still seen as a link', (t) => {
  const big = Buffer.from('- rule\n'.repeat(60_000));
  const repo = sandbox(t, { 'AGENTS.md': '- root\n', 'docs/big.md': big, 'docs/empty.md': '', 'docs/rules.md': '- linked\n' });
  fs.symlinkSync('docs/rules.md', path.join(repo, 'CLAUDE.md'));
  const reader = readerFor(repo);
  const lstat = t.mock.method(fs, 'lstatSync');
  const lstatsDuring = <T>(fn: () => T) => {
    const before = lstat.mock.callCount();
    const result = fn();
    return { result, lstats: lstat.mock.callCount() - before };
  };
  for (const [rel, bytes] of [
    ['AGENTS.md', Buffer.from('- root\n')],
    ['docs/big.md', big],
    ['docs/empty.md', Buffer.alloc(0)],
  ] as const) {
    const { result, lstats } = lstatsDuring(() => reader.read(rel));
    assert.equal(lstats, 0, rel);
    assert.ok(result.status === 'ok' && result.bytes.equals(bytes) && result.text === bytes.toString('utf8'), rel);
  }
  const { result: linked, lstats } = lstatsDuring(() => reader.read('CLAUDE.md'));
  assert.equal(lstats, 1);
  assert.ok(linked.status === 'ok');
  assert.equal(linked.link, 'docs/rules.md');
  assert.equal(linked.linkTarget, 'docs/rules.md');
  assert.equal(linked.text, '- linked\n');
});

test('what is no regular file is skipped as before: links out or broken, a folder, a FIFO, a socket, a file over the limit', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '- root\n', 'huge.md': Buffer.alloc(MAX_SOURCE_BYTES + 1, 0x2d) });
  const outside = sandbox(t, { 'x.md': '- outside\n' });
  fs.symlinkSync(path.join(outside, 'x.md'), path.join(repo, 'out.md'));
  fs.symlinkSync('nowhere.md', path.join(repo, 'broken.md'));
  fs.mkdirSync(path.join(repo, 'folder.md'));
  execFileSync('mkfifo', [path.join(repo, 'fifo.md')]);
  const server = net.createServer().listen(path.join(repo, 'socket.md'));
  await once(server, 'listening');
  t.after(() => server.close());
  const reader = readerFor(repo);
  const skip = (rel: string) => {
    const read = reader.read(rel);
    assert.equal(read.status, 'skipped', rel);
    return read.status === 'skipped' ? read : assert.fail(rel);
  };
  assert.equal(skip('out.md').reason, 'symlink_outside');
  assert.match(skip('out.md').detail, /a symlink that leaves the repository/);
  assert.match(skip('broken.md').detail, /is a broken symlink \(its target nowhere\.md does not exist\)/);
  for (const rel of ['folder.md', 'fifo.md', 'socket.md']) {
    assert.equal(skip(rel).reason, 'not_a_file', rel);
    assert.match(skip(rel).detail, /is not a regular file/, rel);
  }
  assert.equal(skip('huge.md').reason, 'too_large');
  assert.equal(skip('huge.md').size, MAX_SOURCE_BYTES + 1);
  assert.throws(() => reader.read('docs/gone.md'), { code: 'ENOENT' });
  assert.equal(reader.read('AGENTS.md').status, 'ok');
});
