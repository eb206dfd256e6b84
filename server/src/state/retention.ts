import { sha256 } from '../common/hash.js';
import { STATE } from '../repo/state-paths.js';
import { listFolder, readFile, removeFile, removeTree } from '../repo/safe-fs.js';
import { readState } from './store.js';
import { writeElicitationTrace } from './traces/writer.js';

/**
 * How much `.copilot-state` keeps, with defaults nobody needs to touch:
 * - every gated trace (approve, migrate, rollback, acknowledge, prune): forever;
 * - the newest `readOnlyTraces` read-only traces (the sampling traces of analyze and propose);
 * - the backup of every migration that can still be rolled back, and of the newest `backups`
 *   migrations that were rolled back.
 * The policy runs by itself once read-only traces pass `readOnlyTraces + slack` (so not on every
 * call), and on `copilot-onboard traces prune`. What it removes is recorded first in a `prune`
 * trace, so `traces verify` still verifies the chain.
 */
export const RETENTION = { readOnlyTraces: 100, slack: 50, backups: 3 } as const;

export interface PruneResult {
  trace: string;
  traces: number;
  backups: string[];
}

interface Run {
  from: number;
  to: number;
  lastSha256: string;
  files: number;
}

/** Apply the policy; null when nothing is over it. `force` prunes down to the limit even within the slack. */
export async function prune(root: string, reason: string, opts: { force?: boolean; keep?: number } = {}): Promise<PruneResult | null> {
  const keep = opts.keep ?? RETENTION.readOnlyTraces;
  const names = ((await listFolder(root, STATE.samplingTraces)) ?? [])
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => e.name)
    .sort();
  const over = names.length - keep;
  const traceVictims = over > 0 && (opts.force || names.length > keep + RETENTION.slack) ? names.slice(0, over) : [];
  const backupVictims = opts.force ? await oldBackups(root) : [];
  if (traceVictims.length === 0 && backupVictims.length === 0) return null;

  // Runs of consecutive seqs, each with the sha256 of its last trace: what the next trace names as prev.
  const removed: { rel: string; seq: number; sha: string }[] = [];
  for (const name of traceVictims) {
    const rel = `${STATE.samplingTraces}/${name}`;
    const bytes = await readFile(root, rel).catch(() => null);
    if (!bytes) continue;
    let seq: unknown;
    try {
      seq = (JSON.parse(bytes.toString('utf8')) as { seq?: unknown }).seq;
    } catch {
      continue; // a damaged trace stays, and verify keeps reporting it
    }
    if (typeof seq === 'number' && Number.isInteger(seq) && seq >= 1) removed.push({ rel, seq, sha: sha256(bytes) });
  }
  removed.sort((a, b) => a.seq - b.seq);
  const runs: Run[] = [];
  for (const r of removed) {
    const last = runs[runs.length - 1];
    if (last && last.to === r.seq - 1) Object.assign(last, { to: r.seq, lastSha256: r.sha, files: last.files + 1 });
    else runs.push({ from: r.seq, to: r.seq, lastSha256: r.sha, files: 1 });
  }
  if (removed.length === 0 && backupVictims.length === 0) return null;

  const what = [
    removed.length > 0
      ? `${removed.length} read-only trace${removed.length === 1 ? '' : 's'} (analyze and propose narrations; the newest ${keep} are kept)`
      : null,
    backupVictims.length > 0
      ? `the backups of ${backupVictims.length} rolled-back migration${backupVictims.length === 1 ? '' : 's'} (${backupVictims.join(', ')})`
      : null,
  ]
    .filter(Boolean)
    .join(' and ');
  // Recorded before anything is removed: a crash in between leaves files the record names, which verify accepts.
  const trace = await writeElicitationTrace(root, {
    action: 'prune',
    message: `Removed ${what}. Every gated trace is kept.`,
    schema: {},
    response: null,
    outcome: 'pruned',
    duration_ms: 0,
    planHash: null,
    client: null,
    detail: reason,
    pruned: { reason, traces: runs, backups: backupVictims },
  });
  for (const r of removed) await removeFile(root, r.rel);
  for (const id of backupVictims) await removeTree(root, `${STATE.backups}/${id}`);
  return { trace, traces: removed.length, backups: backupVictims };
}

/** Backups of rolled-back migrations beyond the newest few; never one that can still be rolled back. */
async function oldBackups(root: string): Promise<string[]> {
  const state = await readState(root);
  const present = new Set(((await listFolder(root, STATE.backups)) ?? []).filter((e) => e.isDirectory()).map((e) => e.name));
  const rolledBack = state.migrations
    .filter((m) => m.rolledBackAt !== null && present.has(m.id))
    .sort((a, b) => (a.migratedAt < b.migratedAt ? -1 : a.migratedAt > b.migratedAt ? 1 : 0));
  return rolledBack.slice(0, Math.max(0, rolledBack.length - RETENTION.backups)).map((m) => m.id);
}
