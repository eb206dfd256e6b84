import path from 'node:path';

export const STATE_DIR = '.copilot-state';

/** Where each state file lives inside a repository. */
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
