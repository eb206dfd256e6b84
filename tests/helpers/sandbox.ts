import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

/** What a test offers for cleanup: node:test's TestContext (`t`). */
export interface Cleanup {
  after(fn: () => unknown): void;
}

/** Every folder the helpers made; removed again when the process exits, should a late writer have made one anew. */
const made = new Set<string>();
process.on('exit', () => made.forEach(removeRepo));

/**
 * The keys of folders outside git go to the user's state folder (state/binding.ts): in tests, a
 * folder of this test process, which every command and server it starts inherits, never `~/.local/state`.
 */
if (!process.env.COPILOT_ONBOARD_STATE_HOME) {
  process.env.COPILOT_ONBOARD_STATE_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'co-state-home-'));
  made.add(process.env.COPILOT_ONBOARD_STATE_HOME);
}

/** A real `git init` repository in a temp dir, with the given files (path → content). */
export function makeRepo(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'co-test-'));
  made.add(dir);
  execFileSync('git', ['init', '-q', dir]);
  for (const [rel, content] of Object.entries(files)) writeFile(dir, rel, content);
  return dir;
}

/** A sandbox repository (as `makeRepo`) that is removed when the test `t` ends. */
export function sandbox(t: Cleanup, files: Record<string, string | Buffer> = {}): string {
  const dir = makeRepo(files);
  t.after(() => removeRepo(dir));
  return dir;
}

/** A sandbox repository shared by the tests of a file (or a suite): removed after the last of them. */
export function sharedSandbox(files: Record<string, string | Buffer> = {}): string {
  const dir = makeRepo(files);
  after(() => removeRepo(dir));
  return dir;
}

/**
 * Cleanup for one round of a loop or a property, whose folders should not wait for the end of the test:
 * `done()` runs what the round registered, in order.
 */
export function round(): Cleanup & { done(): Promise<void> } {
  const fns: Array<() => unknown> = [];
  return {
    after: (fn) => void fns.push(fn),
    done: async () => {
      for (const fn of fns.splice(0)) await fn();
    },
  };
}

/** An empty temp folder, not a repository, that is removed when the test `t` ends. */
export function tempDir(t: Cleanup, prefix = 'co-tmp-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  t.after(() => removeRepo(dir));
  return dir;
}

export function writeFile(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

export function removeRepo(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Every entry under `root` outside .git and .copilot-state, by its `/`-separated path, parents before
 * their children; links are not followed.
 */
export function eachEntry(root: string, visit: (rel: string, abs: string, entry: fs.Dirent) => void): void {
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (dir === root && (entry.name === '.git' || entry.name === '.copilot-state')) continue;
      const abs = path.join(dir, entry.name);
      visit(path.relative(root, abs).split(path.sep).join('/'), abs, entry);
      if (entry.isDirectory()) walk(abs);
    }
  };
  walk(root);
}

/** sha256 of every file outside .git and .copilot-state, by path: a tree fingerprint. */
export function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  eachEntry(root, (rel, abs, entry) => {
    if (entry.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(abs)}`;
    else if (entry.isFile()) out[rel] = createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
  });
  return out;
}

type Planning = typeof import('../../server/src/planning/plan.js');
type Plan = ReturnType<Planning['buildPlan']>;

/**
 * Plan a repository in process, as propose would: its scan, analysis and plan (with `choices`, the
 * defaults when absent), and `content(path)`, what the plan writes there (null when it writes nothing).
 * The sources are imported when first used, so tests that never plan do not load them.
 */
export async function planRepo(repo: string, choices?: Parameters<Planning['buildPlan']>[2]) {
  const { scanRepository } = await import('../../server/src/analysis/discovery/scan.js');
  const { analyze } = await import('../../server/src/analysis/analyze.js');
  const { buildPlan } = await import('../../server/src/planning/plan.js');
  const scan = await scanRepository(repo);
  const analysis = analyze(scan);
  const plan = buildPlan(scan, analysis, choices);
  const content = (p: string) => plan.operations.find((o) => o.path === p)?.content ?? null;
  return { scan, analysis, plan, content };
}

/** A sandbox repository with these files (removed when `t` ends), planned in process (`planRepo`). */
export async function plannedSandbox(t: Cleanup, files: Record<string, string | Buffer>) {
  const repo = sandbox(t, files);
  return { repo, ...(await planRepo(repo)) };
}

/** Write every operation of a plan as a migration would (no backup, no state), and plan again. */
export async function applyAndReplan(repo: string, plan: Plan) {
  for (const op of plan.operations) {
    if (op.content === null) fs.rmSync(path.join(repo, op.path));
    else writeFile(repo, op.path, op.content);
  }
  return planRepo(repo);
}

/** A sandbox planned, its plan written as a migration would, and planned again: a migrated repository's plan should be a no-op. */
export async function plannedTwice(t: Cleanup, files: Record<string, string | Buffer>) {
  const { repo, plan: first } = await plannedSandbox(t, files);
  const { plan: second } = await applyAndReplan(repo, first);
  return { repo, first, second, read: (p: string) => fs.readFileSync(path.join(repo, p), 'utf8') };
}

export type TraceKind = 'elicitation' | 'sampling';

/** Trace files of one kind, parsed, oldest first, with their file names. */
export function readTraces(root: string, kind: TraceKind): Array<Record<string, any> & { _file: string }> {
  const dir = path.join(root, '.copilot-state', `${kind}-traces`);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json') && !n.startsWith('.')) // not the read-only chain's head
    .sort()
    .map((n) => ({ ...JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')), _file: n }));
}

export function readState(root: string): Record<string, any> | null {
  const file = path.join(root, '.copilot-state', 'onboarding.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

/** An unstructured copilot-instructions.md with one exact duplicate and one contradiction. */
export const MESSY_INSTRUCTIONS = `# Project guidelines

This is a TypeScript service for invoices.

- Use pnpm for all package management.
- Run tests with vitest before every commit.
- Indent with 2 spaces.
- Use single quotes for strings.
- Never commit secrets or API keys.
- Use npm to install dependencies.
- Indent with 2 spaces.
- Document public functions with JSDoc.
- Target Node 20.
`;

/** A flat file with no problems: only structuring to do. */
export const FLAT_INSTRUCTIONS = `# Guidelines

- Use pnpm for all package management.
- Run tests with vitest before every commit.
- Indent with 2 spaces.
- Document public functions with JSDoc.
- Never commit secrets or API keys.
`;

export const STRUCTURED_INSTRUCTIONS = `# Guidelines

## Build

- Use pnpm for all package management.

## Testing

- Run tests with vitest before every commit.
`;
