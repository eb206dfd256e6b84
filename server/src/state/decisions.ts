import { readFile, writeFile } from '../repo/safe-fs.js';
import { STATE_DIR } from '../repo/state-paths.js';
import { VERSION } from '../version.js';
import type { OnboardingState } from './schema.js';

/**
 * `.copilot-state/decisions.json`: what the person decided that changes what `check` reports, in a
 * file meant to be committed, so that `check` in a fresh clone (CI) reports what it reports on the
 * developer's machine. onboarding.json holds the same and more, but is this machine's and ignored by
 * git. It says which files the migration in force wrote and touched: a legacy file it did not touch,
 * whose every rule is in those Copilot files, was kept on purpose (steps/superseded.ts), and its
 * copies are not duplicates. It is a record, read and never obeyed: it changes no file, and a rule
 * added to a kept file since makes the file an ordinary one again, whatever the record says.
 * Written by migrate and rollback only, with the same bytes for the same decisions (no timestamps).
 */
export const DECISIONS = `${STATE_DIR}/decisions.json`;

interface Decisions {
  version: 1;
  writtenBy: string;
  /** The migration in force (none once rolled back): the files it touched, and what it wrote. */
  migration: { id: string; files: { path: string; afterSha256: string | null }[] } | null;
}

/** decisions.json for this state; written only when its bytes change. */
export async function writeDecisions(root: string, state: Pick<OnboardingState, 'migrations'>): Promise<void> {
  const active = [...state.migrations].reverse().find((m) => m.rolledBackAt === null) ?? null;
  const decisions: Decisions = {
    version: 1,
    writtenBy: VERSION,
    migration: active ? { id: active.id, files: active.files.map((f) => ({ path: f.path, afterSha256: f.afterSha256 })) } : null,
  };
  const text = `${JSON.stringify(decisions, null, 2)}\n`;
  const now = await readFile(root, DECISIONS).catch(() => null);
  if (now?.toString('utf8') !== text) await writeFile(root, DECISIONS, text);
}

/** The migration decisions.json records as in force, in the shape the superseded files are found from; null when none or unreadable. */
export async function committedMigration(root: string): Promise<Pick<OnboardingState, 'migrations'> | null> {
  const bytes = await readFile(root, DECISIONS).catch(() => null);
  if (bytes === null) return null;
  try {
    const json = JSON.parse(bytes.toString('utf8')) as Partial<Decisions>;
    const m = json.migration;
    if (!m || typeof m.id !== 'string' || !Array.isArray(m.files)) return null;
    const files = m.files
      .filter((f) => typeof f?.path === 'string' && (typeof f.afterSha256 === 'string' || f.afterSha256 === null))
      .map((f) => ({ path: f.path, existed: true, beforeSha256: null, afterSha256: f.afterSha256 }));
    return { migrations: [{ id: m.id, planHash: '0'.repeat(64), migratedAt: '', backupDir: '', files, rolledBackAt: null }] };
  } catch {
    return null;
  }
}
