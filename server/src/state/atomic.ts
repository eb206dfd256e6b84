import fs from 'fs-extra';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Write a file whole or not at all: write-file-atomic writes a temp file in the same folder, fsyncs
 * it and renames it into place; then the folder is fsynced so the rename itself survives a crash.
 */
export async function writeAtomic(file: string, data: string | Buffer, mode?: number): Promise<void> {
  const dir = path.dirname(file);
  await fs.ensureDir(dir);
  // Without a mode, write-file-atomic keeps the mode of the file it replaces.
  await writeFileAtomic(file, data, { fsync: true, ...(mode !== undefined ? { mode } : {}) });
  await fsyncDir(dir);
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

export async function fsyncDir(dir: string): Promise<void> {
  let fd: number | undefined;
  try {
    fd = await fs.open(dir, 'r');
    await fs.fsync(fd);
  } catch {
    // Some file systems cannot fsync a folder; the file itself is already synced.
  } finally {
    if (fd !== undefined) await fs.close(fd).catch(() => {});
  }
}
