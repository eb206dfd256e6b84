// npm run bench: prints speed and memory figures of the CLI on generated repositories.
// Each figure is the median of several whole-process runs (spawn to exit), with peak RSS from /usr/bin/time.
// `node scripts/bench.mjs --http-only` runs only the HTTP rows: server memory before and after 2,000
// initializes (authenticated, loopback), and 64 concurrent sessions approving.
// `node scripts/bench.mjs --scale-only` runs only the scaling rows: the curve of scoped rules
// (250/500/1000/2000) against the seconds and peak memory of analyze, and the bytes of the analyze
// and propose replies on the big cases (BENCH_HUGE=1 adds 50,000 rule files). BENCH_CLI runs
// another build (to compare before and after).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.resolve(new URL('..', import.meta.url).pathname, 'server/dist/cli.js');
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

// rulesync 17 needs Node 22: the same binary the conformance step uses, installed on first use.
const NODE22 = (() => {
  try {
    return execFileSync('bash', [path.resolve(new URL('..', import.meta.url).pathname, 'scripts/node22.sh')], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
})();
// rulesync is not a dependency (it wants Node 22 and pnpm, so `npm ci` on Node 20 would warn): the
// bench installs this exact version into .tmp/rulesync on first use, and skips its rows if it cannot.
const RULESYNC_VERSION = '17.0.0';
const RULESYNC = (() => {
  if (!NODE22) return '';
  const dir = path.resolve(new URL('..', import.meta.url).pathname, '.tmp/rulesync');
  const cli = path.join(dir, 'node_modules/rulesync/dist/cli/index.js');
  const installed = () => {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/rulesync/package.json'), 'utf8')).version === RULESYNC_VERSION && fs.existsSync(cli);
    } catch {
      return false;
    }
  };
  if (!installed()) {
    try {
      fs.mkdirSync(dir, { recursive: true });
      // Its engines ask for Node 22 and pnpm; npm runs on this Node, so its warnings are expected and hidden.
      execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', dir, `rulesync@${RULESYNC_VERSION}`], { stdio: 'ignore' });
    } catch {
      return '';
    }
  }
  return installed() ? cli : '';
})();
const FILESYSTEM = path.resolve(new URL('..', import.meta.url).pathname, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { ElicitRequestSchema, ListRootsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');

/** `serve --http --port 0` on loopback with a token of this run's choosing; resolves with its URL. */
async function startHttpServer(token) {
  const server = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, COPILOT_ONBOARD_HTTP_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${err}`)), 20_000);
      server.stderr.on('data', (d) => {
        err += String(d);
        const m = /serving MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
        if (m) (clearTimeout(timer), resolve(m[1]));
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
async function httpFlood({ close }) {
  const TOTAL = 2000;
  const token = randomBytes(16).toString('hex');
  const { server, url } = await startHttpServer(token);
  try {
    const rssMB = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) / 1024;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = (i) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `flood-${i}`, version: '1' } } });
    const one = async (i) => {
      const res = await fetch(url, { method: 'POST', headers, body: init(i), signal: AbortSignal.timeout(10_000) });
      await res.text();
      const id = res.headers.get('mcp-session-id');
      if (close && id) await (await fetch(url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': id }, signal: AbortSignal.timeout(10_000) })).text();
      return res.status;
    };
    await one(-1); // the first initialize loads the server's modules: not part of the flood
    const before = rssMB();
    const statuses = {};
    const deadline = Date.now() + 120_000;
    let next = 0;
    await Promise.all(Array.from({ length: 20 }, async () => {
      while (next < TOTAL && Date.now() < deadline) {
        const i = next++;
        const status = await one(i).catch((e) => e.name);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }));
    const after = rssMB();
    return { before, after, statuses };
  } finally {
    server.kill();
  }
}

const floodRow = (label, r) => ({
  figure: label,
  seconds: '',
  peakMB: `${r.before.toFixed(1)} → ${r.after.toFixed(1)}`,
  goal: `flat; answers: ${Object.entries(r.statuses).map(([s, n]) => `${n}× ${s}`).join(', ')}`,
});

/**
 * 64 concurrent Streamable HTTP sessions (the server's cap), each approving in its own repository
 * with its own answer.
 */
async function concurrentSessions() {
  const N = 64;
  const token = randomBytes(16).toString('hex');
  const { server, url } = await startHttpServer(token);
  try {
    const sessions = await Promise.all(Array.from({ length: N }, async (_, i) => {
      const repo = mdcRepo(1);
      const client = new Client({ name: `session-${i}`, version: '1' }, { capabilities: { elicitation: { form: {} }, roots: {} } });
      client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: `file://${repo}` }] }));
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approved: true, comment: `answer of session ${i}` } }));
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      await client.callTool({ name: 'onboarding_propose', arguments: {} });
      return { i, repo, client };
    }));
    const t0 = performance.now();
    const results = await Promise.all(sessions.map((s) => s.client.callTool({ name: 'onboarding_approve', arguments: {} })));
    const secs = (performance.now() - t0) / 1000;
    let right = 0;
    for (const s of sessions) {
      const state = JSON.parse(fs.readFileSync(path.join(s.repo, '.copilot-state/onboarding.json'), 'utf8'));
      if (state.approval?.comment === `answer of session ${s.i}` && results[s.i].structuredContent.outcome === 'approved') right++;
      await s.client.close();
      fs.rmSync(s.repo, { recursive: true, force: true });
    }
    return { figure: `${N} concurrent HTTP sessions approving (the session cap)`, seconds: secs.toFixed(3), peakMB: '', goal: `${right}/${N} answers reached their own session` };
  } finally {
    server.kill();
  }
}

const httpRows = async () => [
  floodRow('HTTP: 2,000 initializes, sessions left open: server RSS', await httpFlood({ close: false })),
  floodRow('HTTP: 2,000 initializes, each closed (DELETE): server RSS', await httpFlood({ close: true })),
];

/** The curve: scoped rules against the seconds and peak memory of analyze (one CLI process each). */
function scalingCurve(sizes = [250, 500, 1000, 2000]) {
  const out = [];
  for (const n of sizes) {
    const repo = mdcRepo(n);
    try {
      const r = timed('node', [CLI, 'analyze', '--json', '--repo', repo]);
      out.push({ rules: n, seconds: r.secs, peakMB: r.mb });
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  }
  return out;
}

function printCurve(curve) {
  const max = Math.max(...curve.map((c) => c.seconds), 0.001);
  console.log('scoped rules vs analyze (one CLI process each): seconds, peak MB');
  for (const c of curve) console.log(`${String(c.rules).padStart(6)} rules ${c.seconds.toFixed(2).padStart(7)} s ${c.peakMB.toFixed(0).padStart(5)} MB  ${'#'.repeat(Math.max(1, Math.round((c.seconds / max) * 50)))}`);
  const first = curve[0];
  const last = curve[curve.length - 1];
  if (first && last && first !== last) console.log(`${last.rules} rules take ${(last.seconds / first.seconds).toFixed(1)}x the time of ${first.rules} (goal: at most 12x, under 3 s)`);
}

function bulletsRepo(n) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bullets-'));
  execFileSync('git', ['init', '-q', root]);
  write(root, 'AGENTS.md', `# Rules\n\n${'- Keep it simple.\n'.repeat(n)}`);
  return root;
}

function ruleFilesRepo(n) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'));
  execFileSync('git', ['init', '-q', root]);
  for (let i = 0; i < n; i++) write(root, `.cursor/rules/r-${i}.mdc`, `---\ndescription: Rule ${i}\nglobs: src/m${i}/**\n---\n- Module ${i} keeps its handlers small.\n`);
  return root;
}

/** Bytes of the analyze and propose results (as JSON on the wire), through the SDK client; a dropped connection is reported as such. */
async function replySizes(label, repo) {
  const client = new Client({ name: 'bench', version: '1' });
  const sizes = {};
  try {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--repo', repo], stderr: 'ignore' }));
    for (const tool of ['onboarding_analyze', 'onboarding_propose']) {
      try {
        const t0 = performance.now();
        const r = await client.callTool({ name: tool, arguments: {} }, undefined, { timeout: 900_000 });
        sizes[tool] = `${(Buffer.byteLength(JSON.stringify(r)) / 1024).toFixed(0)} KiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      } catch (err) {
        sizes[tool] = `failed: ${String(err.message ?? err).slice(0, 80)}`;
      }
    }
  } finally {
    await client.close().catch(() => {});
  }
  return { case: label, analyze: sizes.onboarding_analyze, propose: sizes.onboarding_propose, goal: 'each well under 1 MiB' };
}

async function scaleRows() {
  const curve = scalingCurve();
  printCurve(curve);
  const cases = [
    ['2,000 scoped .mdc rules', () => mdcRepo(2000)],
    ['AGENTS.md of 55,000 identical bullets', () => bulletsRepo(55_000)],
    ...(process.env.BENCH_HUGE ? [['50,000 rule files', () => ruleFilesRepo(50_000)]] : []),
  ];
  const sizes = [];
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

if (process.argv.includes('--scale-only')) {
  console.log(`copilot-onboard bench, scaling rows only, ${os.cpus().length} cores, Node ${process.version}, ${CLI}`);
  await scaleRows();
  process.exit(0);
}

if (process.argv.includes('--http-only')) {
  console.log(`copilot-onboard bench, HTTP rows only, ${os.cpus().length} cores, Node ${process.version}`);
  console.table([...(await httpRows()), await concurrentSessions()]);
  process.exit(0);
}

const rows = [];
const row = (figure, r, goal) => rows.push({ figure, seconds: r.secs.toFixed(3), peakMB: r.mb.toFixed(1), goal });


/** Spawn, initialize and tools/list: the cold start a client waits for. */
async function coldStart(command, args) {
  const times = [];
  for (let i = 0; i < Math.max(RUNS * 2, 10); i++) {
    const t0 = performance.now();
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
    await client.listTools();
    times.push(performance.now() - t0);
    await client.close();
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] / 1000;
}

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const mdc = mdcRepo(500);
row('500 .mdc rules: analyze (CLI process)', median('node', [CLI, 'analyze', '--json', '--repo', mdc]), '≤ 0.3 s with propose');
row('500 .mdc rules: propose (CLI process)', median('node', [CLI, 'propose', '--json', '--repo', mdc]), '≤ 0.3 s with analyze');

const mono = monorepo();
row('monorepo 20k+30k files: git ls-files -co --exclude-standard', median('git', ['-C', mono, 'ls-files', '-co', '--exclude-standard']), 'reference');
row('monorepo 20k+30k files: analyze (CLI process)', median('node', [CLI, 'analyze', '--json', '--repo', mono]), '≤ 0.5 s, ≤ 60 MB');
row('monorepo 20k+30k files: check --format sarif (CLI process)', median('node', [CLI, 'check', '--format', 'sarif', '--fail-on', 'none', '--repo', mono]), 'next to analyze');
row('node -e 0 (Node start-up alone)', median('node', ['-e', '0']), 'reference');

// The read-only commands' fixed cost, on one 2-line AGENTS.md analyzed once before (scripts/bench-cold.mjs: the others).
const tiny = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tiny-'));
execFileSync('git', ['init', '-q', tiny]);
write(tiny, 'AGENTS.md', '# Agents\n- Use pnpm.\n');
execFileSync(process.execPath, [CLI, 'analyze', '--repo', tiny], { stdio: 'ignore' });
row('one 2-line AGENTS.md: analyze (CLI process, the fixed cost)', median('node', [CLI, 'analyze', '--json', '--repo', tiny]), '≤ 0.15 s, ≤ 50 MB');

// The same monorepo analyze as a warm tool call on a running server.
{
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--repo', mono], stderr: 'ignore' }));
  await client.callTool({ name: 'onboarding_analyze', arguments: {} });
  const times = [];
  for (let i = 0; i < Math.max(RUNS, 5); i++) {
    const t0 = performance.now();
    await client.callTool({ name: 'onboarding_analyze', arguments: {} });
    times.push(performance.now() - t0);
  }
  await client.close();
  times.sort((a, b) => a - b);
  rows.push({ figure: 'monorepo analyze as a warm tool call (stdio)', seconds: (pct(times, 50) / 1000).toFixed(3), peakMB: '', goal: '≤ 0.15 s' });
}

// Cold start against the reference filesystem server.
const coldRepo = mdcRepo(1);
const ours = await coldStart(process.execPath, [CLI, 'serve', '--repo', coldRepo]);
const theirs = await coldStart(process.execPath, [FILESYSTEM, coldRepo]);
rows.push({ figure: 'cold start: spawn, initialize, tools/list (stdio)', seconds: ours.toFixed(3), peakMB: '', goal: `≤ 0.8x server-filesystem: ${(ours / theirs).toFixed(2)}x` });
rows.push({ figure: 'cold start: @modelcontextprotocol/server-filesystem', seconds: theirs.toFixed(3), peakMB: '', goal: 'reference' });

// Gate round trip: approve with a client that answers at once; in a git repository (HEAD and
// uncommitted changes are asked of git for the form) and in a plain folder (the gate's own cost).
for (const withGit of [true, false]) {
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approved: true } }));
  const repo = mdcRepo(3);
  if (!withGit) fs.rmSync(path.join(repo, '.git'), { recursive: true, force: true });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--repo', repo], stderr: 'ignore' }));
  await client.callTool({ name: 'onboarding_propose', arguments: {} });
  const times = [];
  for (let i = 0; i < 1000; i++) {
    const t0 = performance.now();
    await client.callTool({ name: 'onboarding_approve', arguments: {} });
    times.push(performance.now() - t0);
  }
  await client.close();
  times.sort((a, b) => a - b);
  const where = withGit ? 'git repository' : 'folder without git';
  rows.push({ figure: `gate round trip (approve, instant answer, ${where}), p50 / p99 ms`, seconds: `${pct(times, 50).toFixed(1)} / ${pct(times, 99).toFixed(1)} ms`, peakMB: '', goal: withGit ? 'p99 ≤ 5 ms' : 'the floor without git' });
  fs.rmSync(repo, { recursive: true, force: true });
}

rows.push(await concurrentSessions(), ...(await httpRows()));

// rulesync 17 on the same inputs, where it does the same job (convert to Copilot, dry run). It needs Node 22.
if (NODE22 && fs.existsSync(NODE22) && RULESYNC) {
  row('rulesync 17: convert 500 .mdc rules to copilot (dry run)', median(NODE22, [RULESYNC, 'convert', '--from', 'cursor', '--to', 'copilot', '--features', 'rules', '--dry-run', '--silent'], mdc), 'comparison');
  row('rulesync 17: convert the monorepo (dry run)', median(NODE22, [RULESYNC, 'convert', '--from', 'cursor', '--to', 'copilot', '--features', 'rules', '--dry-run', '--silent'], mono), 'comparison');
} else {
  rows.push({ figure: 'rulesync 17', seconds: '', peakMB: '', goal: `skipped: ${NODE22 ? `rulesync@${RULESYNC_VERSION}` : 'Node 22'} could not be installed from the npm registry` });
}

console.log(`copilot-onboard bench (${RUNS} runs each, median time, peak RSS), ${os.cpus().length} cores, Node ${process.version}`);
console.table(rows);
await scaleRows();
for (const d of [mdc, mono, coldRepo, tiny]) fs.rmSync(d, { recursive: true, force: true });
process.exit(0);
