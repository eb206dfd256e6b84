import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cli, outsideDir } from '../helpers/hostile-repo.js';
import { tempDir } from '../helpers/sandbox.js';

/**
 * Issue 37: outside git, a `.gitignore` that is a FIFO hung `analyze` forever (the walk read it with
 * fs.readFile). Every read goes through the safe reader: a FIFO, a device or a link is never opened
 * for reading, and the walk goes on without that file's rules.
 */

const RULES = '# Rules\n\n- Use pnpm for packages.\n';

test("an archive unpacked outside git brings FIFOs named .gitignore (top and nested): analyze and check finish, the person's files unchanged", (t) => {
  const src = tempDir(t, 'co-archive-src-');
  fs.writeFileSync(path.join(src, 'CLAUDE.md'), RULES);
  fs.mkdirSync(path.join(src, 'pkg'));
  fs.writeFileSync(path.join(src, 'pkg', 'AGENTS.md'), RULES);
  execFileSync('mkfifo', [path.join(src, '.gitignore'), path.join(src, 'pkg', '.gitignore')]);
  const tarball = path.join(tempDir(t, 'co-archive-'), 'a.tar');
  execFileSync('tar', ['-cf', tarball, '-C', src, '.']);
  const home = tempDir(t, 'co-person-');
  fs.writeFileSync(path.join(home, '.env'), 'SECRET=1\n');
  execFileSync('tar', ['-xf', tarball, '-C', home]);
  assert.ok(fs.lstatSync(path.join(home, '.gitignore')).isFIFO());
  for (const args of [
    ['analyze', '--json'],
    ['check', '--format', 'json'],
  ]) {
    const r = cli([...args, '--repo', home], { timeout: 20_000 });
    assert.equal(r.signal, null, `${args[0]} was stopped after 20 s: it blocked on the FIFO`);
    assert.notEqual(r.status, 1, r.stderr);
    const paths = args[0] === 'analyze' ? JSON.parse(r.stdout).sources.map((s: any) => s.path) : [];
    if (args[0] === 'analyze') assert.deepEqual(paths.sort(), ['CLAUDE.md', 'pkg/AGENTS.md']);
  }
  assert.equal(fs.readFileSync(path.join(home, '.env'), 'utf8'), 'SECRET=1\n');
});

test('outside git, a .gitignore that is a link leaving the folder is not followed: its rules hide nothing', (t) => {
  const outside = outsideDir(t);
  fs.writeFileSync(path.join(outside, 'ignore-all'), '*\n');
  const home = tempDir(t, 'co-person-');
  fs.writeFileSync(path.join(home, 'CLAUDE.md'), RULES);
  fs.symlinkSync(path.join(outside, 'ignore-all'), path.join(home, '.gitignore'));
  const r = cli(['analyze', '--json', '--repo', home], { timeout: 20_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    JSON.parse(r.stdout).sources.map((s: any) => s.path),
    ['CLAUDE.md'],
  );
});

test('outside git, a plain .gitignore still hides what it names', (t) => {
  const home = tempDir(t, 'co-person-');
  fs.writeFileSync(path.join(home, 'CLAUDE.md'), RULES);
  fs.mkdirSync(path.join(home, 'gen'));
  fs.writeFileSync(path.join(home, 'gen', 'AGENTS.md'), RULES);
  fs.writeFileSync(path.join(home, '.gitignore'), 'gen/\n');
  const r = cli(['analyze', '--json', '--repo', home], { timeout: 20_000 });
  assert.deepEqual(
    JSON.parse(r.stdout).sources.map((s: any) => s.path),
    ['CLAUDE.md'],
  );
});
