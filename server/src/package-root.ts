import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * This package's folder: the nearest one above this module whose package.json names
 * copilot-onboard. Found by looking, not by a fixed `../..`, so that it holds from server/src,
 * server/dist and the bundled build alike.
 */
function findPackage(): { root: string; version: string } | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'copilot-onboard') return { root: dir, version: pkg.version ?? '0.0.0' };
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
/** The CLI entry of this build, for snippets that run it with `node`. */
export const CLI_PATH: string | null = found ? path.join(found.root, 'server', 'dist', 'cli.js') : null;
