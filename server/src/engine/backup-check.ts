import { BackupDamagedError, backupDirRel, backupRel, readManifest } from './backup.js';
import { LinkRefusedError, readFile } from '../repo/safe-fs.js';
import { sha256 } from '../common/hash.js';
import type { BackupManifest } from '../state/schema.js';

/** What the state (or the journal) recorded about each file of a migration. */
export interface RecordedFile {
  path: string;
  beforeSha256: string | null;
  afterSha256: string | null;
  existed?: boolean;
  linkTarget?: string;
}

/**
 * The manifest of a migration, checked against what was recorded elsewhere and against its own
 * copies. A manifest is a file anyone can edit: one that says a changed file did not exist would
 * make rollback delete it, so it is never believed on its own.
 */
export async function trustedManifest(
  root: string,
  id: string,
  recorded: RecordedFile[],
  recordedIn: string,
  opts: { earlier?: boolean } = {},
): Promise<BackupManifest> {
  const manifest = await readManifest(root, id, opts);
  const differs = (why: string) =>
    new BackupDamagedError(
      `${backupDirRel(id)}manifest.json does not match the migration recorded in ${recordedIn} (${why}); it was changed after the migration.`,
    );
  if (manifest.id !== id) throw differs(`it names migration ${manifest.id}`);
  if (manifest.files.map((f) => f.path).join('\n') !== recorded.map((f) => f.path).join('\n')) throw differs('it lists other files');
  manifest.files.forEach((f, i) => {
    const r = recorded[i]!;
    const existed = f.beforeSha256 !== null;
    if (f.existed !== existed || f.sha256 !== f.beforeSha256 || f.backup !== (existed ? `files/${f.path}` : null))
      throw differs(`${f.path}: its entry contradicts itself`);
    if (f.beforeSha256 !== r.beforeSha256 || f.afterSha256 !== r.afterSha256 || (r.existed !== undefined && r.existed !== f.existed)) {
      throw differs(`${f.path}: other sha256 or existence`);
    }
    if ((f.linkTarget ?? null) !== (r.linkTarget ?? null)) throw differs(`${f.path}: another symlink target`);
  });
  for (const f of manifest.files) await backupCopy(root, manifest, f);
  return manifest;
}

/** The saved original bytes of one file, checked against the manifest; null for a file the migration created. */
export async function backupCopy(root: string, manifest: BackupManifest, f: BackupManifest['files'][number]): Promise<Buffer | null> {
  if (!f.existed || f.backup === null) return null;
  const rel = `${backupDirRel(manifest.id)}${f.backup}`;
  let bytes: Buffer;
  try {
    const read = await readFile(root, `${backupRel(manifest.id)}/${f.backup}`);
    if (read === null) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    bytes = read;
  } catch (err) {
    if (err instanceof LinkRefusedError) throw err;
    throw new BackupDamagedError(
      `${rel}, the saved original of ${f.path}, cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`,
    );
  }
  if (sha256(bytes) !== f.beforeSha256) {
    throw new BackupDamagedError(
      `${rel}, the saved original of ${f.path}, has changed since the migration saved it: its sha256 is no longer ${f.beforeSha256}, as the manifest says.`,
    );
  }
  return bytes;
}
