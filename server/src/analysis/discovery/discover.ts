import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { formatFor } from '../formats/registry.js';
import type { Format } from '../formats/types.js';
import { listGitFiles } from './git-listing.js';
import { listFolder, readResolvedFile } from '../../repo/safe-fs.js';

/** Folders that never hold the repository's own instructions. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  'vendor',
  'third_party',
  'bower_components',
  '.venv',
  'venv',
  '.copilot-state',
]);

/** A folder of SKIPPED_DIRS anywhere on a path (a whole segment followed by `/`). */
const IN_SKIPPED_DIR = new RegExp(`(?:^|/)(?:${[...SKIPPED_DIRS].map((d) => d.replace(/[.]/g, '\\.')).join('|')})/`);

const skipped = (rel: string): boolean => IN_SKIPPED_DIR.test(rel);

/** An instruction file: its repository path (with `/`) and its format. */
export interface FoundFile {
  rel: string;
  format: Format;
}

/**
 * Every file of the repository, in no particular order. In a git work tree this is git's own list of
 * tracked and untracked-but-not-ignored files (`listed`, when the caller started it before; else
 * asked now); elsewhere a walk that honours .gitignore.
 */
export async function repositoryFiles(root: string, listed?: Promise<string[] | null>): Promise<string[]> {
  return (await (listed ?? listGitFiles(root))) ?? (await walk(root));
}

/** The instruction files among a repository's files. */
export function instructionFilesIn(all: readonly string[]): FoundFile[] {
  const found: FoundFile[] = [];
  for (const rel of all) {
    const format = formatFor(rel);
    if (format !== undefined && !skipped(rel)) found.push({ rel, format });
  }
  return found;
}

/** Every instruction file, in no particular order (the scan orders them). */
export async function discoverInstructionFiles(root: string, listed?: Promise<string[] | null>): Promise<FoundFile[]> {
  return instructionFilesIn(await repositoryFiles(root, listed));
}

async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string, rules: { base: string; ig: Ignore }[]) => {
    let entries;
    try {
      entries = (await listFolder(root, dir === '' ? '.' : dir)) ?? [];
    } catch {
      return;
    }
    const here = await readGitignore(root, dir);
    const active = here ? [...rules, { base: dir, ig: here }] : rules;
    const ignored = (rel: string, isDir: boolean) =>
      active.some(({ base, ig }) => {
        const sub = base === '' ? rel : rel.slice(base.length + 1);
        return ig.ignores(isDir ? `${sub}/` : sub);
      });
    for (const e of entries) {
      const rel = dir === '' ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && !ignored(rel, true)) await visit(rel, active);
      } else if ((e.isFile() || e.isSymbolicLink()) && !ignored(rel, false)) {
        out.push(rel);
      }
    }
  };
  await visit('', []);
  return out;
}

/** A folder's .gitignore: read only when it is a regular file (no link, no FIFO: never blocks) of at most 1 MiB; else none. */
async function readGitignore(root: string, dir: string): Promise<Ignore | null> {
  const rel = dir === '' ? '.gitignore' : `${dir}/.gitignore`;
  try {
    const bytes = await readResolvedFile(path.join(root, rel), rel, { maxBytes: MAX_GITIGNORE_BYTES });
    return Buffer.isBuffer(bytes) ? ignore().add(bytes.toString('utf8')) : null;
  } catch {
    return null;
  }
}

const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** Whether a path lies in a folder that never holds the repository's own instructions (`.git`, `node_modules`, …). */
export function inSkippedDir(rel: string): boolean {
  return skipped(rel);
}
