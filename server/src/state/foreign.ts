import { entryStat, readFile, listFolder, removeFile, writeFile } from '../repo/safe-fs.js';
import { STATE } from '../repo/state-paths.js';
import { boundJson, cloneKey } from './binding.js';
import { earlierMigration, earlierStates, isEarlierBackup, isUnsealedFormat } from './earlier-version.js';

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
  /** State an earlier version wrote here (state/earlier-version.ts): named as such, never among `files` and `folders`. */
  earlier?: EarlierSummary;
}

export interface EarlierSummary {
  version: string;
  /** Its files and backup folders. */
  files: string[];
  /** The migration it recorded that can still be rolled back, and its backup folder; null when none. */
  migration: { id: string; backupDir: string } | null;
}

const FILES = [STATE.onboarding, STATE.plan, STATE.journal];

/** The decision state in the repository that this clone did not write, or null when there is none. */
export async function foreignState(root: string): Promise<ForeignState | null> {
  // The key is looked up (a git process, in git) only when there is state to judge: most folders have none.
  let known: Promise<Buffer | null> | undefined;
  const key = () => (known ??= cloneKey(root));
  const earlier = await earlierSummary(root, key);
  const files: string[] = [];
  for (const rel of FILES) if (!earlier?.files.includes(rel) && (await isForeign(root, rel, key))) files.push(rel);
  const folders: string[] = [];
  let latestOwnBackup: string | null = null;
  const ids = ((await listFolder(root, STATE.backups).catch(() => null)) ?? []).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of ids) {
    if (!entry.isDirectory()) continue;
    const folder = `${STATE.backups}/${entry.name}`;
    if (earlier?.files.includes(`${folder}/`)) continue;
    if (await isForeign(root, `${folder}/manifest.json`, key)) folders.push(folder);
    else latestOwnBackup = entry.name;
  }
  if (files.length + folders.length === 0 && !earlier) return null;
  return { files, folders, latestOwnBackup, ...(earlier ? { earlier } : {}) };
}

/**
 * What an earlier version left here: its onboarding state, its plan when in its format, and the
 * backup folders of its migrations in their format. Null when there is none.
 */
async function earlierSummary(root: string, key: () => Promise<Buffer | null>): Promise<EarlierSummary | null> {
  const states = await earlierStates(root);
  if (states.length === 0) return null;
  const k = await key();
  const own = k === null ? { migrations: [] } : await ownMigrations(root, k);
  const files = states.map((e) => e.file);
  if (isUnsealedFormat(JSON.parse((await readFile(root, STATE.plan).catch(() => null))?.toString('utf8') ?? 'null')))
    files.push(STATE.plan);
  for (const e of states)
    for (const m of e.state.migrations) if (await isEarlierBackup(root, m.id)) files.push(`${STATE.backups}/${m.id}/`);
  const open = await earlierMigration(root, own);
  return {
    version: states[0]!.version,
    files: [...new Set(files)],
    migration: open ? { id: open.migration.id, backupDir: open.migration.backupDir } : null,
  };
}

/** The migrations this clone's own onboarding.json records (none when it has none of its own). */
async function ownMigrations(root: string, key: Buffer): Promise<{ migrations: { id: string }[] }> {
  const json = (await boundJson(root, STATE.onboarding, key).catch(() => null)) as { migrations?: { id: string }[] } | null;
  return { migrations: Array.isArray(json?.migrations) ? json.migrations : [] };
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
