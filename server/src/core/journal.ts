import fs from 'fs-extra';
import path from 'node:path';
import { writeJsonAtomic } from '../state/atomic.js';
import { statePaths } from '../state/paths.js';
import { fileOperationDone } from './crash-point.js';

import { Journal } from '../state/schema.js';

/**
 * The write-ahead journal of a migrate or rollback (schema in state/schema.ts). It exists only
 * while one runs: finding it at start-up means the process died in the middle.
 */

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
