// npm run bench: prints speed and memory figures of the CLI on generated repositories.
// Each figure is the median of several whole-process runs (spawn to exit), with peak RSS from /usr/bin/time.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CLI = path.resolve(new URL('..', import.meta.url).pathname, 'server/dist/cli.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function timed(cmd, args, cwd) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr.slice(-500)}`);
  const [secs, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { secs, mb: kb / 1024 };
}

function median(cmd, args, cwd) {
  const runs = Array.from({ length: RUNS }, () => timed(cmd, args, cwd)).sort((a, b) => a.secs - b.secs);
  const mid = runs[Math.floor(runs.length / 2)];
  return { secs: mid.secs, mb: Math.max(...runs.map((r) => r.mb)) };
}

function write(root, rel, text) {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

function mdcRepo(n) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mdc-'));
  execFileSync('git', ['init', '-q', root]);
  for (let i = 0; i < n; i++) {
    const body = Array.from({ length: 12 }, (_, j) => `- Rule ${j} of area ${i}: keep module ${i} handler ${j} small, typed and covered by a focused test.`).join('\n');
    write(root, `.cursor/rules/area-${i}.mdc`, `---\ndescription: Conventions for area ${i}\nglobs: src/area-${i}/**/*.ts, test/area-${i}/**\nalwaysApply: false\n---\n# Area ${i}\n\n${body}\n`);
  }
  return root;
}

function monorepo() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mono-'));
  execFileSync('git', ['init', '-q', root]);
  write(root, '.gitignore', 'node_modules/\ndist/\n');
  write(root, 'AGENTS.md', '# Monorepo\n\n- Use pnpm for all package management.\n- Run tests with vitest.\n');
  for (let p = 0; p < 200; p++) {
    const pkg = `packages/pkg-${p}`;
    for (let f = 0; f < 100; f++) write(root, `${pkg}/src/file-${f}.ts`, `export const v${f} = ${f};\n`);
    for (let f = 0; f < 150; f++) write(root, `${pkg}/node_modules/dep/f-${f}.js`, 'module.exports = 1;\n');
    if (p % 2 === 0) write(root, `${pkg}/AGENTS.md`, `# Package ${p}\n\n- Keep package ${p} free of circular imports.\n- Export only from src/index.ts.\n`);
    else write(root, `${pkg}/.cursor/rules/pkg.mdc`, `---\ndescription: Package ${p}\nglobs: src/**/*.ts\n---\n- Package ${p} handlers validate their input.\n`);
  }
  execFileSync('git', ['-C', root, 'add', '-A']);
  execFileSync('git', ['-C', root, '-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-qm', 'bench']);
  return root;
}

const rows = [];
const row = (figure, r, goal) => rows.push({ figure, seconds: r.secs.toFixed(3), peakMB: r.mb.toFixed(1), goal });

const mdc = mdcRepo(500);
row('500 .mdc rules: analyze (CLI process)', median('node', [CLI, 'analyze', '--json', '--repo', mdc]), '≤ 0.3 s with propose');
row('500 .mdc rules: propose (CLI process)', median('node', [CLI, 'propose', '--json', '--repo', mdc]), '≤ 0.3 s with analyze');

const mono = monorepo();
row('monorepo 20k+30k files: git ls-files -co --exclude-standard', median('git', ['-C', mono, 'ls-files', '-co', '--exclude-standard']), 'reference');
row('monorepo 20k+30k files: analyze (CLI process)', median('node', [CLI, 'analyze', '--json', '--repo', mono]), '≤ 0.5 s, ≤ 60 MB');
row('node -e 0 (Node start-up alone)', median('node', ['-e', '0']), 'reference');

console.log(`copilot-onboard bench (${RUNS} runs each, median time, peak RSS), ${os.cpus().length} cores, Node ${process.version}`);
console.table(rows);
for (const d of [mdc, mono]) fs.rmSync(d, { recursive: true, force: true });
