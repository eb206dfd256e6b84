/**
 * The files git lists in a repository (tracked, and untracked ones it does not ignore): the first
 * step of every scan (analysis/discovery/discover.ts). `analyze` in the CLI starts this git process before it
 * loads the code that reads the list (cli.ts), so that git runs while that code compiles.
 */

import { spawnGit } from '../../repo/git-run.js';

/** Paths with `/`, or null outside a git work tree (or without git). */
export function listGitFiles(root: string): Promise<string[] | null> {
  return new Promise((resolve) => {
    try {
      // Through the one git helper (the folder's git config runs nothing), as a direct process: simple-git would cost its load at start.
      const git = spawnGit(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate']);
      const chunks: Buffer[] = [];
      let bytes = 0;
      git.stdout.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_LISTING_BYTES) git.kill();
        else chunks.push(chunk);
      });
      git.on('error', () => resolve(null));
      git.on('close', (code) => resolve(code === 0 && bytes <= MAX_LISTING_BYTES ? paths(Buffer.concat(chunks).toString('utf8')) : null));
    } catch {
      resolve(null); // a folder name git cannot be given (a NUL in it)
    }
  });
}

/** A listing larger than this is not taken (the scan walks the folders instead). */
const MAX_LISTING_BYTES = 256 * 1024 * 1024;

const paths = (listing: string) => listing.split('\0').filter((p) => p !== '');

/** A listing started before the scan that reads it. */
export interface EarlyListing {
  root: string;
  files: Promise<string[] | null>;
}
