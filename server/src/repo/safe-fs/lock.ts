import fsSync, { type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { LinkRefusedError, lstatOrNull, readlinkOrNull } from './entries.js';
import { folderAndName, placeOf, realFolders } from './places.js';

/**
 * proper-lockfile's mkdir lock at `rel` (a folder), with every call it makes on disk checked here:
 * the folders on the way are real, the lock itself is never a link, and refreshing its mtime
 * (lutimes) never touches what a link points at.
 */
export async function lockFolder(
  root: string,
  rel: string,
  options: {
    stale: number;
    retries: number | { retries: number; minTimeout: number; maxTimeout: number };
    onCompromised: (err: Error) => void;
  },
): Promise<() => Promise<void>> {
  // Loaded here: a command that takes no lock does not load it (nor graceful-fs, which it loads).
  // Started first, so that it loads while the checks below wait on the disk.
  const loading = import('proper-lockfile');
  const p = await placeOf(root, rel);
  const { abs } = (await folderAndName(p, true))!;
  const checked = async (target: string) => {
    if (target !== abs) throw new Error(`the lock ${p.rel} was asked about another path`);
    await realFolders(p, p.parts.length - 1, false);
    const st = lstatOrNull(abs);
    if (st?.isSymbolicLink()) throw new LinkRefusedError(p.rel, readlinkOrNull(abs));
    return st;
  };
  type Callback<T> = (err: Error | null, value?: T) => void;
  const done = <T>(work: Promise<T>, cb: Callback<T>) =>
    void work.then(
      (v) => cb(null, v),
      (err: Error) => cb(err),
    );
  const adapter = {
    mkdir: (target: string, ...rest: unknown[]) =>
      done(
        checked(target).then(() => fsSync.mkdirSync(abs)),
        rest[rest.length - 1] as Callback<unknown>,
      ),
    rmdir: (target: string, cb: Callback<void>) =>
      done(
        checked(target).then(() => fsSync.rmdirSync(abs)),
        cb,
      ),
    stat: (target: string, cb: Callback<Stats>) =>
      done(
        checked(target).then((st) => st ?? fsSync.lstatSync(abs)),
        cb,
      ),
    utimes: (target: string, atime: Date, mtime: Date, cb: Callback<void>) =>
      done(
        checked(target).then(() => fs.lutimes(abs, atime, mtime)),
        cb,
      ),
    rmdirSync: (target: string) => {
      const st = fsSync.lstatSync(target);
      if (target === abs && st.isDirectory()) fsSync.rmdirSync(abs);
    },
    realpath: (target: string, cb: Callback<string>) => done(fs.realpath(target), cb),
  };
  // proper-lockfile keeps one registry entry per locked path: the key is the lock's own path without `.lock`.
  const { default: lockfile } = await loading;
  return lockfile.lock(abs.replace(/\.lock$/, ''), {
    lockfilePath: abs,
    realpath: false,
    fs: adapter as unknown as typeof fsSync,
    ...options,
  });
}
