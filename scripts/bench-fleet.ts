// `npm run bench -- --fleet N`: a simulated organisation. Generates N repositories of realistic
// shapes (a few to a few hundred instruction files; some legacy only, some migrated, some migrated
// and drifted since, some contradicting themselves), runs `check --format json` on each with a
// bounded pool of worker processes (BENCH_FLEET_WORKERS, default the number of cores), then `fleet`
// over every result. Prints per-repository time (median, p95, max), the total, peak memory (of any
// check process, and of fleet), fleet's own time, and the merged totals, which must equal the sum
// of the parts (the bench exits 1 when they do not).
import { execFileSync, spawn } from 'node:child_process';
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
