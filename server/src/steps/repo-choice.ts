import fs from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../common/errors.js';

/**
 * Which repository a session works on: `--repo`, else COPILOT_ONBOARD_REPO, else the client's first
 * root (when it supports roots: mcp/repo.ts asks), else the working directory.
 */
export interface RepoChoice {
  /** From --repo or the environment; wins over everything else. */
  explicit: string | null;
  cwd: string;
}

export function repoChoice(flag: string | undefined, env = process.env, cwd = process.cwd()): RepoChoice {
  // An unset shell variable (`--repo "$REPO"`) must not quietly become the working directory.
  if (flag !== undefined && flag.trim() === '') {
    throw new BadInputError(
      '--repo is empty (an unset shell variable?): name the repository folder, or leave --repo out to use COPILOT_ONBOARD_REPO or the working directory.',
    );
  }
  const explicit = flag ?? (env.COPILOT_ONBOARD_REPO && env.COPILOT_ONBOARD_REPO !== '' ? env.COPILOT_ONBOARD_REPO : null);
  return { explicit: explicit ? path.resolve(cwd, explicit) : null, cwd };
}

/** The folder a choice without a client's roots names, and where it came from (for the refusal's words). */
export function chosenDir(choice: RepoChoice): { dir: string; from: string } {
  return choice.explicit
    ? { dir: choice.explicit, from: '--repo or COPILOT_ONBOARD_REPO' }
    : { dir: choice.cwd, from: 'the working directory' };
}

export async function checkRepoDir(dir: string, from: string): Promise<string> {
  let st;
  try {
    // Synchronous, like safe-fs's look-ups: a stat takes microseconds, its promise form a round trip
    // through the thread pool.
    st = fs.statSync(dir);
  } catch {
    throw new BadInputError(`The repository ${dir} (${from}) does not exist.`);
  }
  if (!st.isDirectory()) throw new BadInputError(`The repository ${dir} (${from}) is not a directory.`);
  return dir;
}

/** A choice whose folder was checked: `root` exists and is a directory. */
export interface CheckedRepo extends RepoChoice {
  root: string;
}

export async function checkedRepo(choice: RepoChoice): Promise<CheckedRepo> {
  const { dir, from } = chosenDir(choice);
  return { ...choice, root: await checkRepoDir(dir, from) };
}
