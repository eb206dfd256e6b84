import fs from 'fs-extra';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { statePaths } from '../state/paths.js';
import type { ElicitationTrace, SamplingTrace } from '../state/schema.js';

/** `2026-11-22T08:30:45.123Z` → `2026-11-22T08-30-45-123Z`, as the contract names trace files. */
export function fileStamp(iso: string): string {
  return iso.replace(/[:.]/g, '-');
}

/**
 * Write a trace under a name that is never reused: the file appears whole (written to a temp file,
 * fsynced, then hard-linked to its name, which fails if the name exists), and on a clash the
 * timestamp moves on by a millisecond.
 */
async function writeUnique<T extends { timestamp: string }>(dir: string, suffix: string, trace: T): Promise<string> {
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
      return final;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await fs.remove(temp);
    }
  }
  throw new Error(`could not find a free trace name in ${dir}`);
}

export function writeElicitationTrace(root: string, trace: ElicitationTrace): Promise<string> {
  return writeUnique(statePaths(root).elicitationTraces, trace.action, trace);
}

export function writeSamplingTrace(root: string, trace: SamplingTrace): Promise<string> {
  return writeUnique(statePaths(root).samplingTraces, trace.intent, trace);
}

/** Path of a trace relative to the repository, with `/`, for state and messages. */
export function repoRelative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
