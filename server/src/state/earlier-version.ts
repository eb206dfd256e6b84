import { trustedGitDir } from '../repo/git-dir.js';
import { trackedByGit } from '../repo/git-tracked.js';
import { listFolder, readFile } from '../repo/safe-fs.js';
import { STATE, STATE_DIR } from '../repo/state-paths.js';
import type { Migration, OnboardingState } from './schema.js';

/**
 * State an earlier version of copilot-onboard wrote on this machine. Before 0.2.0 the state files
 * carried neither a binding to the clone (state/binding.ts) nor the version that wrote them: after an
 * upgrade they cannot verify, yet they are not someone else's. Such a file is told apart from state
 * that came with the repository by what it is: the format of 0.1.0 (no `binding`, no `writtenBy`),
 * valid against the schema, in a work tree whose git folder git itself names (repo/git-dir.ts) and
 * not in git's index (committed state is never taken up). Outside git nothing tells a file this
 * machine wrote from one an archive or a copy brought, so there it is reported, never taken up
 * (the same line the clone key draws, docs/security.md). It is not
 * acted on by itself: rollback offers its migration, checks the backup byte for byte against the
 * manifest and the recorded migration, and takes it up as this clone's only after the person's yes
 * (engine/earlier-migration.ts). Its plan and approval are never used: propose builds a new plan.
 */

/** The version whose state carries no binding and names no version: every release before 0.2.0. */
export const UNSEALED_VERSION = '0.1.0';

export interface EarlierState {
  /** The file it was read from: onboarding.json, or a copy a later write set aside beside it. */
  file: string;
  /** The version that wrote it. */
  version: string;
  state: OnboardingState;
}

/** JSON in the format of a version before 0.2.0: an object without `binding` and `writtenBy`. */
export function isUnsealedFormat(json: unknown): json is Record<string, unknown> {
  return json !== null && typeof json === 'object' && !Array.isArray(json) && !('binding' in json) && !('writtenBy' in json);
}

async function jsonAt(root: string, rel: string): Promise<unknown> {
  const bytes = await readFile(root, rel).catch(() => null);
  if (bytes === null) return null;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
}

/** onboarding.json and the copies of it set aside by later writes (newest first). */
async function candidates(root: string): Promise<string[]> {
  const names = ((await listFolder(root, STATE_DIR).catch(() => null)) ?? [])
    .filter((e) => e.isFile() && e.name.startsWith('onboarding.json.not-written-here-'))
    .map((e) => `${STATE_DIR}/${e.name}`)
    .sort()
    .reverse();
  return [STATE.onboarding, ...names];
}

/** The earlier versions' onboarding states in `.copilot-state/`, onboarding.json first; none when there are none. */
export async function earlierStates(root: string): Promise<EarlierState[]> {
  const found: { file: string; json: Record<string, unknown> }[] = [];
  for (const file of await candidates(root)) {
    const json = await jsonAt(root, file);
    if (isUnsealedFormat(json)) found.push({ file, json });
  }
  // git is asked (a process) only when there is such a file to judge: most folders have none.
  if (found.length === 0 || (await trustedGitDir(root)) === null) return [];
  const tracked = await trackedByGit(
    root,
    found.map((f) => f.file),
  );
  const { OnboardingState } = await import('./schema.js');
  const out: EarlierState[] = [];
  for (const f of found) {
    if (tracked.has(f.file)) continue;
    const parsed = OnboardingState.safeParse(f.json);
    if (parsed.success) out.push({ file: f.file, version: UNSEALED_VERSION, state: parsed.data });
  }
  return out;
}

/** The newest migration an earlier version recorded that is not rolled back, nor taken up by this clone yet. */
export async function earlierMigration(
  root: string,
  own: { migrations: { id: string }[] },
): Promise<{ earlier: EarlierState; migration: Migration } | null> {
  const known = new Set(own.migrations.map((m) => m.id));
  for (const earlier of await earlierStates(root)) {
    const migration = [...earlier.state.migrations].reverse().find((m) => m.rolledBackAt === null && !known.has(m.id));
    if (migration) return { earlier, migration };
  }
  return null;
}

/** Whether the backup folder of migration `id` holds a manifest in an earlier version's format. */
export async function isEarlierBackup(root: string, id: string): Promise<boolean> {
  return isUnsealedFormat(await jsonAt(root, `${STATE.backups}/${id}/manifest.json`));
}
