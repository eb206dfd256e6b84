import fs from 'node:fs/promises';
import path from 'node:path';
import { currentLink } from './apply.js';
import { fileOperationDone } from './crash-point.js';
import { sha256 } from '../common/hash.js';
import { normalizeRepoPath, RepoPaths } from '../repo/repo-path.js';
import { statePaths, STATE_DIR } from '../repo/state-paths.js';
import { entryStat, LinkRefusedError, readFile, readResolvedFile, writeFile, writeJson } from '../repo/safe-fs.js';
import type { BackupManifest } from '../state/schema.js';
import type { PlanOperation } from '../planning/plan.js';
import { PreconditionError } from '../common/errors.js';
import { isUnsealedFormat } from '../state/earlier-version.js';
import { isBound, sealed, withoutBinding } from '../state/binding.js';

export function backupDir(root: string, id: string): string {
  return path.join(statePaths(root).backups, id);
}

export function backupDirRel(id: string): string {
  return `${STATE_DIR}/backups/${id}/`;
}

/** The backup folder of a migration as a repository path (no trailing slash), for the safe reader and writer. */
export function backupRel(id: string): string {
  return `${STATE_DIR}/backups/${id}`;
}

/** Save the original bytes (and mode) of every file the operations touch, then the manifest that lists them. */
export async function createBackup(root: string, id: string, planHash: string, ops: PlanOperation[]): Promise<BackupManifest> {
  const paths = new RepoPaths(root);
  const dir = backupRel(id);
  if (await entryStat(root, dir)) throw new Error(`backup folder ${backupDirRel(id)} already exists`);
  const createdDirs = await foldersToCreate(paths, ops);
  const files: BackupManifest['files'] = [];
  for (const op of ops) {
    const abs = await paths.safeAbs(op.path);
    let bytes: Buffer | null = null;
    let mode: number | undefined;
    try {
      bytes = await readResolvedFile(abs, op.path);
      mode = (await fs.stat(abs)).mode & 0o7777;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    // A link the operation replaces is recorded as a link; its content (what it showed) is saved too.
    const linkTarget = op.replacesLink !== undefined ? await currentLink(paths, op.path) : null;
    if (linkTarget !== null) mode = undefined;
    const backup = bytes ? `files/${op.path}` : null;
    if (bytes) {
      await writeFile(root, `${dir}/${backup}`, bytes);
      fileOperationDone();
    }
    const before = bytes ? sha256(bytes) : null;
    files.push({
      path: op.path,
      existed: bytes !== null,
      sha256: before,
      beforeSha256: before,
      afterSha256: op.afterSha256,
      backup,
      ...(mode !== undefined ? { mode } : {}),
      ...(linkTarget !== null ? { linkTarget } : {}),
    });
  }
  const dirModes = await folderModes(paths, ops);
  const manifest: BackupManifest = {
    version: 1,
    id,
    planHash,
    createdAt: new Date().toISOString(),
    files,
    createdDirs,
    ...(Object.keys(dirModes).length > 0 ? { dirModes } : {}),
  };
  const written = await sealed(root, `${dir}/manifest.json`, manifest);
  await writeJson(root, `${dir}/manifest.json`, written);
  fileOperationDone();
  // The manifest as written (with the version that wrote it), less its seal: what readManifest gives back.
  return withoutBinding(written) as BackupManifest;
}

/** The mode of every existing real folder on the way to the operations' files (a removed legacy file may take its emptied folders along). */
async function folderModes(paths: RepoPaths, ops: PlanOperation[]): Promise<Record<string, number>> {
  const modes: Record<string, number> = {};
  for (const op of ops) {
    const parts = normalizeRepoPath(op.path).split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (dir in modes) continue;
      const st = await fs.lstat(paths.abs(dir)).catch(() => null);
      if (!st || !st.isDirectory()) break;
      modes[dir] = st.mode & 0o7777;
    }
  }
  return modes;
}

/** The folders that writing the operations' files will create, shallowest first. */
async function foldersToCreate(paths: RepoPaths, ops: PlanOperation[]): Promise<string[]> {
  const missing = new Set<string>();
  for (const op of ops) {
    if (op.op === 'delete') continue;
    const parts = normalizeRepoPath(op.path).split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (
        !missing.has(dir) &&
        !(await fs.lstat(paths.abs(dir)).then(
          () => true,
          () => false,
        ))
      )
        missing.add(dir);
    }
  }
  return [...missing];
}

/** A backup that cannot be trusted to give back the original bytes. Nothing is restored from it. */
export class BackupDamagedError extends PreconditionError {
  override name = 'BackupDamagedError';
}

/** `earlier`: a manifest in the format of a version before 0.2.0 (no binding) is read too; see engine/earlier-migration.ts. */
export async function readManifest(root: string, id: string, opts: { earlier?: boolean } = {}): Promise<BackupManifest> {
  const rel = `${backupDirRel(id)}manifest.json`;
  let json: unknown;
  try {
    const bytes = await readFile(root, rel);
    if (bytes === null) throw new Error('it does not exist');
    json = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    if (err instanceof LinkRefusedError) throw err;
    throw new BackupDamagedError(`${rel} cannot be read (${(err as Error).message}).`);
  }
  if (!(opts.earlier && isUnsealedFormat(json)) && !(await isBound(root, rel, json)))
    throw new BackupDamagedError(
      `${rel} was not written in this clone (it came with the repository, was copied, or was changed since); copilot-onboard restores nothing from it.`,
    );
  const parsed = (await import('../state/schema.js')).BackupManifest.safeParse(withoutBinding(json as Record<string, unknown>));
  if (!parsed.success) throw new BackupDamagedError(`${rel} does not match its schema.`);
  return parsed.data;
}
