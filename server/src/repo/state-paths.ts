import os from 'node:os';
import path from 'node:path';

export const STATE_DIR = '.copilot-state';

/** Each state file and folder as a repository-relative path: what the safe reader and writer (safe-fs.ts) take. */
export const STATE = {
  dir: STATE_DIR,
  onboarding: `${STATE_DIR}/onboarding.json`,
  plan: `${STATE_DIR}/plan.json`,
  planDiff: `${STATE_DIR}/plan.diff`,
  journal: `${STATE_DIR}/journal.json`,
  chain: `${STATE_DIR}/trace-chain.json`,
  backups: `${STATE_DIR}/backups`,
  elicitationTraces: `${STATE_DIR}/elicitation-traces`,
  samplingTraces: `${STATE_DIR}/sampling-traces`,
  /** The head of the read-only traces' own chain, git-ignored with them (state/traces/chains.ts). */
  readOnlyChain: `${STATE_DIR}/sampling-traces/.read-only-chain.json`,
  /** Keeps the read-only traces out of git, wherever the folder's other files stand (state/traces/chains.ts). */
  samplingGitignore: `${STATE_DIR}/sampling-traces/.gitignore`,
  gitignore: `${STATE_DIR}/.gitignore`,
  usedRequestStates: `${STATE_DIR}/used-request-states`,
} as const;

export const STATE_GITIGNORE = STATE.gitignore;

/**
 * The `.gitignore` the first run writes into the `.copilot-state/` it creates: a habitual
 * `git add -A` then offers only the traces (and this file). onboarding.json is ignored as well:
 * it is the way back to the backups, which are ignored, and is of no use without them.
 */
export function stateGitignoreText(): string {
  return `# Written by copilot-onboard when it created this folder. The traces of the gated steps
# (elicitation-traces/ and trace-chain.json) are meant to be reviewed and may be committed; the
# read-only traces in sampling-traces/ keep themselves out of git (their own .gitignore); the rest is
# this machine's working state: full copies of your files (backups/), the plan, the state that
# points at those backups, the journal and the locks (and, outside git, this folder's key).
backups/
plan.json
plan.diff
onboarding.json
journal.json
*.lock
*.lock-owner.json
*.damaged
*.not-written-here-*
clone-key
used-request-states/
.copilot-tmp-*
`;
}

/** Where each state file lives inside a repository, as absolute paths (for messages and tests). */
export function statePaths(root: string) {
  const dir = path.join(root, STATE_DIR);
  return {
    dir,
    onboarding: path.join(dir, 'onboarding.json'),
    plan: path.join(dir, 'plan.json'),
    backups: path.join(dir, 'backups'),
    elicitationTraces: path.join(dir, 'elicitation-traces'),
    samplingTraces: path.join(dir, 'sampling-traces'),
  };
}

/**
 * This user's own state folder, outside every repository: where the key of a folder outside git is
 * kept (state/binding.ts), so that no key file a folder brings is ever believed.
 * `COPILOT_ONBOARD_STATE_HOME` when set and not empty; else `$XDG_STATE_HOME/copilot-onboard` (an
 * absolute XDG_STATE_HOME only, as the XDG spec says); else `~/.local/state/copilot-onboard`.
 */
export function userStateHome(env: NodeJS.ProcessEnv = process.env): string {
  const own = env.COPILOT_ONBOARD_STATE_HOME;
  if (own && own.trim() !== '') return path.resolve(own);
  const xdg = env.XDG_STATE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'copilot-onboard');
  return path.join(os.homedir(), '.local', 'state', 'copilot-onboard');
}
