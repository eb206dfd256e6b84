/**
 * The files git lists in a repository (tracked, and untracked ones it does not ignore): the first
 * step of every scan (analysis/discovery/discover.ts). `analyze` in the CLI starts this git process before it
 * loads the code that reads the list (cli.ts), so that git runs while that code compiles.
 */

/** Paths with `/`, or null outside a git work tree (or without git). */
export function listGitFiles(root: string): Promise<string[] | null> {
  // Taken when first needed: cli.ts, which starts this, loads child_process for no other command.
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    try {
      // Only stdout is a pipe: each pipe is a handle and a stream made while the process waits for git to start.
      const git = spawn('git', ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
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
