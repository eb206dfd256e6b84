import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/scan.js';
import { RepoPaths } from '../../server/src/repo/repo-path.js';
import { SourceReader } from '../../server/src/repo/source-file.js';
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
