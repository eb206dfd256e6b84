import { STATE } from '../repo/state-paths.js';
import { removeFile, writeJson } from '../repo/safe-fs.js';
import { fileOperationDone } from './crash-point.js';

import type { Journal } from '../state/schema.js';
import { sealed } from '../state/binding.js';
import { setAsideForeign } from '../state/foreign.js';
import { backupsAdvice, readStateFile } from '../state/store.js';

/**
 * The write-ahead journal of a migrate or rollback (schema in state/schema.ts). It exists only
 * while one runs: finding it at start-up means the process died in the middle.
 */

export const JOURNAL_REL = STATE.journal;

export async function writeJournal(root: string, journal: Journal): Promise<void> {
  await setAsideForeign(root, JOURNAL_REL);
  await writeJson(root, JOURNAL_REL, await sealed(root, JOURNAL_REL, journal));
  fileOperationDone();
}

export async function clearJournal(root: string): Promise<void> {
  await removeFile(root, JOURNAL_REL);
  fileOperationDone();
}

/** The journal of an interrupted operation, or null (also when this clone did not write it). A bound journal off its schema is an error, not ignored. */
export async function readJournal(root: string): Promise<Journal | null> {
  return readStateFile(
    root,
    JOURNAL_REL,
    'journal.json',
    async () => (await import('../state/schema.js')).Journal,
    () => journalAdvice(root),
  );
}

async function journalAdvice(root: string): Promise<string> {
  const backups = await backupsAdvice(root);
  return (
    'It was left as it is. A migrate or rollback was interrupted, and without its journal it cannot be finished or undone by itself. ' +
    `Check the repository (git status).${backups ? ` ${backups}` : ''} When the files are as you want them, move journal.json aside to go on.`
  );
}
