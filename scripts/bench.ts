// npm run bench: prints speed and memory figures of the CLI on generated repositories.
// Each figure is the median of several whole-process runs (spawn to exit), with CPU (user + system) and
// peak RSS from /usr/bin/time, and the machine's load (1-minute average) when the row was measured.
// `node --import tsx scripts/bench.ts --http-only` runs only the HTTP rows: server memory before and after
// 2,000 initializes (authenticated, loopback), and 64 concurrent sessions approving.
// `node --import tsx scripts/bench.ts --scale-only` runs only the scaling rows: the curve of scoped rules
// (1/250/500/1000/2000) against the seconds, CPU and peak memory of analyze, an AGENTS.md of 55,000
// distinct claims, and the bytes of the analyze and propose replies on the big cases. `--huge` (or
// BENCH_HUGE=1) adds 50,000 rule files, generated at bench time. BENCH_CLI runs another build for the
// CLI rows (to compare before and after); the MCP rows use this build, through tests/helpers/mcp.ts.
// `--fleet N` runs only the fleet rows (scripts/bench-fleet.ts): check on N generated repositories with
// a bounded pool of workers, then fleet over the results, whose totals must equal the sum of the parts.
// `--fleet N --batched` runs the organisation workflow's own batching instead (scripts/action/batches.mjs and
// scripts/action/check-batch.mjs: a clone and a check per repository, batches of BENCH_BATCH_SIZE, default 50, each
// checked BENCH_PARALLEL at a time, default 4), measures a fresh install and build, and estimates the
// runner time of N repositories before (a job, an install and a build per repository) and after (built once).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { approveYes, CLI as BUILT_CLI, connect, outcomeOf } from '../tests/helpers/mcp.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : BUILT_CLI;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CURVE_RUNS = Number(process.env.BENCH_CURVE_RUNS ?? 3);
const HUGE = process.argv.includes('--huge') || Boolean(process.env.BENCH_HUGE);

interface Timed {
  secs: number;
  /** User + system seconds of the process. */
  cpu: number;
  mb: number;
  /** The 1-minute load average when the run ended. */
  load: number;
}

function timed(cmd: string, args: string[], cwd?: string): Timed {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr.slice(-500)}`);
  const [secs, user, sys, kb] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [number, number, number, number];
  return { secs, cpu: user + sys, mb: kb / 1024, load: os.loadavg()[0]! };
}

/** The median run by time (its CPU and load with it), and the largest peak memory of all runs. */
function median(cmd: string, args: string[], cwd?: string, runs = RUNS): Timed {
  const all = Array.from({ length: runs }, () => timed(cmd, args, cwd)).sort((a, b) => a.secs - b.secs);
  const mid = all[Math.floor(all.length / 2)]!;
  return { ...mid, mb: Math.max(...all.map((r) => r.mb)) };
}

function write(root: string, rel: string, text: string): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

function mdcRepo(n: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mdc-'));
  execFileSync('git', ['init', '-q', root]);
  for (let i = 0; i < n; i++) {
    const body = Array.from(
      { length: 12 },
      (_, j) => `- Rule ${j} of area ${i}: keep module ${i} handler ${j} small, typed and covered by a focused test.`,
    ).join('\n');
    write(
      root,
      `.cursor/rules/area-${i}.mdc`,
      `---\ndescription: Conventions for area ${i}\nglobs: src/area-${i}/**/*.ts, test/area-${i}/**\nalwaysApply: false\n---\n# Area ${i}\n\n${body}\n`,
    );
  }
  return root;
}

function monorepo(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mono-'));
  execFileSync('git', ['init', '-q', root]);
  write(root, '.gitignore', 'node_modules/\ndist/\n');
  write(root, 'AGENTS.md', '# Monorepo\n\n- Use pnpm for all package management.\n- Run tests with vitest.\n');
  for (let p = 0; p < 200; p++) {
    const pkg = `packages/pkg-${p}`;
    for (let f = 0; f < 100; f++) write(root, `${pkg}/src/file-${f}.ts`, `export const v${f} = ${f};\n`);
    for (let f = 0; f < 150; f++) write(root, `${pkg}/node_modules/dep/f-${f}.js`, 'module.exports = 1;\n');
    if (p % 2 === 0)
      write(
        root,
        `${pkg}/AGENTS.md`,
        `# Package ${p}\n\n- Keep package ${p} free of circular imports.\n- Export only from src/index.ts.\n`,
      );
    else
      write(
        root,
        `${pkg}/.cursor/rules/pkg.mdc`,
        `---\ndescription: Package ${p}\nglobs: src/**/*.ts\n---\n- Package ${p} handlers validate their input.\n`,
      );
  }
  execFileSync('git', ['-C', root, 'add', '-A']);
  execFileSync('git', ['-C', root, '-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-qm', 'bench']);
  return root;
}

// rulesync 17 needs Node 22: the same binary the conformance step uses, installed on first use.
const NODE22 = ((): string => {
  try {
    return execFileSync('bash', [path.join(ROOT, 'scripts/node22.sh')], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
})();
// rulesync is not a dependency (it wants Node 22 and pnpm, so `npm ci` on Node 20 would warn): the
// bench installs this exact version into .tmp/rulesync on first use, and skips its rows if it cannot.
const RULESYNC_VERSION = '17.0.0';
const RULESYNC = ((): string => {
  if (!NODE22) return '';
  const dir = path.join(ROOT, '.tmp/rulesync');
  const cli = path.join(dir, 'node_modules/rulesync/dist/cli/index.js');
  const installed = () => {
    try {
      return (
        JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/rulesync/package.json'), 'utf8')).version === RULESYNC_VERSION &&
        fs.existsSync(cli)
      );
    } catch {
      return false;
    }
  };
  if (!installed()) {
    try {
      fs.mkdirSync(dir, { recursive: true });
      // Its engines ask for Node 22 and pnpm; npm runs on this Node, so its warnings are expected and hidden.
      execFileSync(
        'npm',
        ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', dir, `rulesync@${RULESYNC_VERSION}`],
        { stdio: 'ignore' },
      );
    } catch {
      return '';
    }
  }
  return installed() ? cli : '';
})();
const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** `serve --http --port 0` on loopback with a token of this run's choosing; resolves with its URL. */
async function startHttpServer(token: string): Promise<{ server: ChildProcess; url: string }> {
  const server = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, COPILOT_ONBOARD_HTTP_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${err}`)), 20_000);
      server.stderr!.on('data', (d) => {
        err += String(d);
        const m = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      server.on('exit', () => reject(new Error(`server exited: ${err}`)));
    });
    return { server, url };
  } catch (e) {
    server.kill();
    throw e;
  }
}

/**
 * `serve --http` on loopback, flooded with 2,000 authenticated initializes (20 at a time, each
 * bounded to 10 s, the whole run to 120 s): the server's RSS (from /proc) before and after, and the
 * answers it gave. `close` sends DELETE for each session it got, as a well-behaved client does.
 */
interface Flood {
  before: number;
  after: number;
  statuses: Record<string, number>;
}

async function httpFlood({ close }: { close: boolean }): Promise<Flood> {
  const TOTAL = 2000;
  const token = randomBytes(16).toString('hex');
  const { server, url } = await startHttpServer(token);
  try {
    const rssMB = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = (i: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `flood-${i}`, version: '1' } },
      });
    const one = async (i: number) => {
      const res = await fetch(url, { method: 'POST', headers, body: init(i), signal: AbortSignal.timeout(10_000) });
      await res.text();
      const id = res.headers.get('mcp-session-id');
      if (close && id)
        await (
          await fetch(url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': id }, signal: AbortSignal.timeout(10_000) })
        ).text();
      return res.status;
    };
    await one(-1); // the first initialize loads the server's modules: not part of the flood
    const before = rssMB();
    const statuses: Record<string, number> = {};
    const deadline = Date.now() + 120_000;
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < TOTAL && Date.now() < deadline) {
          const i = next++;
          const status = await one(i).catch((e: Error) => e.name);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      }),
    );
    const after = rssMB();
    return { before, after, statuses };
  } finally {
    server.kill();
  }
}

const floodRow = (label: string, r: Flood): Row => ({
  figure: label,
  seconds: '',
  peakMB: `${r.before.toFixed(1)} → ${r.after.toFixed(1)}`,
  goal: `flat; answers: ${Object.entries(r.statuses)
    .map(([s, n]) => `${n}× ${s}`)
    .join(', ')}`,
});

/**
 * 64 concurrent Streamable HTTP sessions (the server's cap), each approving in its own repository
 * with its own answer.
 */
async function concurrentSessions(): Promise<Row> {
  const N = 64;
  const token = randomBytes(16).toString('hex');
  const { server, url } = await startHttpServer(token);
  try {
    const sessions = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const repo = mdcRepo(1);
        const client = new Client({ name: `session-${i}`, version: '1' }, { capabilities: { elicitation: { form: {} }, roots: {} } });
        client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: `file://${repo}` }] }));
        client.setRequestHandler(ElicitRequestSchema, async () => ({
          action: 'accept',
          content: { approved: true, comment: `answer of session ${i}` },
        }));
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
        );
        await client.callTool({ name: 'onboarding_propose', arguments: {} });
        return { i, repo, client };
      }),
    );
    const t0 = performance.now();
    const results = await Promise.all(sessions.map((s) => s.client.callTool({ name: 'onboarding_approve', arguments: {} })));
    const secs = (performance.now() - t0) / 1000;
    let right = 0;
    for (const s of sessions) {
      const state = JSON.parse(fs.readFileSync(path.join(s.repo, '.copilot-state/onboarding.json'), 'utf8'));
      if (
        state.approval?.comment === `answer of session ${s.i}` &&
        (results[s.i]!.structuredContent as { outcome?: string } | undefined)?.outcome === 'approved'
      )
        right++;
      await s.client.close();
      fs.rmSync(s.repo, { recursive: true, force: true });
    }
    return {
      figure: `${N} concurrent HTTP sessions approving (the session cap)`,
      seconds: secs.toFixed(3),
      peakMB: '',
      goal: `${right}/${N} answers reached their own session`,
    };
  } finally {
    server.kill();
  }
}

const httpRows = async () => [
  floodRow('HTTP: 2,000 initializes, sessions left open: server RSS', await httpFlood({ close: false })),
  floodRow('HTTP: 2,000 initializes, each closed (DELETE): server RSS', await httpFlood({ close: true })),
];

/** The curve: scoped rules against the seconds, CPU and peak memory of analyze (one CLI process each; 1 rule is the start-up). */
interface Point {
  label: string;
  rules: number;
  t: Timed;
}

function scalingCurve(sizes = [1, 250, 500, 1000, 2000]): Point[] {
  const out: Point[] = [];
  for (const n of sizes) {
    const repo = mdcRepo(n);
    try {
      out.push({
        label: `${n} scoped rules`,
        rules: n,
        t: median('node', [CLI, 'analyze', '--json', '--repo', repo], undefined, CURVE_RUNS),
      });
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  }
  return out;
}

/** One more point of the curve, on a repository made by `make` (removed after). */
function point(label: string, rules: number, make: () => string, runs = CURVE_RUNS): Point {
  const repo = make();
  try {
    return { label, rules, t: median('node', [CLI, 'analyze', '--json', '--repo', repo], undefined, runs) };
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

function printCurve(curve: Point[]): void {
  const max = Math.max(...curve.map((c) => c.t.secs), 0.001);
  console.log(`analyze, one CLI process each (median of ${CURVE_RUNS}): wall seconds, CPU seconds (user + system), peak MB, load (1 min)`);
  for (const c of curve) {
    const bar = '#'.repeat(Math.max(1, Math.round((c.t.secs / max) * 40)));
    console.log(
      `${c.label.padEnd(34)} ${c.t.secs.toFixed(2).padStart(7)} s ${c.t.cpu.toFixed(2).padStart(7)} cpu ${c.t.mb.toFixed(0).padStart(5)} MB  load ${c.t.load.toFixed(1).padStart(5)}  ${bar}`,
    );
  }
  const at = (n: number) => curve.find((c) => c.rules === n && c.label.endsWith('scoped rules'));
  const [start, first, last] = [at(1), at(250), at(2000)];
  if (first && last) {
    console.log(
      `2000 scoped rules take ${(last.t.secs / first.t.secs).toFixed(1)}x the time of 250 (${(last.t.cpu / first.t.cpu).toFixed(1)}x the CPU); goal: at most 12x, under 3 s`,
    );
  }
  const five = at(500);
  if (start && five)
    console.log(
      `500 scoped rules: ${five.t.secs.toFixed(2)} s, ${(five.t.secs - start.t.secs).toFixed(2)} s past start-up (1 rule: ${start.t.secs.toFixed(2)} s); stretch goal 0.4 s and 80 MB`,
    );
}

function bulletsRepo(n: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bullets-'));
  execFileSync('git', ['init', '-q', root]);
  write(root, 'AGENTS.md', `# Rules\n\n${'- Keep it simple.\n'.repeat(n)}`);
  return root;
}

/** An AGENTS.md of `n` distinct claims, one per line ("- Use t1k", "- Never run c1l"; numbers in base 36 keep it under the 1 MiB read limit). */
function claimsRepo(n: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-claims-'));
  execFileSync('git', ['init', '-q', root]);
  const lines = Array.from({ length: n }, (_, i) => (i % 2 ? `- Never run c${i.toString(36)}` : `- Use t${i.toString(36)}`));
  write(root, 'AGENTS.md', `# Rules\n\n${lines.join('\n')}\n`);
  return root;
}

function ruleFilesRepo(n: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'));
  execFileSync('git', ['init', '-q', root]);
  for (let i = 0; i < n; i++)
    write(
      root,
      `.cursor/rules/r-${i}.mdc`,
      `---\ndescription: Rule ${i}\nglobs: src/m${i}/**\n---\n- Module ${i} keeps its handlers small.\n`,
    );
  return root;
}

/** Bytes of the analyze and propose results (as JSON on the wire), through the tests' MCP client; a dropped connection is reported as such. */
async function replySizes(label: string, repo: string): Promise<Record<string, string>> {
  const session = await connect({ repo });
  const sizes: Record<string, string> = {};
  try {
    for (const tool of ['onboarding_analyze', 'onboarding_propose']) {
      try {
        const t0 = performance.now();
        const r = await session.client.callTool({ name: tool, arguments: {} }, undefined, { timeout: 900_000 });
        sizes[tool] =
          `${(Buffer.byteLength(JSON.stringify(r)) / 1024).toFixed(0)} KiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      } catch (err) {
        sizes[tool] = `failed: ${String((err as Error).message ?? err).slice(0, 80)}`;
      }
    }
  } finally {
    await session.close().catch(() => {});
  }
  return {
    case: label,
    analyze: sizes.onboarding_analyze!,
    propose: sizes.onboarding_propose!,
    load: os.loadavg()[0]!.toFixed(1),
    goal: 'each well under 1 MiB',
  };
}

async function scaleRows(): Promise<void> {
  const curve = scalingCurve();
  curve.push(point('AGENTS.md of 55,000 distinct claims', 55_000, () => claimsRepo(55_000)));
  if (HUGE) curve.push(point('50,000 rule files', 50_000, () => ruleFilesRepo(50_000), 1));
  printCurve(curve);
  const cases: [string, () => string][] = [
    ['2,000 scoped .mdc rules', () => mdcRepo(2000)],
    ['AGENTS.md of 55,000 identical bullets', () => bulletsRepo(55_000)],
    ['AGENTS.md of 55,000 distinct claims', () => claimsRepo(55_000)],
    ...(HUGE ? ([['50,000 rule files', () => ruleFilesRepo(50_000)]] as [string, () => string][]) : []),
  ];
  const sizes: Record<string, string>[] = [];
  for (const [label, make] of cases) {
    const repo = make();
    try {
      sizes.push(await replySizes(label, repo));
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  }
  console.log('reply sizes (MCP results as JSON), and the time of each call');
  console.table(sizes);
}

const machine = () =>
  `${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, Node ${process.version}`;

const fleetAt = process.argv.indexOf('--fleet');
if (fleetAt >= 0) {
  const n = Number(process.argv[fleetAt + 1]);
  if (!Number.isInteger(n) || n < 1) {
    console.error('npm run bench -- --fleet N: N is the number of repositories (for example 1000)');
    process.exit(2);
  }
  console.log(
    `copilot-onboard bench, fleet of ${n}${process.argv.includes('--batched') ? ', batched as the org workflow' : ''}, ${machine()}, ${CLI}`,
  );
  const { fleetBench, fleetBenchBatched } = await import('./bench-fleet.js');
  process.exit((await (process.argv.includes('--batched') ? fleetBenchBatched(CLI, n) : fleetBench(CLI, n))) ? 0 : 1);
}

if (process.argv.includes('--scale-only')) {
  console.log(`copilot-onboard bench, scaling rows only, ${machine()}, ${CLI}`);
  await scaleRows();
  process.exit(0);
}

if (process.argv.includes('--http-only')) {
  console.log(`copilot-onboard bench, HTTP rows only, ${machine()}`);
  console.table([...(await httpRows()), await concurrentSessions()]);
  process.exit(0);
}

interface Row {
  figure: string;
  seconds: string;
  cpu?: string;
  peakMB: string;
  load?: string;
  goal: string;
}
const rows: Row[] = [];
const row = (figure: string, r: Timed, goal: string) =>
  rows.push({ figure, seconds: r.secs.toFixed(3), cpu: r.cpu.toFixed(2), peakMB: r.mb.toFixed(1), load: r.load.toFixed(1), goal });

/** Spawn, initialize and tools/list: the cold start a client waits for. */
async function coldStart(command: string, args: string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < Math.max(RUNS * 2, 10); i++) {
    const t0 = performance.now();
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
    await client.listTools();
    times.push(performance.now() - t0);
    await client.close();
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]! / 1000;
}

const pct = (xs: number[], p: number): number => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const mdc = mdcRepo(500);
row('500 .mdc rules: analyze (CLI process)', median('node', [CLI, 'analyze', '--json', '--repo', mdc]), '≤ 0.4 s, ≤ 80 MB (issue 13)');
row('500 .mdc rules: propose (CLI process)', median('node', [CLI, 'propose', '--json', '--repo', mdc]), 'next to analyze');

const mono = monorepo();
row(
  'monorepo 20k+30k files: git ls-files -co --exclude-standard',
  median('git', ['-C', mono, 'ls-files', '-co', '--exclude-standard']),
  'reference',
);
row('monorepo 20k+30k files: analyze (CLI process)', median('node', [CLI, 'analyze', '--json', '--repo', mono]), '≤ 0.5 s, ≤ 60 MB');
row(
  'monorepo 20k+30k files: check --format sarif (CLI process)',
  median('node', [CLI, 'check', '--format', 'sarif', '--fail-on', 'none', '--repo', mono]),
  'next to analyze',
);
row('node -e 0 (Node start-up alone)', median('node', ['-e', '0']), 'reference');

// The read-only commands' fixed cost, on one 2-line AGENTS.md analyzed once before (scripts/bench-cold.mjs: the others).
const tiny = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tiny-'));
execFileSync('git', ['init', '-q', tiny]);
write(tiny, 'AGENTS.md', '# Agents\n- Use pnpm.\n');
execFileSync(process.execPath, [CLI, 'analyze', '--repo', tiny], { stdio: 'ignore' });
row(
  'one 2-line AGENTS.md: analyze (CLI process, the fixed cost)',
  median('node', [CLI, 'analyze', '--json', '--repo', tiny]),
  '≤ 0.15 s, ≤ 50 MB',
);

// The same monorepo analyze as a warm tool call on a running server.
{
  const session = await connect({ repo: mono });
  await session.call('onboarding_analyze');
  const times: number[] = [];
  for (let i = 0; i < Math.max(RUNS, 5); i++) {
    const t0 = performance.now();
    await session.call('onboarding_analyze');
    times.push(performance.now() - t0);
  }
  await session.close();
  times.sort((a, b) => a - b);
  rows.push({
    figure: 'monorepo analyze as a warm tool call (stdio)',
    seconds: (pct(times, 50) / 1000).toFixed(3),
    peakMB: '',
    goal: '≤ 0.15 s',
  });
}

// Cold start against the reference filesystem server.
const coldRepo = mdcRepo(1);
const ours = await coldStart(process.execPath, [CLI, 'serve', '--repo', coldRepo]);
const theirs = await coldStart(process.execPath, [FILESYSTEM, coldRepo]);
rows.push({
  figure: 'cold start: spawn, initialize, tools/list (stdio)',
  seconds: ours.toFixed(3),
  peakMB: '',
  goal: `≤ 0.8x server-filesystem: ${(ours / theirs).toFixed(2)}x`,
});
rows.push({ figure: 'cold start: @modelcontextprotocol/server-filesystem', seconds: theirs.toFixed(3), peakMB: '', goal: 'reference' });

// Gate round trip: approve with a client that answers at once; in a git repository (HEAD and
// uncommitted changes are asked of git for the form) and in a plain folder (the gate's own cost).
for (const withGit of [true, false]) {
  const repo = mdcRepo(3);
  if (!withGit) fs.rmSync(path.join(repo, '.git'), { recursive: true, force: true });
  const session = await connect({ repo, elicit: approveYes });
  await session.call('onboarding_propose');
  const times: number[] = [];
  let approved = 0;
  for (let i = 0; i < 1000; i++) {
    const t0 = performance.now();
    approved += outcomeOf(await session.call('onboarding_approve')) === 'approved' ? 1 : 0;
    times.push(performance.now() - t0);
  }
  await session.close();
  times.sort((a, b) => a - b);
  const where = withGit ? 'git repository' : 'folder without git';
  rows.push({
    figure: `gate round trip (approve, instant answer, ${where}), p50 / p99 ms`,
    seconds: `${pct(times, 50).toFixed(1)} / ${pct(times, 99).toFixed(1)} ms`,
    peakMB: '',
    goal: `${withGit ? 'p99 ≤ 5 ms' : 'the floor without git'}; ${approved}/1000 approved`,
  });
  fs.rmSync(repo, { recursive: true, force: true });
}

rows.push(await concurrentSessions(), ...(await httpRows()));

// rulesync 17 on the same inputs, where it does the same job (convert to Copilot, dry run). It needs Node 22.
if (NODE22 && fs.existsSync(NODE22) && RULESYNC) {
  row(
    'rulesync 17: convert 500 .mdc rules to copilot (dry run)',
    median(NODE22, [RULESYNC, 'convert', '--from', 'cursor', '--to', 'copilot', '--features', 'rules', '--dry-run', '--silent'], mdc),
    'comparison',
  );
  row(
    'rulesync 17: convert the monorepo (dry run)',
    median(NODE22, [RULESYNC, 'convert', '--from', 'cursor', '--to', 'copilot', '--features', 'rules', '--dry-run', '--silent'], mono),
    'comparison',
  );
} else {
  rows.push({
    figure: 'rulesync 17',
    seconds: '',
    peakMB: '',
    goal: `skipped: ${NODE22 ? `rulesync@${RULESYNC_VERSION}` : 'Node 22'} could not be installed from the npm registry`,
  });
}

console.log(`copilot-onboard bench (${RUNS} runs each, median time, its CPU and the load then, peak RSS), ${machine()}`);
console.table(rows);
await scaleRows();
for (const d of [mdc, mono, coldRepo, tiny]) fs.rmSync(d, { recursive: true, force: true });
process.exit(0);
