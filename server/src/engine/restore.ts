import fs from 'node:fs/promises';
import path from 'node:path';
import { backupRel } from './backup.js';
import { backupCopy, trustedManifest } from './backup-check.js';
import { currentLink, currentSha } from './apply.js';
import { fileOperationDone } from './crash-point.js';
import { assertManifestRestorable, modeToRestore } from './restorable.js';
import { PreconditionError } from '../common/errors.js';
import { isInside, RepoPaths } from '../repo/repo-path.js';
import {
  createSymlink,
  entryStat,
  readResolvedFile,
  removeEmptyFolder,
  removeFile,
  removeLinkOrFile,
  setFolderMode,
  setMode,
  writeFile,
} from '../repo/safe-fs.js';
import { writeDecisions } from '../state/decisions.js';
import { STATE_DIR } from '../repo/state-paths.js';
import type { BackupManifest, OnboardingState } from '../state/schema.js';
import { readState, writeState } from '../state/store.js';

export const STATE_FILE_REL = `${STATE_DIR}/onboarding.json`;

export interface Restored {
  restored: string[];
  removed: string[];
  savedEdits: string[];
  /** Files the person deleted after the migration: nothing of theirs to save. */
  deletedAfterMigration: string[];
}

/** Write the state as one file operation of a migrate or rollback (a crash point). */
export async function saveState(root: string, state: OnboardingState): Promise<void> {
  await writeState(root, state);
  // What check reads of the person's decisions, in a file meant to be committed (state/decisions.ts).
  await writeDecisions(root, state);
  fileOperationDone();
}

/** Files whose bytes differ from what the migration wrote: a person edited them since. */
export async function editedSinceMigration(root: string, manifest: BackupManifest): Promise<string[]> {
  const paths = new RepoPaths(root);
  const edited: string[] = [];
  for (const f of manifest.files) {
    if ((await currentSha(paths, f.path)) !== f.afterSha256) edited.push(f.path);
  }
  return edited;
}

/** The manifest of a recorded migration, checked against the state before anything is restored from it. */
export async function manifestOfRecorded(root: string, id: string, state?: OnboardingState): Promise<BackupManifest> {
  const migration = (state ?? (await readState(root))).migrations.find((m) => m.id === id);
  if (!migration) throw new PreconditionError(`Migration ${id} is not recorded in ${STATE_FILE_REL}.`);
  return trustedManifest(root, id, migration.files, STATE_FILE_REL);
}

/** Restore a recorded migration's backup and record the rollback; resuming an interrupted one is the same. */
/** Called after each file a rollback puts back or removes: how many of how many, and which. */
export type RestoreProgress = (done: number, total: number, path: string) => void;

export async function finishRollback(root: string, id: string, edited: string[], onFile?: RestoreProgress): Promise<Restored> {
  const result = await restoreBackup(root, await manifestOfRecorded(root, id), edited, onFile);
  const state = await readState(root);
  const now = new Date().toISOString();
  await saveState(root, {
    ...state,
    step: 'rolled_back',
    migrations: state.migrations.map((m) => (m.id === id && m.rolledBackAt === null ? { ...m, rolledBackAt: now } : m)),
  });
  return result;
}

/**
 * Put every file back as the backup holds it, byte for byte, and remove the files the migration
 * created. Current content of edited files is saved beside the backup first, so nothing is lost.
 */
export async function restoreBackup(root: string, manifest: BackupManifest, edited: string[], onFile?: RestoreProgress): Promise<Restored> {
  assertManifestRestorable(manifest);
  const paths = new RepoPaths(root);
  const dir = backupRel(manifest.id);
  // Read and check every backup before writing anything.
  const originals = new Map<string, Buffer>();
  for (const f of manifest.files) {
    const bytes = await backupCopy(root, manifest, f);
    if (bytes) originals.set(f.path, bytes);
  }
  const savedEdits: string[] = [];
  const deletedAfterMigration: string[] = [];
  for (const rel of edited) {
    const abs = await paths.safeAbs(rel);
    const saved = `${dir}/edited-after-migration/${rel}`;
    // On a resumed rollback the edits were saved already, and the file may be restored by now.
    if (await entryStat(root, saved)) savedEdits.push(rel);
    else if (!(await exists(abs))) deletedAfterMigration.push(rel);
    else if ((await currentSha(paths, rel)) !== manifest.files.find((f) => f.path === rel)?.beforeSha256) {
      await writeFile(root, saved, await readResolvedFile(abs, rel));
      fileOperationDone();
      savedEdits.push(rel);
    }
  }
  const restored: string[] = [];
  const removed: string[] = [];
  for (const [i, f] of manifest.files.entries()) {
    onFile?.(i, manifest.files.length, f.path);
    if (f.linkTarget !== undefined) {
      await restoreLink(paths, f.path, f.linkTarget);
      restored.push(f.path);
      continue;
    }
    const abs = await paths.safeAbs(f.path);
    const bytes = originals.get(f.path);
    if (bytes) {
      const now = await modeNow(abs);
      const mode = f.mode !== undefined ? modeToRestore(f.mode, now) : undefined;
      if ((await currentSha(paths, f.path)) !== f.beforeSha256) {
        await writeFile(root, f.path, bytes, mode !== undefined ? { mode } : {});
        fileOperationDone();
      } else if (mode !== undefined && now !== mode) {
        await setMode(root, f.path, mode);
        fileOperationDone();
      }
      restored.push(f.path);
    } else {
      if (await removeFile(root, f.path)) fileOperationDone();
      removed.push(f.path);
    }
  }
  await removeCreatedFolders(root, manifest.createdDirs ?? []);
  await restoreFolderModes(root, manifest.dirModes ?? {});
  return { restored, removed, savedEdits, deletedAfterMigration };
}

/** Make `rel` the symlink to `target` it was before the migration, whatever regular file stands there now. */
async function restoreLink(paths: RepoPaths, rel: string, target: string): Promise<void> {
  const abs = await paths.safeEntryAbs(rel);
  if (!isInside(await paths.realRoot(), path.resolve(path.dirname(abs), target))) {
    throw new PreconditionError(`The backup says ${rel} was a symlink to ${target}, which leaves the repository; it is not made again.`);
  }
  if ((await currentLink(paths, rel)) === target) return;
  const st = await fs.lstat(abs).catch(() => null);
  if (st?.isDirectory())
    throw new PreconditionError(`${rel} is a folder now; move it aside and run rollback again to put the symlink back.`);
  // The link itself is removed and made again, never followed (safe-fs.ts).
  if (st && (await removeLinkOrFile(paths.root, rel))) fileOperationDone();
  await createSymlink(paths.root, rel, target);
  fileOperationDone();
}

/** The permission bits of the regular file at `abs` now, or null when there is none. */
async function modeNow(abs: string): Promise<number | null> {
  const st = await fs.lstat(abs).catch(() => null);
  return st?.isFile() ? st.mode & 0o7777 : null;
}

async function exists(abs: string): Promise<boolean> {
  return fs.lstat(abs).then(
    () => true,
    () => false,
  );
}

/** Folders as they were: a folder the migration emptied and removed, made again by the restore, gets its own mode back (not 0755). */
async function restoreFolderModes(root: string, modes: Record<string, number>): Promise<void> {
  for (const [dir, mode] of Object.entries(modes)) {
    const st = await entryStat(root, dir).catch(() => null);
    if (!st || !st.isDirectory()) continue;
    const restored = modeToRestore(mode, st.mode & 0o7777);
    if ((st.mode & 0o7777) === restored) continue;
    await setFolderMode(root, dir, restored);
    fileOperationDone();
  }
}

/** Remove the folders the migration created, deepest first, each only when nothing else is in it (a link there is left alone). */
async function removeCreatedFolders(root: string, dirs: string[]): Promise<void> {
  for (const dir of [...dirs].sort((a, b) => b.split('/').length - a.split('/').length)) {
    const stat = await entryStat(root, dir).catch(() => null);
    if (!stat?.isDirectory()) continue;
    if (await removeEmptyFolder(root, dir)) fileOperationDone();
  }
}
