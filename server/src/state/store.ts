import type { z } from 'zod';
import { BadInputError } from '../common/errors.js';
import { STATE, STATE_DIR } from '../repo/state-paths.js';
import { listFolder, writeJson } from '../repo/safe-fs.js';
import { boundJson, sealed } from './binding.js';
import { setAsideForeign } from './foreign.js';
import { updateStateGitignore } from '../repo/state-gitignore.js';
import type { OnboardingState, PlanFile } from './schema.js';

export class StateDamagedError extends BadInputError {
  override name = 'StateDamagedError';
  constructor(
    readonly file: string,
    problem: string,
    readonly recovery: string,
  ) {
    super(`${STATE_DIR}/${file} is damaged: ${problem}. ${recovery}`);
  }
}

export function freshState(now: string): OnboardingState {
  return { version: 1, step: 'new', updatedAt: now, plan: null, approval: null, migrations: [] };
}

/**
 * A state file's content, checked against its binding and its schema: null when the file does not
 * exist or this clone did not write it; a bound file that does not fit its schema is damaged,
 * reported with `advice` (the way back), never reset.
 * `rel` is repository-relative: it is read through no link (safe-fs.ts). `schema` is loaded only
 * when the file exists: a command on a repository without state does not build zod's schemas.
 */
export async function readStateFile<T>(
  root: string,
  rel: string,
  name: string,
  schema: () => Promise<z.ZodType<T>>,
  advice: () => Promise<string>,
): Promise<T | null> {
  const json = await boundJson(root, rel);
  if (json === null) return null;
  const parsed = (await schema()).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StateDamagedError(
      name,
      `it does not match its schema (${issue.path.join('.') || '(root)'}: ${issue.message})`,
      await advice(),
    );
  }
  return parsed.data;
}

/** Read the onboarding state; a missing file is a fresh start, a damaged one is an error, never a reset. */
export async function readState(root: string): Promise<OnboardingState> {
  const state = await readStateFile(
    root,
    STATE.onboarding,
    'onboarding.json',
    async () => (await import('./schema.js')).OnboardingState,
    () => recoveryAdvice(root),
  );
  return state ?? freshState(new Date().toISOString());
}

export async function writeState(root: string, state: OnboardingState): Promise<void> {
  await updateStateGitignore(root);
  await setAsideForeign(root, STATE.onboarding);
  await writeJson(root, STATE.onboarding, await sealed(root, STATE.onboarding, { ...state, updatedAt: new Date().toISOString() }));
}

export async function readPlan(root: string): Promise<PlanFile | null> {
  return readStateFile(
    root,
    STATE.plan,
    'plan.json',
    async () => (await import('./schema.js')).PlanFile,
    async () => 'Run propose again to build a fresh plan.',
  );
}

export async function writePlan(root: string, plan: PlanFile): Promise<void> {
  await writeJson(root, STATE.plan, await sealed(root, STATE.plan, plan));
}

/** How to get back: the backup manifests are the source of truth when the state file is lost. */
async function recoveryAdvice(root: string): Promise<string> {
  const keep = 'It was left as it is. Move it aside (for example to onboarding.json.damaged) to start a new onboarding';
  const backups = await backupsAdvice(root);
  return backups ? `${keep}. ${backups}` : `${keep}; no migration backups exist, so no repository file depends on it.`;
}

/** Where the original bytes of earlier migrations are, or null when there are none. */
export async function backupsAdvice(root: string): Promise<string | null> {
  const ids = ((await listFolder(root, STATE.backups)) ?? []).map((e) => e.name).sort();
  if (ids.length === 0) return null;
  return (
    `Backups of earlier migrations are in ${STATE_DIR}/backups/ (latest: ${ids[ids.length - 1]}); each manifest.json lists ` +
    `the original files, and the files/ folder beside it holds their exact bytes to copy back if you need to undo that migration by hand.`
  );
}
