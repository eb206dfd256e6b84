import { backupDirRel } from './backup.js';
import { trustedManifest } from './backup-check.js';
import { writeJson } from '../repo/safe-fs.js';
import { sealed } from '../state/binding.js';
import { earlierMigration, type EarlierState } from '../state/earlier-version.js';
import type { BackupManifest, Migration, OnboardingState } from '../state/schema.js';
import { readState, writeState } from '../state/store.js';

/**
 * A migration an earlier version recorded on this machine (state/earlier-version.ts), offered by
 * rollback when this clone recorded none of its own. Before the person is asked, its manifest is
 * cross-checked against the recorded migration and every saved copy against its sha256, exactly as
 * for a migration of this version; only after the person's yes is it taken up: the manifest sealed
 * to this clone and the migration recorded in this clone's onboarding.json (the earlier file is kept
 * beside it, as `onboarding.json.not-written-here-<time>`). The rollback then runs as any other.
 */
export interface EarlierMigration {
  earlier: EarlierState;
  migration: Migration;
  manifest: BackupManifest;
}

/** The earlier version's migration that can still be rolled back, its backup checked; null when there is none. */
export async function earlierMigrationChecked(root: string, own: OnboardingState): Promise<EarlierMigration | null> {
  const found = await earlierMigration(root, own);
  if (!found) return null;
  const manifest = await trustedManifest(root, found.migration.id, found.migration.files, found.earlier.file, { earlier: true });
  return { ...found, manifest };
}

/** With the person's yes: the migration becomes this clone's own. Checked again first: the files may have changed while the form was open. */
export async function takeUpEarlierMigration(root: string, found: EarlierMigration): Promise<void> {
  const { migration } = found;
  const manifest = await trustedManifest(root, migration.id, migration.files, found.earlier.file, { earlier: true });
  const rel = `${backupDirRel(migration.id)}manifest.json`;
  await writeJson(root, rel, await sealed(root, rel, manifest));
  const state = await readState(root);
  await writeState(root, { ...state, step: 'migrated', migrations: [...state.migrations, migration] });
}
