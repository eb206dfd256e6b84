import fs from 'fs-extra';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { statePaths } from '../state/paths.js';
import type { ElicitationTrace, SamplingTrace } from '../state/schema.js';
import { sha256 } from '../core/hash.js';
import { fsyncDir, writeJsonAtomic } from '../state/atomic.js';
import { lockPath, ownerFile, withLock } from '../state/lock.js';
import { errorMessage } from '../core/errors.js';

/** `2026-11-22T08:30:45.123Z` → `2026-11-22T08-30-45-123Z`, as the contract names trace files. */
export function fileStamp(iso: string): string {
  return iso.replace(/[:.]/g, '-');
}

/**
 * Write a trace under a name that is never reused: the file appears whole (written to a temp file,
 * fsynced, then hard-linked to its name, which fails if the name exists), and on a clash the
 * timestamp moves on by a millisecond.
 */
async function writeUnique<T extends { timestamp: string }>(dir: string, suffix: string, trace: T): Promise<{ file: string; timestamp: string }> {
  await fs.ensureDir(dir);
  let at = Date.parse(trace.timestamp);
  for (let attempt = 0; attempt < 1000; attempt++, at++) {
    const timestamp = new Date(at).toISOString();
    const body = `${JSON.stringify({ ...trace, timestamp }, null, 2)}\n`;
    const final = path.join(dir, `${fileStamp(timestamp)}-${suffix}.json`);
    const temp = path.join(dir, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    const fd = await fs.open(temp, 'wx');
    try {
      await fs.write(fd, body);
      await fs.fsync(fd);
    } finally {
      await fs.close(fd);
    }
    try {
      await fs.link(temp, final);
      await fsyncDir(dir);
      return { file: final, timestamp };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await fs.remove(temp);
    }
  }
  throw new Error(`could not find a free trace name in ${dir}`);
}

export function writeElicitationTrace(root: string, trace: Unchained<ElicitationTrace>): Promise<string> {
  return writeChained(root, statePaths(root).elicitationTraces, trace.action, trace);
}

export function writeSamplingTrace(root: string, trace: Unchained<SamplingTrace>): Promise<string> {
  return writeChained(root, statePaths(root).samplingTraces, trace.intent, trace);
}

/** What a caller gives: the writer adds the place in the chain and the time it is written. */
type Unchained<T> = Omit<T, 'seq' | 'prev' | 'timestamp'>;

/** The newest trace of the chain: its number, the sha256 of its bytes, and its timestamp. */
export interface ChainHead {
  seq: number;
  sha256: string | null;
  file: string | null;
  timestamp?: string;
}

export const chainHeadPath = (root: string) => path.join(statePaths(root).dir, 'trace-chain.json');

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
 */
function writeChained<T extends object>(root: string, dir: string, suffix: string, trace: T): Promise<string> {
  const run = async () =>
    withLock(
      root,
      'traces',
      'trace writer',
      async () => {
        const head = await readChainHead(root);
        const now = new Date().toISOString();
        const timestamp = head.timestamp && head.timestamp > now ? head.timestamp : now;
        // A caller's own timestamp (the start of its exchange) gives way to this one.
        const { timestamp: _start, ...fields } = trace as T & { timestamp?: unknown };
        const written = await writeUnique(dir, suffix, { seq: head.seq + 1, prev: head.sha256, timestamp, ...fields });
        const file = written.file;
        const next: ChainHead = { seq: head.seq + 1, sha256: sha256(await fs.readFile(file)), file: repoRelative(root, file), timestamp: written.timestamp };
        await writeJsonAtomic(chainHeadPath(root), next);
        return file;
      },
      true,
    );
  const previous = queues.get(root) ?? Promise.resolve();
  const mine = previous.then(run, run);
  queues.set(root, mine.catch(() => undefined));
  return mine;
}

/** The chain head, rebuilt from the trace files when its file is missing or unreadable. */
export async function readChainHead(root: string): Promise<ChainHead> {
  try {
    const head = JSON.parse(await fs.readFile(chainHeadPath(root), 'utf8')) as ChainHead;
    if (Number.isInteger(head.seq)) return head;
  } catch {
    // rebuilt below
  }
  let best: ChainHead = { seq: 0, sha256: null, file: null };
  const sp = statePaths(root);
  for (const dir of [sp.elicitationTraces, sp.samplingTraces]) {
    if (!(await fs.pathExists(dir))) continue;
    for (const name of await fs.readdir(dir)) {
      if (!name.endsWith('.json')) continue;
      const bytes = await fs.readFile(path.join(dir, name));
      try {
        const json = JSON.parse(bytes.toString('utf8')) as { seq?: unknown; timestamp?: unknown };
        const { seq } = json;
        if (typeof seq === 'number' && seq > best.seq) {
          best = { seq, sha256: sha256(bytes), file: repoRelative(root, path.join(dir, name)), ...(typeof json.timestamp === 'string' ? { timestamp: json.timestamp } : {}) };
        }
      } catch {
        // an unreadable trace is reported by verify
      }
    }
  }
  return best;
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
  const sp = statePaths(root);
  try {
    for (const dir of [sp.dir, kind === 'elicitation' ? sp.elicitationTraces : sp.samplingTraces]) {
      await fs.ensureDir(dir);
      const probe = path.join(dir, `.probe-${process.pid}-${randomBytes(4).toString('hex')}`);
      await fs.writeFile(probe, 'probe');
      await fs.remove(probe);
    }
    for (const [file, folder] of [
      [chainHeadPath(root), false],
      [ownerFile(root, 'traces'), false],
      [lockPath(root, 'traces'), true],
    ] as const) {
      const stat = await fs.lstat(file).catch(() => null);
      if (stat && stat.isDirectory() !== folder) return `${repoRelative(root, file)} is ${folder ? 'not a folder' : 'a folder'}`;
    }
    return null;
  } catch (err) {
    return errorMessage(err);
  }
}
