import { VERSION } from '../../version.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { STATE, STATE_DIR } from '../../repo/state-paths.js';
import type { ChainHead, ElicitationTrace, SamplingTrace } from '../schema.js';
import { sha256 } from '../../common/hash.js';
import { createFile, ensureFolder, entryStat, LinkRefusedError, listFolder, readFile, removeFile, writeJson } from '../../repo/safe-fs.js';
import { lockRel, ownerRel, withLock } from '../lock.js';
import { chainHeadFrom } from '../chain-head.js';
import { errorMessage } from '../../common/errors.js';
import { chainOf, GATED_CHAIN, READ_ONLY_CHAIN, READ_ONLY_GITIGNORE, type TraceChain } from './chains.js';

export type { ChainHead } from '../schema.js';

/** `2026-11-22T08:30:45.123Z` → `2026-11-22T08-30-45-123Z`, as the contract names trace files. */
export function fileStamp(iso: string): string {
  return iso.replace(/[:.]/g, '-');
}

export const CHAIN_REL = STATE.chain;
export const TRACE_FOLDERS = [
  ['elicitation', STATE.elicitationTraces],
  ['sampling', STATE.samplingTraces],
] as const;

/** A repository path that names a trace file (not any file: the chain head is untrusted input). */
const TRACE_PATH = GATED_CHAIN.file;

/**
 * Write a trace under a name that is never reused: the file appears whole (written to a temp file,
 * fsynced, then hard-linked to its name, which fails if the name exists, a link included), and on a
 * clash the timestamp moves on by a millisecond.
 */
async function writeUnique(root: string, folder: string, suffix: string, trace: { timestamp: string } & Record<string, unknown>) {
  let at = Date.parse(trace.timestamp);
  for (let attempt = 0; attempt < 1000; attempt++, at++) {
    const timestamp = new Date(at).toISOString();
    const text = `${JSON.stringify({ ...trace, timestamp }, null, 2)}\n`;
    const rel = `${folder}/${fileStamp(timestamp)}-${suffix}.json`;
    if (await createFile(root, rel, text)) return { rel, timestamp, sha256: sha256(Buffer.from(text, 'utf8')) };
  }
  throw new Error(`could not find a free trace name in ${folder}`);
}

export function writeElicitationTrace(root: string, trace: Unchained<ElicitationTrace>): Promise<string> {
  return writeChained(root, STATE.elicitationTraces, trace.action, trace, GATED_CHAIN);
}

/** A read-only trace: in the read-only chain, which git ignores (chains.ts). */
export function writeSamplingTrace(root: string, trace: Unchained<SamplingTrace>): Promise<string> {
  return writeChained(root, STATE.samplingTraces, trace.intent, { ...trace, chain: 'read-only' }, READ_ONLY_CHAIN);
}

/** What a caller gives: the writer adds the place in the chain, any break it found, and the time it is written. */
type Unchained<T> = Omit<T, 'seq' | 'prev' | 'timestamp' | 'chainBreak' | 'chain'>;

/** Roots whose read-only folder has its `.gitignore` (checked once per process). */
const ignoring = new Set<string>();

/** The read-only traces' own `.gitignore`, made when missing; one a person changed is left as it is. */
async function ignoreReadOnly(root: string): Promise<void> {
  if (ignoring.has(root)) return;
  if (!(await entryStat(root, STATE.samplingGitignore))) await createFile(root, STATE.samplingGitignore, READ_ONLY_GITIGNORE);
  ignoring.add(root);
}

/** Calls in this process queue here, so the file lock below is only contended across processes. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Every trace, of either kind, carries `seq` (1, 2, 3, ...) and `prev` (sha256 of the trace before
 * it), so that a missing, edited or reordered trace shows (`copilot-onboard traces verify`).
 *
 * The timestamp is taken here, under the lock, not when the exchange started: an approve whose
 * form stays open while an analyze is traced would otherwise be dated before a trace that comes
 * earlier in the chain. So timestamps, file names and seq all run in the same order (a clock set
 * back is not followed: a trace is never dated before the one before it), and `duration_ms`
 * tells when the exchange started.
 *
 * A chain found broken (see chainPosition) is never silently re-rooted: the trace carries
 * `chainBreak`, the head records it, and verify reports it until a person acknowledges it.
 * Every string of the trace is made free of this machine's paths (relativeToRepo).
 */
function writeChained<T extends object>(root: string, folder: string, suffix: string, trace: T, chain: TraceChain): Promise<string> {
  return queued(root, async () => {
    if (chain === READ_ONLY_CHAIN) await ignoreReadOnly(root);
    const [at, paths] = await Promise.all([chainPosition(root, chain), machinePaths(root)]);
    const now = new Date().toISOString();
    const timestamp = at.timestamp && at.timestamp > now ? at.timestamp : now;
    // A caller's own timestamp (the start of its exchange) gives way to this one.
    const { timestamp: _start, ...fields } = trace as T & { timestamp?: unknown };
    const clean = relativeToRepo(fields, paths) as Record<string, unknown>;
    const body = {
      seq: at.seq,
      prev: at.prev,
      timestamp,
      ...clean,
      writtenBy: VERSION,
      ...(at.problems.length > 0 ? { chainBreak: { problems: at.problems } } : {}),
    };
    const written = await writeUnique(root, folder, suffix, body);
    const breaks = at.problems.length > 0 ? [...at.breaks, at.seq] : at.breaks;
    const next: ChainHead = {
      seq: at.seq,
      sha256: written.sha256,
      file: written.rel,
      timestamp: written.timestamp,
      ...(breaks.length > 0 ? { breaks } : {}),
      ...(at.prunedThrough ? { prunedThrough: at.prunedThrough } : {}),
    };
    await writeJson(root, chain.head, next);
    return path.join(root, ...written.rel.split('/'));
  });
}

/**
 * Run `fn` under the traces lock, after the calls of this process before it: the file lock is then
 * only contended across processes. Every write of a chain head goes through here.
 */
export function queued<R>(root: string, fn: () => Promise<R>): Promise<R> {
  const run = () => withLock(root, 'traces', 'trace writer', fn, true);
  const previous = queues.get(root) ?? Promise.resolve();
  const mine = previous.then(run, run);
  queues.set(
    root,
    mine.catch(() => undefined),
  );
  return mine;
}

/**
 * Record in the read-only chain's head that its traces up to `through.seq` are about to be removed
 * by the size policy (state/retention.ts): verify then accepts their absence, and the trace after
 * them must name `through.sha256`. Nothing is recorded over a head that is missing or unreadable.
 */
export function recordReadOnlyPrune(root: string, through: { seq: number; sha256: string }): Promise<void> {
  return queued(root, async () => {
    const { head } = await readChainHead(root, READ_ONLY_CHAIN);
    if (!head || head.seq <= through.seq)
      throw new Error(`the read-only chain's head (${READ_ONLY_CHAIN.head}) does not go past the traces to prune`);
    await writeJson(root, READ_ONLY_CHAIN.head, { ...head, prunedThrough: through });
  });
}

/** Where the next trace goes in the chain, and what was found broken (empty when nothing was). */
interface Position {
  seq: number;
  prev: string | null;
  timestamp?: string;
  problems: string[];
  breaks: number[];
  prunedThrough?: ChainHead['prunedThrough'];
}

/** The chain head as written, or why it cannot be used. A link there is refused, never followed. */
export async function readChainHead(
  root: string,
  chain: TraceChain = GATED_CHAIN,
): Promise<{ head: ChainHead | null; problem: string | null }> {
  let bytes: Buffer | null;
  try {
    bytes = await readFile(root, chain.head);
  } catch (err) {
    if (err instanceof LinkRefusedError) throw err;
    return { head: null, problem: `unreadable (${errorMessage(err)})` };
  }
  if (bytes === null) return { head: null, problem: 'missing' };
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { head: null, problem: 'not valid JSON' };
  }
  const head = chainHeadFrom(json);
  if (!head || (head.file !== null && !chain.file.test(head.file)))
    return { head: null, problem: 'not a chain head (it does not match its schema)' };
  return { head, problem: null };
}

/**
 * Where the chain stands. With a head whose newest trace is there with the bytes it names, the
 * next trace follows it. Otherwise the chain is broken: it goes on (after the highest seq known,
 * from the sha256 the head recorded, else from the newest trace left), and the break is named.
 * Only an empty start (no head, no trace) begins a fresh chain.
 */
async function chainPosition(root: string, chain: TraceChain): Promise<Position> {
  const { head, problem } = await readChainHead(root, chain);
  if (head) {
    const breaks = head.breaks ?? [];
    const kept = head.prunedThrough ? { prunedThrough: head.prunedThrough } : {};
    if (head.file === null && head.seq === 0) {
      const { newest, count } = await newestTrace(root, chain);
      if (count === 0) return { seq: 1, prev: null, problems: [], breaks };
      return brokenFrom(newest, count, `the chain head (${chain.head}) names no trace, though traces exist`, breaks);
    }
    const named = head.file === null ? null : await traceBytes(root, head.file);
    if (named !== null && sha256(named) === head.sha256)
      return {
        seq: head.seq + 1,
        prev: head.sha256,
        ...(head.timestamp ? { timestamp: head.timestamp } : {}),
        problems: [],
        breaks,
        ...kept,
      };
    const { newest } = await newestTrace(root, chain);
    const what = named === null ? `is missing` : 'was edited after it was written';
    return {
      ...kept,
      seq: Math.max(head.seq, newest?.seq ?? 0) + 1,
      prev: head.sha256,
      ...latest(head.timestamp, newest?.timestamp),
      problems: [`${head.file ?? 'the newest trace'} (seq ${head.seq}), the newest trace the chain head names, ${what}`],
      breaks,
    };
  }
  const { newest, count } = await newestTrace(root, chain);
  if (count === 0 && problem === 'missing') return { seq: 1, prev: null, problems: [], breaks: [] };
  return brokenFrom(newest, count, `the chain head (${chain.head}) was ${problem}`, []);
}

function brokenFrom(newest: Newest | null, count: number, why: string, breaks: number[]): Position {
  const from = newest
    ? `${newest.file} (seq ${newest.seq}), the newest of the ${count} trace file${count === 1 ? '' : 's'} left`
    : `nothing: none of the ${count} trace files left has a place in the chain`;
  return {
    seq: (newest?.seq ?? 0) + 1,
    prev: newest?.sha256 ?? null,
    ...latest(newest?.timestamp),
    problems: [`${why}; the chain went on from ${from}`],
    breaks,
  };
}

function latest(...stamps: Array<string | undefined>): { timestamp?: string } {
  const known = stamps.filter((s): s is string => typeof s === 'string').sort();
  return known.length > 0 ? { timestamp: known[known.length - 1]! } : {};
}

/** The bytes of a trace file, or null when it is missing or not a regular file. */
async function traceBytes(root: string, rel: string): Promise<Buffer | null> {
  try {
    return await readFile(root, rel);
  } catch (err) {
    if (err instanceof LinkRefusedError && !TRACE_PATH.test(err.rel)) throw err; // a trace folder itself as a link
    return null;
  }
}

interface Newest {
  file: string;
  seq: number;
  sha256: string;
  timestamp?: string;
}

/** The chain's trace with the highest seq, and how many `.json` entries of its folders it may hold. Read only when the chain is broken. */
async function newestTrace(root: string, chain: TraceChain): Promise<{ newest: Newest | null; count: number }> {
  let newest: Newest | null = null;
  let count = 0;
  for (const [kind, folder] of TRACE_FOLDERS) {
    for (const entry of (await listFolder(root, folder)) ?? []) {
      const rel = `${folder}/${entry.name}`;
      if (!entry.name.endsWith('.json') || !chain.file.test(rel)) continue;
      if (!entry.isFile()) {
        if (chain === GATED_CHAIN) count++; // an odd entry: counted once, by the chain it could not be told from
        continue;
      }
      const bytes = await traceBytes(root, rel);
      if (!bytes) continue;
      let json: { seq?: unknown; timestamp?: unknown } | null = null;
      try {
        json = JSON.parse(bytes.toString('utf8')) as { seq?: unknown; timestamp?: unknown };
      } catch {
        // an unreadable trace is reported by verify
      }
      if ((json === null ? GATED_CHAIN.name : chainOf(kind, json)) !== chain.name) continue;
      count++;
      if (json && typeof json.seq === 'number' && Number.isInteger(json.seq) && json.seq > (newest?.seq ?? 0)) {
        newest = {
          file: rel,
          seq: json.seq,
          sha256: sha256(bytes),
          ...(typeof json.timestamp === 'string' ? { timestamp: json.timestamp } : {}),
        };
      }
    }
  }
  return { newest, count };
}

/** This machine's paths that may turn up in a trace (in an error message), longest first, with what stands for them. */
export async function machinePaths(root: string): Promise<Array<[string, string]>> {
  const roots = new Set([path.resolve(root), realOrResolved(root)]);
  const out: Array<[string, string]> = [...roots].map((r) => [r, '.']);
  const home = os.homedir();
  if (home.length > 1) out.push([home, '~']);
  // The command this process runs as (`node /abs/path/server/dist/cli.js`), in a sentence that names a step: its name instead.
  const script = process.argv[1];
  if (script && path.basename(script) === 'cli.js') out.push([`node ${path.resolve(script)}`, 'copilot-onboard']);
  out.push(...(PACKAGE_ROOT && PACKAGE_ROOT.length > 1 ? ([[PACKAGE_ROOT, '<copilot-onboard>']] as Array<[string, string]>) : []));
  return out.filter(([p]) => p.length > 1).sort((a, b) => b[0].length - a[0].length);
}

function realOrResolved(root: string): string {
  try {
    return realpathSync.native(root);
  } catch {
    return path.resolve(root);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every string in `value` with this machine's paths made relative: the repository root and what is
 * below it become repository paths (`/home/me/repo/.github/x.md` → `.github/x.md`, the root
 * alone → `.`), and the home folder becomes `~`. A trace is meant to be committed and read by others.
 */
export function relativeToRepo(value: unknown, paths: Array<[string, string]>): unknown {
  if (typeof value === 'string') {
    let s = value;
    for (const [abs, stands] of paths) {
      // Not when the path goes on (`/home/me/repo-2`, `/home/me/repo.git`); a full stop after it ends a sentence.
      s = s.replace(new RegExp(`${escapeRegExp(abs)}(/|(?![\\w@+-]|\\.[\\w-]))`, 'g'), (_m, slash: string) =>
        slash === '/' ? (stands === '.' ? '' : `${stands}/`) : stands,
      );
    }
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => relativeToRepo(v, paths));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relativeToRepo(v, paths)]));
  return value;
}

/** Path of a trace relative to the repository, with `/`, for state and messages. */
export function repoRelative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * Why a trace of this kind could not be written now, or null: every file and folder the chained
 * write touches is probed (the traces folder, the chain head, the traces lock and its owner file).
 */
export async function traceWriteProblem(root: string, kind: 'elicitation' | 'sampling'): Promise<string | null> {
  const head = kind === 'elicitation' ? CHAIN_REL : READ_ONLY_CHAIN.head;
  try {
    for (const folder of [STATE_DIR, kind === 'elicitation' ? STATE.elicitationTraces : STATE.samplingTraces]) {
      await ensureFolder(root, folder);
      const probe = `${folder}/.copilot-tmp-probe-${process.pid}-${randomBytes(4).toString('hex')}`;
      await createFile(root, probe, 'probe');
      await removeFile(root, probe);
    }
    for (const [rel, folder] of [
      [head, false],
      [ownerRel('traces'), false],
      [lockRel('traces'), true],
    ] as const) {
      const stat = await entryStat(root, rel);
      if (stat && stat.isDirectory() !== folder) return `${rel} is ${folder ? 'not a folder' : 'a folder'}`;
    }
    return null;
  } catch (err) {
    return errorMessage(err);
  }
}
