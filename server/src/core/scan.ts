import fs from 'node:fs/promises';
import type { InstructionDoc } from './model.js';
import { FIXED_PATHS, formatFor } from './formats/registry.js';
import { RepoPaths } from './repo-path.js';
import { readSource, type ReadableSource, type SkippedSource } from './source-file.js';

export interface SourceInfo {
  path: string;
  kind: string;
  bytes: number;
  sha256: string | null;
}

export interface ScanResult {
  root: string;
  sources: SourceInfo[];
  docs: InstructionDoc[];
  /** Readable files by path, with their exact bytes. */
  files: Map<string, ReadableSource>;
  skipped: SkippedSource[];
}

/** Find the instruction files of a repository and parse the readable ones. */
export async function scanRepository(root: string): Promise<ScanResult> {
  const paths = new RepoPaths(root);
  const result: ScanResult = { root, sources: [], docs: [], files: new Map(), skipped: [] };
  for (const rel of FIXED_PATHS) {
    if (!(await exists(paths.abs(rel)))) continue;
    const format = formatFor(rel);
    if (!format) continue;
    const read = await readSource(paths, rel);
    if (read.status === 'skipped') {
      result.skipped.push(read);
      result.sources.push({ path: rel, kind: format.id, bytes: read.size, sha256: read.sha256 });
      continue;
    }
    result.files.set(rel, read);
    result.sources.push({ path: rel, kind: format.id, bytes: read.bytes.length, sha256: read.sha256 });
    result.docs.push(format.parse(read));
  }
  return result;
}

async function exists(abs: string): Promise<boolean> {
  try {
    await fs.lstat(abs);
    return true;
  } catch {
    return false;
  }
}
