import { PreconditionError } from '../common/errors.js';
import { normalizeRepoPath } from '../repo/repo-path.js';
import { STATE_DIR } from '../repo/state-paths.js';
import type { BackupManifest, Journal, OnboardingState } from '../state/schema.js';
import { readPlan } from '../state/store.js';

/**
 * What a restore may touch, whatever a journal or manifest says: files the plan concerned, never
 * git's own folder or the tool's state, and never a mode bit that lets others in or runs as the owner.
 */

/** Bits a restore never adds to what a file has now: setuid, setgid, sticky, and write for everyone. */
const NEVER_ADDED = 0o7002;

/** The mode a restore gives a file or folder: the recorded one, less any of NEVER_ADDED that it does not have now. */
export function modeToRestore(recorded: number, current: number | null): number {
  return recorded & ~(NEVER_ADDED & ~(current ?? 0));
}

/** Refuses a path a restore must never write or remove: git's folder (at any depth, in any case) or `.copilot-state`. */
export function assertRestorablePath(rel: string): void {
  const parts = normalizeRepoPath(rel).split('/');
  if (parts.some((p) => p.toLowerCase() === '.git'))
    throw new PreconditionError(`The backup names ${rel}, inside git's own folder; copilot-onboard never restores there.`);
  if (parts[0] === STATE_DIR)
    throw new PreconditionError(`The backup names ${rel}, inside ${STATE_DIR}/; copilot-onboard never restores there.`);
}

/** Every path a manifest would have a restore write, remove or chmod, checked. */
export function assertManifestRestorable(manifest: BackupManifest): void {
  for (const f of manifest.files) assertRestorablePath(f.path);
  for (const dir of manifest.createdDirs ?? []) assertRestorablePath(dir);
  for (const dir of Object.keys(manifest.dirModes ?? {})) assertRestorablePath(dir);
}

/**
 * A journal is acted on only for the plan this clone approved (a migrate) or the migration it
 * recorded (a rollback), and only for the files that plan or migration concerned.
 */
export async function assertJournalOfThisFlow(root: string, journal: Journal, state: OnboardingState): Promise<void> {
  const refuse = (why: string) =>
    new PreconditionError(`The journal of migration ${journal.migrationId} ${why}; copilot-onboard does not act on it.`);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(journal.migrationId)) throw refuse('has an id that is not a plain folder name');
  for (const f of journal.files) assertRestorablePath(f.path);
  let concerned: Set<string>;
  if (journal.operation === 'migrate') {
    const plan = await readPlan(root);
    if (!plan || plan.planHash !== journal.planHash || state.approval?.planHash !== journal.planHash)
      throw refuse('names a plan that was not approved here');
    concerned = new Set([...plan.operations.map((o) => o.path), ...plan.legacy.map((l) => l.path), ...plan.sources.map((s) => s.path)]);
  } else {
    const recorded = state.migrations.find((m) => m.id === journal.migrationId && m.planHash === journal.planHash);
    if (!recorded) throw refuse('names a migration that is not recorded here');
    concerned = new Set(recorded.files.map((f) => f.path));
  }
  const stray = journal.files.find((f) => !concerned.has(f.path));
  if (stray) throw refuse(`names ${stray.path}, which its plan does not touch`);
}
