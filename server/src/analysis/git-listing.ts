/**
 * The files git lists in a repository (tracked, and untracked ones it does not ignore): the first
 * step of every scan (analysis/discover.ts). `analyze` in the CLI starts this git process before it
 * loads the code that reads the list (cli.ts), so that git runs while that code compiles.
 */

/** Paths with `/`, or null outside a git work tree (or without git). */
export function listGitFiles(root: string): Promise<string[] | null> {
  // Taken when first needed: cli.ts, which starts this, loads child_process for no other command.
  const { execFile } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    try {
      execFile(
        'git',
        ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'],
        { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
        (err, stdout) => resolve(err ? null : stdout.split('\0').filter((p) => p !== '')),
      );
    } catch {
      resolve(null); // a folder name git cannot be given (a NUL in it)
    }
  });
}

/** A listing started before the scan that reads it. */
export interface EarlyListing {
  root: string;
  files: Promise<string[] | null>;
}

let early: EarlyListing | null = null;

/** The next scan of `listing.root` takes this listing instead of starting git (once). */
export function useEarlyListing(listing: EarlyListing): void {
  early = listing;
}

/** The listing of `root`: the early one, if one was started for this very folder and not used yet; else a fresh one. */
export function gitListing(root: string): Promise<string[] | null> {
  if (early?.root !== root) return listGitFiles(root);
  const { files } = early;
  early = null;
  return files;
}
