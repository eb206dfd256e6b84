import type * as Fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Taken, not imported: cli.js is an ES module, and an ES import of node:fs reads every export of it
// (its streams, about 2 ms of every command's start).
const { readFileSync } = process.getBuiltinModule('node:fs') as typeof Fs;

/**
 * This package's folder: the nearest one above this module whose package.json names
 * copilot-onboard. Found by looking, not by a fixed `../..`, so that it holds from server/src,
 * server/dist and the bundled build alike.
 */
function findPackage(): { root: string; version: string; repository: string | null } | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
        repository?: unknown;
      };
      if (pkg.name === 'copilot-onboard') return { root: dir, version: pkg.version ?? '0.0.0', repository: githubUrl(pkg.repository) };
    } catch {
      // no package.json here, or not ours: look further up
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

const found = findPackage();

export const PACKAGE_ROOT: string | null = found?.root ?? null;
export const VERSION: string = found?.version ?? '0.0.0';
/**
 * The project's own GitHub repository (`https://github.com/OWNER/NAME`), from package.json's
 * `repository`, or null when it names none or not one on GitHub: links into the docs (SARIF's
 * helpUri) are made only where they exist.
 */
export const REPOSITORY_URL: string | null = found?.repository ?? null;

/** `https://github.com/OWNER/NAME` for the forms package.json's `repository` takes; null for anything else. */
export function githubUrl(repository: unknown): string | null {
  const raw = typeof repository === 'string' ? repository : (repository as { url?: unknown } | null)?.url;
  if (typeof raw !== 'string') return null;
  const m =
    /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(raw) ??
    /^(?:git\+)?(?:https?|git|ssh):\/\/(?:git@)?github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(raw) ??
    /^git@github\.com:([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(raw);
  return m ? `https://github.com/${m[1]}/${m[2]!.replace(/\.git$/, '')}` : null;
}
/** The CLI entry of this build, for snippets that run it with `node`. */
export const CLI_PATH: string | null = found ? path.join(found.root, 'server', 'dist', 'cli.js') : null;
