import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { planRepo, sandbox, tempDir, writeFile, type Cleanup } from '../helpers/sandbox.js';
import { MAX_IMPORTS, MAX_IMPORTS_PER_FILE } from '../../server/src/analysis/discovery/imports.js';

const COPILOT = '.github/copilot-instructions.md';

/** A `git` first on PATH that logs each call, then runs the real one: how many git processes a command starts. */
function gitCounter(t: Cleanup): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const dir = tempDir(t, 'co-git-shim-');
  const log = path.join(dir, 'calls.log');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(path.join(dir, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  return {
    env: { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH}` },
    calls: () => {
      const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
      fs.rmSync(log, { force: true });
      return text.split('\n').filter(Boolean);
    },
  };
}

const imports = (n: number, target: (i: number) => string) => Array.from({ length: n }, (_, i) => `@${target(i)}`).join('\n');

/** A CLAUDE.md of 5,000 import lines: a few files that exist (one ignored), the rest missing. */
function manyImports(t: Cleanup): string {
  return sandbox(t, {
    '.gitignore': '*.local.md\n',
    'CLAUDE.local.md': '- PERSONAL note.\n',
    'docs/style.md': '- Use tabs in Go files.\n',
    'docs/review.md': '- Review every change.\n',
    'CLAUDE.md': `- A shared rule.\n\n@docs/style.md\n@CLAUDE.local.md\n@docs/review.md\n${imports(4997, (i) => `docs/missing-${i}.md`)}\n`,
  });
}

test('a CLAUDE.md of 5,000 import lines: analyze and check start at most three git processes (the listing, the git folder git names, one check-ignore), and say that imports past the cap were not followed', (t) => {
  const repo = manyImports(t);
  const git = gitCounter(t);
  const analyzed = spawnSync(process.execPath, [CLI, 'analyze', '--repo', repo, '--json'], { encoding: 'utf8', env: git.env });
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const calls = git.calls();
  assert.ok(calls.length <= 3, `analyze started ${calls.length} git processes:\n${calls.slice(0, 5).join('\n')}`);
  const out = JSON.parse(analyzed.stdout) as {
    problems: { kind?: string; description: string; locations: { path: string; line: number }[] }[];
  };
  const cap = out.problems.find((p) => p.kind === 'imports-not-followed');
  assert.ok(cap, JSON.stringify(out.problems));
  // The 201st import line, on line 3 + 200, is the first not followed.
  assert.deepEqual(cap.locations, [{ path: 'CLAUDE.md', line: 3 + MAX_IMPORTS_PER_FILE }]);
  assert.match(
    cap.description,
    new RegExp(`CLAUDE\\.md has ${5000 - MAX_IMPORTS_PER_FILE} more import lines from line ${3 + MAX_IMPORTS_PER_FILE} on`),
  );

  const checked = spawnSync(process.execPath, [CLI, 'check', '--repo', repo, '--format', 'json', '--fail-on', 'any'], {
    encoding: 'utf8',
    env: git.env,
  });
  assert.equal(checked.status, 1, checked.stderr);
  assert.ok(git.calls().length <= 3, 'check starts at most three git processes too');
  const report = JSON.parse(checked.stdout) as { findings: { rule: string; kind: string }[] };
  assert.ok(
    report.findings.some((f) => f.rule === 'ambiguity' && f.kind === 'imports-not-followed'),
    checked.stdout,
  );
});

test('analyze of a git repository without state starts one git process, the listing: the git folder is asked for only with state to judge', (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agents\n\n- Use pnpm.\n',
    '.cursor/rules/a.mdc': '---\nglobs: src/**\n---\n- Keep it small.\n',
  });
  spawnSync(process.execPath, [CLI, 'analyze', '--repo', repo], { encoding: 'utf8' }); // creates .copilot-state/ once
  const git = gitCounter(t);
  const analyzed = spawnSync(process.execPath, [CLI, 'analyze', '--repo', repo, '--json'], { encoding: 'utf8', env: git.env });
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const calls = git.calls();
  assert.equal(calls.length, 1, calls.join('\n'));
  assert.match(calls[0]!, / ls-files /);
});

test('the plan places what the first imports name, never the ignored file, and notes the imports it did not follow', async (t) => {
  const repo = manyImports(t);
  const { scan, plan, content } = await planRepo(repo);
  assert.equal(scan.imports.length, MAX_IMPORTS_PER_FILE, 'only the first 200 import lines are followed');
  assert.deepEqual(
    scan.imports.slice(0, 4).map((r) => `${r.raw} ${r.status}`),
    ['docs/style.md followed', 'CLAUDE.local.md ignored', 'docs/review.md followed', 'docs/missing-0.md missing'],
  );
  const out = content(COPILOT)!;
  assert.match(out, /Use tabs in Go files/);
  assert.match(out, /Review every change/);
  assert.doesNotMatch(out, /PERSONAL|^@/m);
  assert.ok(
    plan.notes.some((n) =>
      n.startsWith(
        `CLAUDE.md has ${5000 - MAX_IMPORTS_PER_FILE} more import lines from line ${3 + MAX_IMPORTS_PER_FILE} on that were not followed`,
      ),
    ),
    plan.notes.filter((n) => !n.includes('does not exist')).join('\n'),
  );
});

test('imports are followed up to 1,000 in all: the file that goes past it is named, with how many were not followed', async (t) => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 6; f++)
    files[`pkg${f}/CLAUDE.md`] = `- Rule of package ${f}.\n\n${imports(MAX_IMPORTS_PER_FILE, (i) => `missing-${i}.md`)}\n`;
  const repo = sandbox(t, files);
  const { scan, analysis } = await planRepo(repo);
  assert.equal(scan.imports.length, MAX_IMPORTS);
  assert.deepEqual(scan.importCaps, [{ from: 'pkg5/CLAUDE.md', line: 3, notFollowed: MAX_IMPORTS_PER_FILE, cap: 'total' }]);
  const problem = analysis.problems.find((p) => p.kind === 'imports-not-followed')!;
  assert.match(problem.description, /import lines are followed up to 1000 in all/);
  assert.equal(problem.certainty, 'high');
});

test('an import of a link to a file git ignores, or into .git, is never read; nor is an ignored file named like pathspec magic', async (t) => {
  const repo = sandbox(t, {
    '.gitignore': '*.local.md\n',
    'CLAUDE.local.md': '- PERSONAL note through a link.\n',
    ':(exclude)magic.local.md': '- PERSONAL note named like pathspec magic.\n',
    'CLAUDE.md': '- Shared rule.\n\n@notes.md\n@git-notes.md\n@:(exclude)magic.local.md\n@fine.md\n',
    'fine.md': '- A fine imported rule.\n',
  });
  writeFile(repo, '.git/info/notes.md', '- GIT internal text.\n');
  fs.symlinkSync('CLAUDE.local.md', path.join(repo, 'notes.md'));
  fs.symlinkSync('.git/info/notes.md', path.join(repo, 'git-notes.md'));
  const { scan, content } = await planRepo(repo);
  assert.deepEqual(
    scan.imports.map((r) => `${r.raw} ${r.status}`),
    ['notes.md ignored', 'git-notes.md ignored', ':(exclude)magic.local.md ignored', 'fine.md followed'],
  );
  const out = content(COPILOT)!;
  assert.match(out, /A fine imported rule/);
  assert.doesNotMatch(out, /PERSONAL|GIT internal/);
});

test('imports through a linked folder cost no git process per import: git is never asked about a path beyond a link', async (t) => {
  const files: Record<string, string> = { '.gitignore': '*.local.md\n', 'real/p.local.md': '- PERSONAL behind a link.\n' };
  for (let i = 0; i < 150; i++) files[`real/r${i}.md`] = `- Linked rule ${i}.\n`;
  const list = [...Array.from({ length: 150 }, (_, i) => `@lnk/r${i}.md`), '@lnk/p.local.md'].join('\n');
  const repo = sandbox(t, { ...files, 'CLAUDE.md': `- A shared rule.\n\n${list}\n` });
  fs.symlinkSync('real', path.join(repo, 'lnk'));
  const git = gitCounter(t);
  const r = spawnSync(process.execPath, [CLI, 'analyze', '--repo', repo, '--json'], { encoding: 'utf8', env: git.env });
  assert.equal(r.status, 0, r.stderr);
  const calls = git.calls().filter((c) => c.includes('check-ignore'));
  assert.equal(calls.length, 1, calls.join('\n'));
  const { scan, content } = await planRepo(repo);
  assert.equal(scan.imports.filter((i) => i.status === 'followed').length, 150);
  assert.equal(scan.imports.at(-1)!.status, 'ignored');
  assert.match(content(COPILOT)!, /^- Linked rule 149\.$/m);
  assert.doesNotMatch(content(COPILOT)!, /PERSONAL/);
});
