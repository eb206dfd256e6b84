import { entryStat, readFile, listFolder, removeFile, writeFile } from '../repo/safe-fs.js';
import { STATE } from '../repo/state-paths.js';
import { boundJson, cloneKey } from './binding.js';

/**
 * Decision state this clone did not write: files under `.copilot-state/` that drive a change but
 * carry no valid binding (state/binding.ts). They came with the repository (committed, copied) or
 * were changed since; they are never used, only reported, with the way to clear them.
 */
export interface ForeignState {
  /** Repository paths of the ignored files; a backup folder is named by its folder. */
  files: string[];
  /** Backup folders among them, which go as a whole. */
  folders: string[];
  /** The newest backup this clone did write: the way back, should the ignored state be this clone's own, damaged. */
  latestOwnBackup: string | null;
}

const FILES = [STATE.onboarding, STATE.plan, STATE.journal];

/** The decision state in the repository that this clone did not write, or null when there is none. */
export async function foreignState(root: string): Promise<ForeignState | null> {
  // The key is looked up (a git process, in git) only when there is state to judge: most folders have none.
  let known: Promise<Buffer | null> | undefined;
  const key = () => (known ??= cloneKey(root));
  const files: string[] = [];
  for (const rel of FILES) if (await isForeign(root, rel, key)) files.push(rel);
  const folders: string[] = [];
  let latestOwnBackup: string | null = null;
  const ids = ((await listFolder(root, STATE.backups).catch(() => null)) ?? []).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of ids) {
    if (!entry.isDirectory()) continue;
    const folder = `${STATE.backups}/${entry.name}`;
    if (await isForeign(root, `${folder}/manifest.json`, key)) folders.push(folder);
    else latestOwnBackup = entry.name;
  }
  return files.length + folders.length > 0 ? { files, folders, latestOwnBackup } : null;
}

async function isForeign(root: string, rel: string, key: () => Promise<Buffer | null>): Promise<boolean> {
  try {
    if (!(await entryStat(root, rel))?.isFile()) return false;
  } catch {
    // A link on the way: the checks before a step name it.
    return false;
  }
  return (await boundJson(root, rel, await key()).catch(() => null)) === null;
}

/**
 * Before a state file is written over: one this clone did not write is kept beside it, renamed, so
 * that writing never silently throws away what it held (an older version's state, a damaged file).
 */
export async function setAsideForeign(root: string, rel: string): Promise<string | null> {
  if (!(await isForeign(root, rel, () => cloneKey(root)))) return null;
  const bytes = (await readFile(root, rel))!;
  const aside = `${rel}.not-written-here-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await writeFile(root, aside, bytes);
  await removeFile(root, rel);
  return aside;
}
