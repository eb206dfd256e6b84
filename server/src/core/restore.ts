import fs from 'fs-extra';
import path from 'node:path';
import { backupDir } from './backup.js';
import { currentSha } from './apply.js';
import { fileOperationDone } from './crash-point.js';
import { sha256 } from './hash.js';
import { RepoPaths } from './repo-path.js';
import { writeAtomic } from '../state/atomic.js';
import type { BackupManifest } from '../state/schema.js';

/** Files whose bytes differ from what the migration wrote: a person edited them since. */
export async function editedSinceMigration(root: string, manifest: BackupManifest): Promise<string[]> {
  const paths = new RepoPaths(root);
  const edited: string[] = [];
  for (const f of manifest.files) {
    if ((await currentSha(paths, f.path)) !== f.afterSha256) edited.push(f.path);
  }
  return edited;
}

/**
 * Put every file back as the backup holds it, byte for byte, and remove the files the migration
 * created. Current content of edited files is saved beside the backup first, so nothing is lost.
 */
export async function restoreBackup(
  root: string,
  manifest: BackupManifest,
  edited: string[],
): Promise<{ restored: string[]; removed: string[]; savedEdits: string[] }> {
  const paths = new RepoPaths(root);
  const dir = backupDir(root, manifest.id);
  const savedEdits: string[] = [];
  for (const rel of edited) {
    const abs = await paths.safeAbs(rel);
    const saved = path.join(dir, 'edited-after-migration', ...rel.split('/'));
    // On a resumed rollback the edits were saved already; the file may be restored by now.
    if ((await fs.pathExists(abs)) && !(await fs.pathExists(saved))) {
      await writeAtomic(saved, await fs.readFile(abs));
      fileOperationDone();
    }
    savedEdits.push(rel);
  }
  // Check every backup against its manifest before writing anything.
  const originals = new Map<string, Buffer>();
  for (const f of manifest.files) {
    if (!f.existed || !f.backup) continue;
    const bytes = await fs.readFile(path.join(dir, ...f.backup.split('/')));
    if (sha256(bytes) !== f.beforeSha256) throw new Error(`the backup of ${f.path} does not match its manifest; nothing was restored`);
    originals.set(f.path, bytes);
  }
  const restored: string[] = [];
  const removed: string[] = [];
  for (const f of manifest.files) {
    const abs = await paths.safeAbs(f.path);
    const bytes = originals.get(f.path);
    if (bytes) {
      if ((await currentSha(paths, f.path)) !== f.beforeSha256) {
        await writeAtomic(abs, bytes);
        fileOperationDone();
      }
      restored.push(f.path);
    } else {
      if (await fs.pathExists(abs)) {
        await fs.remove(abs);
        fileOperationDone();
      }
      removed.push(f.path);
    }
  }
  return { restored, removed, savedEdits };
}
