import fsSync, { type Dirent, type Stats } from 'node:fs';
import { lstatOrNull } from './entries.js';
import { folderAndName, placeOf, realFolders } from './places.js';

/** Looking at entries without reading them: a folder's entries, an entry's own lstat, every folder on the way checked. */

/** The entries of the folder `rel` (their own types: a link is a link; `.` is the root itself), or null when it does not exist. */
export async function listFolder(root: string, rel: string): Promise<Dirent[] | null> {
  if (rel === '.') return fsSync.readdirSync(fsSync.realpathSync.native(root), { withFileTypes: true });
  const p = await placeOf(root, rel);
  const at = await realFolders(p, p.parts.length, false);
  return at === null ? null : fsSync.readdirSync(at, { withFileTypes: true });
}

/** lstat of `rel` (never following it), with every folder on the way checked; null when it does not exist. */
export async function entryStat(root: string, rel: string): Promise<Stats | null> {
  const p = await placeOf(root, rel);
  const at = await folderAndName(p, false);
  return at ? lstatOrNull(at.abs) : null;
}
