// node scripts/bench-imports.mjs [N ...]: the seconds analyze and check take over a CLAUDE.md of N
// `@path` import lines (default 2,000 and 20,000), against an empty repository's start-up, and how many
// git processes each run starts (through a `git` on PATH that logs each call, then runs the real one).
// Three shapes: every target missing, every target one of 300 existing files (imported again and again),
// and every target one of 300 existing files git ignores. BENCH_CLI runs another build (to compare before and after).
// Figures are printed, never asserted (docs/performance.md).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.resolve(process.env.BENCH_CLI ?? path.join(ROOT, 'server/dist/cli.js'));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SIZES = process.argv.slice(2).map(Number).filter(Boolean);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-imports-'));
const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const shimDir = path.join(work, 'bin');
const log = path.join(work, 'git-calls.log');
fs.mkdirSync(shimDir);
fs.writeFileSync(path.join(shimDir, 'git'), `#!/bin/sh\necho x >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });

function repo(name, files) {
  const dir = path.join(work, name);
  execFileSync('git', ['init', '-q', dir]);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const lines = (n, target) => Array.from({ length: n }, (_, i) => `@${target(i)}`).join('\n') + '\n';

function shapes(n) {
  const docs = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`docs/d${i}.md`, `- Rule number ${i} of the docs.\n`]));
  const local = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}.local.md`, `- Personal note ${i}.\n`]));
  return {
    missing: { 'CLAUDE.md': '- A rule.\n\n' + lines(n, (i) => `docs/missing-${i}.md`) },
    existing: { 'CLAUDE.md': '- A rule.\n\n' + lines(n, (i) => `docs/d${i % 300}.md`), ...docs },
    ignored: { '.gitignore': '*.local.md\n', 'CLAUDE.md': '- A rule.\n\n' + lines(n, (i) => `p${i % 300}.local.md`), ...local },
  };
}

/** The median wall-clock seconds of RUNS runs, and the git processes one run starts. */
function timed(args) {
  const secs = [];
  let calls = 0;
  for (let r = 0; r < RUNS; r++) {
    fs.rmSync(log, { force: true });
    const start = process.hrtime.bigint();
    const out = spawnSync(process.execPath, [CLI, ...args], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${shimDir}:${process.env.PATH}` },
      maxBuffer: 256 * 1024 * 1024,
    });
    secs.push(Number(process.hrtime.bigint() - start) / 1e9);
    if (out.status !== 0 && out.status !== 1) throw new Error(`${args.join(' ')}: exit ${out.status}\n${out.stderr.slice(-400)}`);
    calls = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
  }
  secs.sort((a, b) => a - b);
  return { secs: secs[Math.floor(secs.length / 2)], calls };
}

const row = (label, t, base) =>
  console.log(
    `${label.padEnd(34)} ${t.secs.toFixed(2).padStart(7)} s  (${(t.secs - base).toFixed(2).padStart(6)} s past start-up)  ${String(t.calls).padStart(6)} git processes`,
  );

const empty = repo('empty', { 'CLAUDE.md': '- A rule.\n' });
const base = { analyze: timed(['analyze', '--repo', empty, '--json']), check: timed(['check', '--repo', empty, '--format', 'json']) };
row('start-up: analyze, one rule', base.analyze, base.analyze.secs);
row('start-up: check, one rule', base.check, base.check.secs);
for (const n of SIZES.length ? SIZES : [2000, 20000]) {
  for (const [shape, files] of Object.entries(shapes(n))) {
    const dir = repo(`${shape}-${n}`, files);
    row(`analyze, ${n} imports, ${shape}`, timed(['analyze', '--repo', dir, '--json']), base.analyze.secs);
    row(`check, ${n} imports, ${shape}`, timed(['check', '--repo', dir, '--format', 'json']), base.check.secs);
  }
}
fs.rmSync(work, { recursive: true, force: true });
