import os from 'node:os';
import { PreconditionError } from '../common/errors.js';
import { STATE_DIR } from '../repo/state-paths.js';
import { ensureFolder, entryStat, listFolder, lockFolder, readFile, removeFile, removeTree, writeFile } from '../repo/safe-fs.js';

/**
 * Locks under `.copilot-state/`, from proper-lockfile (an mkdir lock whose mtime the holder keeps
 * fresh), through the safe writer (safe-fs.ts lockFolder). `operation` keeps two processes (two VS
 * Code windows, a server and the CLI) from running gated steps at once; `traces` orders trace
 * writes into one chain. A lock whose holder died is taken over: at once when its process is gone
 * from this machine, else once it is stale.
 */
export type LockName = 'operation' | 'traces';

const STALE_MS = 10_000;

export class LockHeldError extends PreconditionError {}

interface Owner {
  pid: number;
  host: string;
  command: string;
  since: string;
}

/** Repository-relative paths of a lock (a folder) and of its owner file. */
export const ownerRel = (name: LockName) => `${STATE_DIR}/${name}.lock-owner.json`;
export const lockRel = (name: LockName) => `${STATE_DIR}/${name}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(root: string, name: LockName): Promise<Owner | null> {
  try {
    const bytes = await readFile(root, ownerRel(name));
    return bytes ? (JSON.parse(bytes.toString('utf8')) as Owner) : null;
  } catch {
    return null;
  }
}

function tryLock(root: string, name: LockName, wait: boolean): Promise<() => Promise<void>> {
  return lockFolder(root, lockRel(name), {
    stale: STALE_MS,
    retries: wait ? { retries: 200, minTimeout: 5, maxTimeout: 50 } : 0,
    onCompromised: () => {
      // Another process took a lock we held for longer than it looked alive; stop rather than race it.
      process.stderr.write(`copilot-onboard: the ${name} lock was taken over while held; stopping.\n`);
      process.exit(1);
    },
  });
}

/** The owner file was written for the lock that exists now, not left over from an older one. */
async function ownerMatchesLock(root: string, name: LockName): Promise<boolean> {
  try {
    const [lock, owner] = await Promise.all([entryStat(root, lockRel(name)), entryStat(root, ownerRel(name))]);
    return lock !== null && owner !== null && owner.mtimeMs >= lock.birthtimeMs - 1;
  } catch {
    return false;
  }
}

/** Who holds a lock now, for a person to read, or null when it is free or its holder is gone from this machine. */
export async function lockHolder(root: string, name: LockName): Promise<string | null> {
  const lock = await entryStat(root, lockRel(name)).catch(() => null);
  if (!lock || Date.now() - lock.mtimeMs > STALE_MS) return null;
  const owner = await readOwner(root, name);
  if (owner && owner.host === os.hostname() && !alive(owner.pid)) return null;
  return owner ? `process ${owner.pid} on ${owner.host}, ${owner.command}, since ${owner.since}` : 'another process';
}

/**
 * A lock folder with anything in it was never taken by copilot-onboard (its locks are empty
 * folders): it came with the repository (committed, unpacked). It holds nothing and blocks nothing:
 * removed, so the lock can be taken.
 */
async function clearBroughtLock(root: string, name: LockName): Promise<void> {
  const entries = await listFolder(root, lockRel(name)).catch(() => null);
  if (entries && entries.length > 0) await removeTree(root, lockRel(name));
}

/** A lock that could not be taken for another reason than its holder, named by its repository path (never the machine's). */
function lockFailure(name: LockName, err: unknown): unknown {
  // Only a system call's error names an absolute path; the tool's own (a link refused) name repository paths.
  if (!(err instanceof Error) || !('syscall' in err)) return err;
  const code = (err as NodeJS.ErrnoException).code;
  return new PreconditionError(
    `The ${name} lock (${lockRel(name)}) could not be taken${code ? ` (${code})` : ''}. Remove ${lockRel(name)} if no copilot-onboard is running, and try again.`,
  );
}

export async function withLock<T>(root: string, name: LockName, command: string, fn: () => Promise<T>, wait = false): Promise<T> {
  await ensureFolder(root, STATE_DIR);
  await clearBroughtLock(root, name);
  let release: () => Promise<void>;
  try {
    release = await tryLock(root, name, wait);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw lockFailure(name, err);
    const owner = await readOwner(root, name);
    const who = owner ? `process ${owner.pid} on ${owner.host} (${owner.command}) since ${owner.since}` : 'another process';
    const busy = (holder: string) =>
      new LockHeldError(`Another copilot-onboard is working on this repository: ${holder} holds the lock. Try again when it has finished.`);
    if (owner && owner.host === os.hostname() && !alive(owner.pid) && (await ownerMatchesLock(root, name))) {
      // Two processes may take over the same dead lock at once: the one that loses is busy, like any other.
      try {
        // Checked again right before: another process that took the lock over since has a lock newer than this owner file.
        if (!(await ownerMatchesLock(root, name))) throw Object.assign(new Error('taken over'), { code: 'ELOCKED' });
        await removeTree(root, lockRel(name));
        release = await tryLock(root, name, wait);
      } catch (again) {
        if ((again as NodeJS.ErrnoException).code !== 'ELOCKED' && (again as NodeJS.ErrnoException).code !== 'ENOENT')
          throw lockFailure(name, again);
        const now = await readOwner(root, name);
        throw busy(
          now && now.pid !== owner.pid
            ? `process ${now.pid} on ${now.host} (${now.command}), which took over the lock of a process that had died,`
            : 'another process, which took over the lock of a process that had died,',
        );
      }
    } else {
      throw busy(who);
    }
  }
  const owner: Owner = { pid: process.pid, host: os.hostname(), command, since: new Date().toISOString() };
  try {
    // The owner file only tells another process who holds the lock, and is no longer true after a
    // power loss: it is written whole, but not synced. One lost or left over in a crash names a
    // process that is gone (taken over at once), or none (taken over once stale), as a killed holder's does.
    await writeFile(root, ownerRel(name), `${JSON.stringify(owner)}\n`, { durable: false });
    return await fn();
  } finally {
    await removeFile(root, ownerRel(name), { durable: false }).catch(() => {});
    await release().catch(() => {});
  }
}
