import { sha256 } from '../common/hash.js';
import { STATE } from '../repo/state-paths.js';
import { listFolder, readFile, removeFile, removeTree } from '../repo/safe-fs.js';
import { readState } from './store.js';
import { recordReadOnlyPrune, writeElicitationTrace } from './traces/writer.js';
import { chainOf, READ_ONLY_CHAIN } from './traces/chains.js';

/**
 * How much `.copilot-state` keeps, with defaults nobody needs to touch:
 * - every gated trace (approve, migrate, rollback, acknowledge, prune), and the sampling traces
 *   earlier versions wrote into the gated chain: forever;
 * - the newest `readOnlyTraces` read-only traces (the read-only chain: the narration of analyze and
 *   propose);
 * - the backup of every migration that can still be rolled back, and of the newest `backups`
 *   migrations that were rolled back.
 * The policy runs by itself once read-only traces pass `readOnlyTraces + slack` (so not on every
 * call), and on `copilot-onboard traces prune`. What it removes is recorded first, so that `traces
 * verify` still verifies each chain: read-only traces in the read-only chain's head (so a read-only
 * command never writes into the chain a team may commit), backups in a `prune` trace.
 */
export const RETENTION = { readOnlyTraces: 100, slack: 50, backups: 3 } as const;

export interface PruneResult {
  /** The prune trace (when backups were removed), else null. */
  trace: string | null;
  traces: number;
  backups: string[];
}

/** Apply the policy; null when nothing is over it. `force` prunes down to the limit even within the slack. */
export async function prune(root: string, reason: string, opts: { force?: boolean; keep?: number } = {}): Promise<PruneResult | null> {
  const keep = opts.keep ?? RETENTION.readOnlyTraces;
  const traces = await readOnlyVictims(root, keep, opts.force === true);
  const backupVictims = opts.force ? await oldBackups(root) : [];
  if (traces.length === 0 && backupVictims.length === 0) return null;
  // Recorded before anything is removed: a crash in between leaves files the record names, which verify accepts.
  const last = traces[traces.length - 1];
  if (last) await recordReadOnlyPrune(root, { seq: last.seq, sha256: last.sha });
  const trace =
    backupVictims.length === 0
      ? null
      : await writeElicitationTrace(root, {
          action: 'prune',
          message: `Removed the backups of ${backupVictims.length} rolled-back migration${backupVictims.length === 1 ? '' : 's'} (${backupVictims.join(', ')})${traces.length > 0 ? ` and ${traces.length} read-only trace${traces.length === 1 ? '' : 's'}` : ''}. Every gated trace is kept.`,
          schema: {},
          response: null,
          outcome: 'pruned',
          duration_ms: 0,
          planHash: null,
          client: null,
          detail: reason,
          pruned: { reason, traces: [], backups: backupVictims },
        });
  for (const r of traces) await removeFile(root, r.rel);
  for (const id of backupVictims) await removeTree(root, `${STATE.backups}/${id}`);
  return { trace, traces: traces.length, backups: backupVictims };
}

/**
 * The oldest traces of the read-only chain beyond the newest `keep`, in seq order: one run from its
 * start, stopping at a gap (a trace missing there stays reported by verify, never covered by a prune).
 */
async function readOnlyVictims(root: string, keep: number, force: boolean): Promise<{ rel: string; seq: number; sha: string }[]> {
  const names = ((await listFolder(root, STATE.samplingTraces)) ?? [])
    .filter((e) => e.isFile() && e.name.endsWith('.json') && !e.name.startsWith('.'))
    .map((e) => e.name);
  // Cheap first: the folder's count bounds the chain's, and most calls stop here.
  if (names.length <= keep || (!force && names.length <= keep + RETENTION.slack)) return [];
  const members: { rel: string; seq: number; sha: string }[] = [];
  for (const name of names) {
    const rel = `${STATE.samplingTraces}/${name}`;
    const bytes = await readFile(root, rel).catch(() => null);
    if (!bytes) continue;
    let json: { seq?: unknown } | null = null;
    try {
      json = JSON.parse(bytes.toString('utf8')) as { seq?: unknown };
    } catch {
      continue; // a damaged trace stays, and verify keeps reporting it
    }
    if (chainOf('sampling', json) !== READ_ONLY_CHAIN.name) continue;
    if (typeof json.seq === 'number' && Number.isInteger(json.seq) && json.seq >= 1)
      members.push({ rel, seq: json.seq, sha: sha256(bytes) });
  }
  members.sort((a, b) => a.seq - b.seq);
  const over = members.length - keep;
  if (over <= 0 || (!force && members.length <= keep + RETENTION.slack)) return [];
  const run = members.slice(0, over);
  const gap = run.findIndex((r, i) => i > 0 && r.seq !== run[i - 1]!.seq + 1);
  return gap === -1 ? run : run.slice(0, gap);
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
