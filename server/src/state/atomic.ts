import fs from 'fs-extra';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** Write a file whole or not at all: temp file in the same folder, fsync, rename. */
export async function writeAtomic(file: string, data: string | Buffer): Promise<void> {
  await fs.ensureDir(path.dirname(file));
  await writeFileAtomic(file, data, { fsync: true });
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}
