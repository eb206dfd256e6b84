// npm run corpus-report: per repository of ../shared/corpus, what analyze finds and what propose keeps,
// with the time and peak memory of `copilot-onboard analyze` as a whole process. Prints a table.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const CLI = path.join(root, 'server/dist/cli.js');
const CORPUS = path.resolve(root, '../shared/corpus');
if (!fs.existsSync(CORPUS)) {
  console.log(`corpus-report: skipped, ${CORPUS} is absent`);
  process.exit(0);
}

function run(args, cwd) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, CLI, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const [secs, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { json: JSON.parse(r.stdout), secs, mb: kb / 1024 };
}

const nonBlank = (text) => text.split(/\r?\n/).filter((l) => l.trim() !== '').length;
const rows = [];
for (const name of fs
  .readdirSync(CORPUS)
  .filter((n) => fs.statSync(path.join(CORPUS, n)).isDirectory())
  .sort()) {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'co-report-'));
  execFileSync('cp', ['-a', `${path.join(CORPUS, name)}/.`, repo]);
  execFileSync('chmod', ['-R', 'u+w', repo]);
  execFileSync('git', ['init', '-q', repo]);
  const a = run(['analyze', '--json', '--repo', repo]);
  run(['propose', '--json', '--repo', repo]);
  const plan = JSON.parse(fs.readFileSync(path.join(repo, '.copilot-state/plan.json'), 'utf8'));
  const content = a.json.sources.filter((s) => !s.aliasOf && !s.notRule && s.sha256);
  const lines = content.reduce((n, s) => n + nonBlank(fs.readFileSync(path.join(repo, s.path), 'utf8')), 0);
  const merged = plan.merged.reduce((n, m) => n + m.text.split('\n').filter((l) => l.trim() !== '').length, 0);
  const count = (type) => a.json.problems.filter((p) => p.type === type).length;
  rows.push({
    repository: name,
    files: a.json.sources.length,
    pattern: a.json.pattern,
    'source lines': lines,
    'merged (exact dup.)': merged,
    kept: plan.operations.length === 0 ? 'no change' : lines - merged,
    duplications: count('duplication'),
    contradictions: count('contradiction'),
    operations: plan.operations.length,
    'analyze s': a.secs.toFixed(2),
    'analyze MB': a.mb.toFixed(0),
  });
  fs.rmSync(repo, { recursive: true, force: true });
}
console.table(rows);
