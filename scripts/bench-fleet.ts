// `npm run bench -- --fleet N`: a simulated organisation. Generates N repositories of realistic
// shapes (a few to a few hundred instruction files; some legacy only, some migrated, some migrated
// and drifted since, some contradicting themselves), runs `check --format json` on each with a
// bounded pool of worker processes (BENCH_FLEET_WORKERS, default the number of cores), then `fleet`
// over every result. Prints per-repository time (median, p95, max), the total, peak memory (of any
// check process, and of fleet), fleet's own time, and the merged totals, which must equal the sum
// of the parts (the bench exits 1 when they do not).
import { execFileSync, spawn } from 'node:child_process';
import { splitIntoBatches } from '../scripts/action/batches.mjs';
import { checkBatch, processes, type Checked } from '../scripts/action/check-batch.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Shape = 'legacy' | 'cursor' | 'migrated' | 'drifted' | 'messy' | 'large';

/** A small deterministic generator, so that the same N gives the same fleet. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function write(root: string, rel: string, text: string): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

const RULES = [
  'Use pnpm for all package management.',
  'Run tests with vitest before every commit.',
  'Indent with 2 spaces.',
  'Document exported functions with JSDoc.',
  'Never commit secrets or API keys.',
  'Keep pull requests under 400 lines.',
  'Write commit messages in the imperative mood.',
  'Prefer named exports over default exports.',
];

function copilotFile(rules: string[]): string {
  return `# Guidelines\n\n## General\n\n${rules.map((r) => `- ${r}`).join('\n')}\n`;
}

/** One repository of the given shape under `root`. */
function makeRepo(root: string, shape: Shape, next: () => number): void {
  execFileSync('git', ['init', '-q', root]);
  const some = RULES.slice(0, 3 + Math.floor(next() * 5));
  if (shape === 'legacy') {
    write(root, 'CLAUDE.md', `# Claude\n\n${some.map((r) => `- ${r}`).join('\n')}\n`);
    if (next() < 0.5) write(root, 'AGENTS.md', `# Agents\n\n- ${some[0]}\n- Deploy from the release branch only.\n`);
  } else if (shape === 'cursor' || shape === 'large') {
    const n = shape === 'large' ? 100 + Math.floor(next() * 200) : 3 + Math.floor(next() * 20);
    for (let i = 0; i < n; i++) {
      write(
        root,
        `.cursor/rules/area-${i}.mdc`,
        `---\ndescription: Area ${i}\nglobs: src/area-${i}/**\nalwaysApply: false\n---\n# Area ${i}\n\n- Keep area ${i} handlers small and typed.\n- Cover area ${i} with focused tests.\n`,
      );
    }
  } else if (shape === 'migrated' || shape === 'drifted') {
    write(root, '.github/copilot-instructions.md', copilotFile(some));
    write(
      root,
      'CLAUDE.md',
      `# Claude\n\n${some.map((r) => `- ${r}`).join('\n')}\n${shape === 'drifted' ? '- Never force-push to main.\n' : ''}`,
    );
  } else {
    write(root, '.github/copilot-instructions.md', copilotFile([...some, 'Use npm to install dependencies.', some[0]!]));
  }
}

function pickShape(x: number): Shape {
  if (x < 0.3) return 'legacy';
  if (x < 0.5) return 'cursor';
  if (x < 0.7) return 'migrated';
  if (x < 0.85) return 'drifted';
  if (x < 0.97) return 'messy';
  return 'large';
}

interface Run {
  secs: number;
  mb: number;
  code: number;
}

/** A process under /usr/bin/time: its wall seconds, peak RSS and exit code; stdout to `out`. */
function timedRun(cmd: string, args: string[], out: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const fd = fs.openSync(out, 'w');
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M', cmd, ...args], { stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => {
      fs.closeSync(fd);
      const kb = Number(stderr.trim().split('\n').pop());
      resolve({ secs: Number(process.hrtime.bigint() - started) / 1e9, mb: kb / 1024, code: code ?? 1 });
    });
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function fleetBench(cli: string, n: number): Promise<boolean> {
  const workers = Number(process.env.BENCH_FLEET_WORKERS ?? os.cpus().length);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-'));
  const next = random(n);
  const shapes: Record<string, number> = {};
  let files = 0;
  const made = Date.now();
  for (let i = 0; i < n; i++) {
    const shape = pickShape(next());
    shapes[shape] = (shapes[shape] ?? 0) + 1;
    const root = path.join(base, `repo-${String(i).padStart(5, '0')}`);
    makeRepo(root, shape, next);
    files += fs.readdirSync(root, { recursive: true }).filter((f) => !String(f).startsWith('.git/') && String(f) !== '.git').length;
  }
  console.log(
    `fleet bench: ${n} repositories (${Object.entries(shapes)
      .map(([s, c]) => `${c} ${s}`)
      .join(
        ', ',
      )}; ${files} files and folders) generated in ${((Date.now() - made) / 1000).toFixed(1)} s under ${base}; ${workers} workers`,
  );

  const results = path.join(base, 'results');
  fs.mkdirSync(results);
  const runs: Run[] = new Array(n);
  let nextIndex = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = nextIndex++; i < n; i = nextIndex++) {
        const name = `repo-${String(i).padStart(5, '0')}`;
        runs[i] = await timedRun(
          process.execPath,
          [cli, 'check', '--repo', path.join(base, name), '--format', 'json', '--fail-on', 'none'],
          path.join(results, `${name}.json`),
        );
        if (runs[i]!.code !== 0) throw new Error(`check of ${name} exited ${runs[i]!.code}`);
      }
    }),
  );
  const checkSecs = (Date.now() - started) / 1000;
  const secs = runs.map((r) => r.secs).sort((a, b) => a - b);

  const resultFiles = fs.readdirSync(results).map((f) => path.join(results, f));
  const fleetOut = path.join(base, 'fleet.json');
  const fleet = await timedRun(process.execPath, [cli, 'fleet', ...resultFiles, '--format', 'json'], fleetOut);
  const merged = JSON.parse(fs.readFileSync(fleetOut, 'utf8'));

  // The sum of the parts, from each result as check wrote it.
  const parts = resultFiles.map(
    (f) => JSON.parse(fs.readFileSync(f, 'utf8')) as { files: number; findings: { rule: string; certainty: string }[] },
  );
  const count = (rule: string, certainty?: string) =>
    parts.reduce(
      (s, p) => s + p.findings.filter((f) => f.rule === rule && (certainty === undefined || f.certainty === certainty)).length,
      0,
    );
  const expected = {
    files: parts.reduce((s, p) => s + p.files, 0),
    contradictions: { high: count('contradiction', 'high'), medium: count('contradiction', 'medium'), low: count('contradiction', 'low') },
    duplicates: count('duplicate'),
    drift: count('drift'),
    wouldChange: count('would-change'),
    ambiguity: count('ambiguity'),
    findings: parts.reduce((s, p) => s + p.findings.length, 0),
  };
  const match = JSON.stringify(merged.totals) === JSON.stringify(expected) && merged.read === n && merged.repositories === n;

  console.table([
    {
      figure: `check, per repository (${n})`,
      median: `${quantile(secs, 0.5).toFixed(2)} s`,
      p95: `${quantile(secs, 0.95).toFixed(2)} s`,
      max: `${secs[secs.length - 1]!.toFixed(2)} s`,
      peakMB: Math.max(...runs.map((r) => r.mb)).toFixed(0),
    },
    { figure: `check, all ${n} (${workers} workers)`, median: `${checkSecs.toFixed(1)} s total`, p95: '', max: '', peakMB: '' },
    { figure: `fleet over ${n} results`, median: `${fleet.secs.toFixed(2)} s`, p95: '', max: '', peakMB: fleet.mb.toFixed(0) },
  ]);
  console.log('fleet totals:', JSON.stringify(merged.totals));
  console.log(`totals equal the sum of the parts: ${match ? 'yes' : 'NO'} (${merged.read} of ${merged.repositories} results read)`);
  if (!process.env.BENCH_KEEP) fs.rmSync(base, { recursive: true, force: true });
  return match;
}

/** The totals each result's findings make, counted from the results as check wrote them. */
function expectedTotals(parts: { files: number; findings: { rule: string; certainty: string }[] }[]) {
  const count = (rule: string, certainty?: string) =>
    parts.reduce(
      (s, p) => s + p.findings.filter((f) => f.rule === rule && (certainty === undefined || f.certainty === certainty)).length,
      0,
    );
  return {
    files: parts.reduce((s, p) => s + p.files, 0),
    contradictions: { high: count('contradiction', 'high'), medium: count('contradiction', 'medium'), low: count('contradiction', 'low') },
    duplicates: count('duplicate'),
    drift: count('drift'),
    wouldChange: count('would-change'),
    ambiguity: count('ambiguity'),
    findings: parts.reduce((s, p) => s + p.findings.length, 0),
  };
}

/** A fresh install and build, as the action does it (npm ci --ignore-scripts, npm run build), in a copy of this commit: seconds of each. */
function installAndBuild(): { install: number; build: number } | null {
  if (process.env.BENCH_SKIP_INSTALL) return null;
  const root = path.resolve(import.meta.dirname, '..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-install-'));
  try {
    execFileSync('bash', ['-c', `git -C "${root}" archive HEAD | tar -x -C "${dir}"`]);
    const timed = (args: string[]) => {
      const t = process.hrtime.bigint();
      execFileSync('npm', args, { cwd: dir, stdio: 'ignore' });
      return Number(process.hrtime.bigint() - t) / 1e9;
    };
    return { install: timed(['ci', '--ignore-scripts', '--no-audit', '--no-fund']), build: timed(['run', 'build']) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--fleet N --batched`: the organisation workflow's batching, run here. N repositories (committed,
 * so that they can be cloned) are split by scripts/action/batches.mjs; each batch runs through scripts/action/check-batch.mjs
 * (a shallow clone from a local server folder, then check --format json under /usr/bin/time), the
 * batches one after another as jobs on separate runners would; then fleet over one expected result
 * per repository. Prints per-repository time (clone, check), the total, peak memory, and whether the
 * totals equal the sum of the parts; then the runner-time estimate before and after building once.
 */
export async function fleetBenchBatched(cli: string, n: number): Promise<boolean> {
  const batchSize = Number(process.env.BENCH_BATCH_SIZE ?? 50);
  const parallel = Number(process.env.BENCH_PARALLEL ?? 4);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-batched-'));
  const server = path.join(base, 'server');
  const next = random(n);
  const names: string[] = [];
  const made = Date.now();
  for (let i = 0; i < n; i++) {
    const name = `bench/repo-${String(i).padStart(5, '0')}`;
    const root = path.join(server, `${name}.git`);
    makeRepo(root, pickShape(next()), next);
    execFileSync('git', ['-C', root, 'add', '-A']);
    execFileSync('git', ['-C', root, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'bench']);
    names.push(name);
  }
  console.log(`${n} committed repositories generated in ${((Date.now() - made) / 1000).toFixed(1)} s under ${base}`);

  const batches = splitIntoBatches(names, { batchSize });
  const results = path.join(base, 'results');
  const real = processes({
    node: process.execPath,
    cli,
    git: 'git',
    failOn: 'none',
    server: `file://${server}`,
    token: '',
    env: { ...process.env },
  });
  const cloneSecs: number[] = [];
  const checkRuns: Run[] = [];
  const jobSecs: number[] = [];
  const work = {
    clone: async (repository: string, dir: string) => {
      const t = process.hrtime.bigint();
      const r = await real.clone(repository, dir);
      cloneSecs.push(Number(process.hrtime.bigint() - t) / 1e9);
      return r;
    },
    check: async (repository: string, dir: string, out: string) => {
      const run = await timedRunEnv(process.execPath, [cli, 'check', '--repo', dir, '--format', 'json', '--fail-on', 'none'], out, {
        ...process.env,
        COPILOT_ONBOARD_REPOSITORY_NAME: repository,
      });
      checkRuns.push(run);
      return { code: run.code, said: '' };
    },
  };
  const outcomes: Checked[] = [];
  const started = Date.now();
  for (const batch of batches) {
    const t = Date.now();
    outcomes.push(...(await checkBatch(batch, { parallel, results, temp: fs.mkdtempSync(path.join(base, 'job-')), work })));
    jobSecs.push((Date.now() - t) / 1000);
  }
  const totalSecs = (Date.now() - started) / 1000;
  const errors = outcomes.filter((o) => o.status === 'error');

  const files = names.map((r) => path.join(results, r.replace('/', '__'), 'check.json'));
  const fleetOut = path.join(base, 'fleet.json');
  const fleet = await timedRun(process.execPath, [cli, 'fleet', ...files, '--format', 'json'], fleetOut);
  const merged = JSON.parse(fs.readFileSync(fleetOut, 'utf8'));
  const parts = files.filter((f) => fs.existsSync(f)).map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
  const match = JSON.stringify(merged.totals) === JSON.stringify(expectedTotals(parts)) && merged.read === n && merged.repositories === n;

  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const clone = sorted(cloneSecs);
  const check = sorted(checkRuns.map((r) => r.secs));
  const jobs = sorted(jobSecs);
  const median = (xs: number[]) => quantile(xs, 0.5);
  console.table([
    {
      figure: `clone, per repository (${clone.length})`,
      median: `${median(clone).toFixed(2)} s`,
      p95: `${quantile(clone, 0.95).toFixed(2)} s`,
      max: `${clone.at(-1)!.toFixed(2)} s`,
      peakMB: '',
    },
    {
      figure: `check, per repository (${check.length})`,
      median: `${median(check).toFixed(2)} s`,
      p95: `${quantile(check, 0.95).toFixed(2)} s`,
      max: `${check.at(-1)!.toFixed(2)} s`,
      peakMB: Math.max(...checkRuns.map((r) => r.mb)).toFixed(0),
    },
    {
      figure: `a batch job (${batches.length} batches of ${Math.min(...batches.map((b) => b.length))}-${Math.max(...batches.map((b) => b.length))}, ${parallel} at a time)`,
      median: `${median(jobs).toFixed(1)} s`,
      p95: '',
      max: `${jobs.at(-1)!.toFixed(1)} s`,
      peakMB: '',
    },
    { figure: `all ${n}, batches one after another`, median: `${totalSecs.toFixed(1)} s total`, p95: '', max: '', peakMB: '' },
    { figure: `fleet over ${n} results`, median: `${fleet.secs.toFixed(2)} s`, p95: '', max: '', peakMB: fleet.mb.toFixed(0) },
  ]);
  console.log(
    `${errors.length} could not be checked${
      errors.length
        ? `: ${errors
            .slice(0, 3)
            .map((e) => `${e.repository} (${e.problem})`)
            .join('; ')}`
        : ''
    }`,
  );
  console.log('fleet totals:', JSON.stringify(merged.totals));
  console.log(`totals equal the sum of the parts: ${match ? 'yes' : 'NO'} (${merged.read} of ${merged.repositories} results read)`);

  const built = installAndBuild();
  if (built) runnerTime(n, batches.length, { ...built, clone: median(clone), check: median(check), parallel, job: median(jobs) });
  if (!process.env.BENCH_KEEP) fs.rmSync(base, { recursive: true, force: true });
  return match && errors.length === 0;
}

/**
 * Runner time of N repositories, estimated from what was measured here (install, build, clone, check)
 * and what GitHub adds per job, assumed (JOB: starting a job and setting up Node from the runner's
 * tool cache, 10 s; ARTIFACT: uploading or downloading and unpacking a small artifact, 3 s). GitHub
 * bills each job by the minute, rounded up: both figures, seconds and billed minutes.
 *  before: one job per repository: job + install + build + clone + 4 checks (text, markdown, JSON, SARIF) + artifact.
 *  after:  one build job (job + install + build + artifact), then one job per batch (job + artifact +
 *          its repositories' clone + check, `parallel` at a time), then the fleet job (job + artifacts + fleet).
 */
function runnerTime(
  n: number,
  jobs: number,
  m: { install: number; build: number; clone: number; check: number; parallel: number; job: number },
): void {
  const JOB = 10;
  const ARTIFACT = 3;
  const perRepoBefore = JOB + m.install + m.build + m.clone + 4 * m.check + ARTIFACT;
  const beforeSecs = n * perRepoBefore;
  const beforeBilled = n * Math.ceil(perRepoBefore / 60);
  const buildJob = JOB + m.install + m.build + ARTIFACT;
  const batchJob = JOB + ARTIFACT + Math.ceil(n / jobs) * ((m.clone + m.check) / m.parallel);
  const fleetJob = JOB + 2 * ARTIFACT + 5;
  const afterSecs = buildJob + jobs * batchJob + fleetJob;
  const afterBilled = Math.ceil(buildJob / 60) + jobs * Math.ceil(batchJob / 60) + Math.ceil(fleetJob / 60);
  console.log(
    `measured: install ${m.install.toFixed(1)} s, build ${m.build.toFixed(1)} s (fresh copy of this commit), clone ${m.clone.toFixed(2)} s and check ${m.check.toFixed(2)} s per repository (medians), a batch job ${m.job.toFixed(1)} s here`,
  );
  console.table([
    { run: `before: ${n} jobs, each installs and builds`, runnerMinutes: (beforeSecs / 60).toFixed(0), billedMinutes: beforeBilled },
    { run: `after: 1 build + ${jobs} batch jobs + fleet`, runnerMinutes: (afterSecs / 60).toFixed(0), billedMinutes: afterBilled },
  ]);
}

/** timedRun with an environment of its own. */
function timedRunEnv(cmd: string, args: string[], out: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const fd = fs.openSync(out, 'w');
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M', cmd, ...args], { stdio: ['ignore', fd, 'pipe'], env });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => {
      fs.closeSync(fd);
      const kb = Number(stderr.trim().split('\n').pop());
      resolve({ secs: Number(process.hrtime.bigint() - started) / 1e9, mb: kb / 1024, code: code ?? 1 });
    });
  });
}
