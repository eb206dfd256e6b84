// The fixed cost of the CLI's read-only commands (docs/performance-history.md, "Cold start of the read-only commands"): whole processes
// on a repository of one 2-line AGENTS.md, median wall time, CPU (user + sys) and peak RSS of
// BENCH_RUNS runs (default 7), with the load average printed (the figures move with it).
// `node scripts/bench-cold.mjs` after `npm run build`; BENCH_BEFORE=path/to/other/cli.js runs that
// build too, run by run alternating with this one, to compare before and after.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(root, 'server/dist/cli.js');
const BEFORE = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : null;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function tinyRepo(analyzed) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cold-'));
  execFileSync('git', ['init', '-q', dir]);
  fs.writeFileSync(path.join(dir, 'AGENTS.md'), '# Agents\n- Use pnpm.\n');
  if (analyzed) execFileSync(process.execPath, [CLI, 'analyze', '--repo', dir], { stdio: 'ignore' });
  return dir;
}

/** One process: wall seconds, CPU seconds, peak RSS in MB, from /usr/bin/time. */
function once(args, cwd) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const [wall, user, sys, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, mb: kb / 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const analyzed = tinyRepo(true);
const fresh = tinyRepo(false);
const cases = [
  ['node -e 0 (Node start-up alone)', () => ['-e', '0']],
  ['--version', (cli) => [cli, '--version']],
  ['--help', (cli) => [cli, '--help']],
  ['analyze --json (repository analyzed before)', (cli) => [cli, 'analyze', '--json', '--repo', analyzed], 'goal ≤ 0.15 s, ≤ 50 MB'],
  ['status --json (repository without state)', (cli) => [cli, 'status', '--json', '--repo', fresh]],
  ['status --json (repository analyzed before)', (cli) => [cli, 'status', '--json', '--repo', analyzed]],
  ['traces list --json', (cli) => [cli, 'traces', 'list', '--json', '--repo', analyzed]],
  ['propose --json', (cli) => [cli, 'propose', '--json', '--repo', analyzed]],
];
const builds = BEFORE
  ? [
      ['before', BEFORE],
      ['after', CLI],
    ]
  : [['', CLI]];
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `copilot-onboard cold start, ${RUNS} runs each (median), ${os.cpus().length} cores, Node ${process.version}; load average at start: ${load()}`,
);
const rows = [];
try {
  for (const [label, argsFor, goal] of cases) {
    const samples = new Map(builds.map(([b]) => [b, []]));
    for (let i = 0; i < RUNS; i++) for (const [b, cli] of builds) samples.get(b).push(once(argsFor(cli), os.tmpdir()));
    for (const [b] of builds) {
      const s = samples.get(b);
      rows.push({
        figure: b ? `${label}: ${b}` : label,
        seconds: median(s.map((x) => x.wall)).toFixed(3),
        cpuSeconds: median(s.map((x) => x.cpu)).toFixed(3),
        peakMB: median(s.map((x) => x.mb)).toFixed(1),
        goal: goal ?? '',
      });
      if (label.startsWith('node -e')) break;
    }
  }
} finally {
  for (const d of [analyzed, fresh]) fs.rmSync(d, { recursive: true, force: true });
}
console.table(rows);
console.log(`load average at end: ${load()}`);
