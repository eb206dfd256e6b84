import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, connect, outcomeOf, yesToAll } from './mcp.js';
import { sandbox, tempDir, type Cleanup } from './sandbox.js';

/**
 * A hostile repository (or another local process) puts links where copilot-onboard keeps its state
 * or writes its files. Nothing may be written outside the repository, by any command.
 */

export const RULES = '# Rules\n\n- Write a test for every fix.\n- Use pnpm for packages.\n';
export const SCOPED = '---\ndescription: API rules\nglobs: src/api/**\nalwaysApply: false\n---\n- Validate every request body.\n';
export const VICTIM = "precious bytes that are not the repository's\n";

export const GITIGNORE = `# Written by copilot-onboard when it created this folder. The traces of the gated steps
# (elicitation-traces/ and trace-chain.json) are meant to be reviewed and may be committed; the
# read-only traces in sampling-traces/ keep themselves out of git (their own .gitignore); the rest is
# this machine's working state: full copies of your files (backups/), the plan, the state that
# points at those backups, the journal and the locks (and, outside git, this folder's key).
backups/
plan.json
plan.diff
onboarding.json
journal.json
*.lock
*.lock-owner.json
*.damaged
*.not-written-here-*
clone-key
used-request-states/
.copilot-tmp-*
`;

export type Run = ReturnType<typeof spawnSync> & { stdout: string; stderr: string };

export function cli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Run {
  return spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    input: '',
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    timeout: opts.timeout ?? 60_000,
  }) as Run;
}

/** A folder outside the repository with a file and a folder a link can point at. */
export function outsideDir(t: Cleanup): string {
  const dir = tempDir(t, 'co-outside-');
  fs.writeFileSync(path.join(dir, 'victim.txt'), VICTIM);
  fs.mkdirSync(path.join(dir, 'folder'));
  fs.writeFileSync(path.join(dir, 'folder', 'inner.md'), '- An outside rule.\n');
  fs.mkdirSync(path.join(dir, 'empty'));
  return dir;
}

/** Every entry under `dir`, with its kind, mode, mtime and bytes: any write, create or remove shows. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string) => {
    const st = fs.lstatSync(abs);
    out[rel || '.'] = `dir:${st.mode & 0o7777}:${st.mtimeMs}`;
    for (const name of fs.readdirSync(abs).sort()) {
      const a = path.join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const s = fs.lstatSync(a);
      if (s.isSymbolicLink()) out[r] = `link:${fs.readlinkSync(a)}`;
      else if (s.isDirectory()) walk(a, r);
      else if (s.isFile()) out[r] = `file:${s.mode & 0o7777}:${s.mtimeMs}:${createHash('sha256').update(fs.readFileSync(a)).digest('hex')}`;
      else out[r] = `other:${s.mode}`;
    }
  };
  walk(dir, '');
  return out;
}

export function repoWithRules(t: Cleanup): string {
  const repo = sandbox(t, { 'CLAUDE.md': RULES, '.cursor/rules/api.mdc': SCOPED });
  return repo;
}

/**
 * Put a symlink at `rel` when every folder on the way is a real folder of the repository (missing
 * ones are made); false, touching nothing, when one is a link or a file: the test itself must never
 * write through a link it placed earlier.
 */
export function placeLink(repo: string, rel: string, target: string): boolean {
  const parts = rel.split('/');
  let dir = repo;
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!st) fs.mkdirSync(dir);
    else if (st.isSymbolicLink() || !st.isDirectory()) return false;
  }
  linkAt(repo, rel, target);
  return true;
}

/** Put a symlink at `rel` in the repository (whatever was there is removed first). */
export function linkAt(repo: string, rel: string, target: string): void {
  const abs = path.join(repo, rel);
  fs.rmSync(abs, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.symlinkSync(target, abs);
}

export async function proposedAndApproved(repo: string): Promise<void> {
  const s = await connect({ repo, elicit: yesToAll });
  try {
    assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
    assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  } finally {
    await s.close();
  }
}

export const json = (r: Run) => JSON.parse(r.stdout) as { outcome: string; message?: string } & Record<string, unknown>;
export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A whole accepted flow over MCP: analyze, propose, approve, migrate. */
export async function fullFlow(repo: string): Promise<void> {
  const s = await connect({ repo, elicit: yesToAll });
  try {
    await s.call('onboarding_analyze');
    await s.call('onboarding_propose');
    assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
    assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  } finally {
    await s.close();
  }
}
