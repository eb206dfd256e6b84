import fs from 'fs-extra';
import path from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../state/atomic.js';
import { statePaths } from '../state/paths.js';
import { fileOperationDone } from './crash-point.js';

/**
 * The write-ahead journal of a migrate or rollback. It exists only while one runs: finding it at
 * start-up means the process died in the middle, and recovery brings the repository to one side.
 */
export const Journal = z.object({
  version: z.literal(1),
  operation: z.enum(['migrate', 'rollback']),
  migrationId: z.string(),
  planHash: z.string(),
  startedAt: z.string(),
  /** migrate: 'backup' while originals are saved (no repository file touched yet), then 'apply'. */
  phase: z.enum(['backup', 'apply', 'restore']),
  pid: z.number().int(),
  files: z.array(z.object({ path: z.string(), beforeSha256: z.string().nullable(), afterSha256: z.string().nullable() })),
  /** rollback: files edited after the migration, whose current bytes were saved before restoring. */
  edited: z.array(z.string()),
});
export type Journal = z.infer<typeof Journal>;

export function journalPath(root: string): string {
  return path.join(statePaths(root).dir, 'journal.json');
}

export async function writeJournal(root: string, journal: Journal): Promise<void> {
  await writeJsonAtomic(journalPath(root), journal);
  fileOperationDone();
}

export async function clearJournal(root: string): Promise<void> {
  await fs.remove(journalPath(root));
  fileOperationDone();
}

/** The journal of an interrupted operation, or null. A journal that cannot be read is an error, not ignored. */
export async function readJournal(root: string): Promise<Journal | null> {
  let raw: string;
  try {
    raw = await fs.readFile(journalPath(root), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return Journal.parse(JSON.parse(raw));
}
