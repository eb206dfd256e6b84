import type { ScanResult } from '../analysis/discovery/scan.js';
import { POINTER_KINDS } from '../planning/plan.js';
import type { Problem } from '../model/problem.js';
import type { LegacyFate } from '../model/plan.js';
import type { OnboardingState } from '../state/schema.js';
import type { FlowOptions } from '../call/context.js';
import { stepName } from '../call/words.js';
import { showPath, showPaths } from '../show/untrusted.js';
import { fileNames } from '../show/file-names.js';
import { readState } from '../state/store.js';
import { committedMigration } from '../state/decisions.js';

/**
 * Legacy files a migration left in place (the default choice, keep) whose rules are all in the
 * Copilot files that migration wrote. Without this, analyze after a migration lists every rule
 * the migration copied as a duplicate: problems the tool made itself, that the person already
 * decided about. Here they become one note per file, with the next step (pointer or remove).
 *
 * A file counts as superseded only while every rule line of it (headings aside) is found in those
 * Copilot files: a rule added to it since is not, so it is then analyzed as any other file.
 */
export interface SupersededFile {
  path: string;
  /** The Copilot files, written by the migration, that hold its rules. */
  by: string[];
  /** The rule lines it holds, each also in `by`. */
  rules: number;
  /** The duplicates between it and `by` that are left out of the problems. */
  copies: number;
  /** What approve offers for it: remove, and pointer for the kinds that can import another file. */
  fates: Extract<LegacyFate, 'pointer' | 'remove'>[];
}

export function supersededFiles(scan: Pick<ScanResult, 'docs'>, state: Pick<OnboardingState, 'migrations'>): SupersededFile[] {
  const active = [...state.migrations].reverse().find((m) => m.rolledBackAt === null);
  if (!active) return [];
  const touched = new Set(active.files.map((f) => f.path));
  const written = new Set(active.files.filter((f) => f.afterSha256 !== null).map((f) => f.path));
  const ruleLines = (units: ScanResult['docs'][number]['units']) =>
    units
      .filter((u) => u.kind !== 'heading' && u.kind !== 'frontmatter')
      .flatMap((u) => u.lines.map((l) => l.trim()).filter((l) => l !== ''));
  const copilot = scan.docs
    .filter((d) => d.role === 'copilot' && written.has(d.path))
    .map((d) => ({ path: d.path, lines: new Set(ruleLines(d.units)) }));
  if (copilot.length === 0) return [];
  const out: SupersededFile[] = [];
  for (const doc of scan.docs) {
    if (doc.role !== 'legacy' || doc.aliasOf !== null || doc.notRule !== null || touched.has(doc.path)) continue;
    const lines = ruleLines(doc.units);
    if (lines.length === 0 || !lines.every((l) => copilot.some((c) => c.lines.has(l)))) continue;
    const by = copilot.filter((c) => lines.some((l) => c.lines.has(l))).map((c) => c.path);
    out.push({
      path: doc.path,
      by,
      rules: lines.length,
      copies: 0,
      fates: POINTER_KINDS.has(doc.kind) ? ['pointer', 'remove'] : ['remove'],
    });
  }
  return out;
}

/**
 * The problems without the duplicates that exist only because a superseded file is kept: every
 * location but at most one is in a superseded file. Counts them on each file.
 */
export function withoutCopies<P extends Pick<Problem, 'type' | 'locations'>>(problems: P[], superseded: SupersededFile[]): P[] {
  if (superseded.length === 0) return problems;
  const byPath = new Map(superseded.map((s) => [s.path, s]));
  return problems.filter((p) => {
    if (p.type !== 'duplication') return true;
    const inKept = p.locations.filter((l) => byPath.has(l.path));
    if (inKept.length === 0 || p.locations.length - inKept.length > 1) return true;
    const others = p.locations.filter((l) => !byPath.has(l.path));
    if (!others.every((l) => inKept.some((k) => byPath.get(k.path)!.by.includes(l.path)))) return true;
    for (const path of new Set(inKept.map((l) => l.path))) byPath.get(path)!.copies++;
    return false;
  });
}

/** One note per file: "superseded by …; kept because you chose to", and how to change that. */
export function supersededLines(superseded: SupersededFile[], options: FlowOptions | undefined): string[] {
  if (superseded.length === 0) return [];
  const lines = superseded.map(
    (s) =>
      `Note: ${showPath(s.path)} is superseded by ${showPaths(s.by)}; kept because you chose to. Its ${s.rules} rule line${s.rules === 1 ? ' is' : 's are'} in Copilot's files${s.copies > 0 ? `, so the ${s.copies} duplicate${s.copies === 1 ? '' : 's'} between them ${s.copies === 1 ? 'is' : 'are'} not listed as problems` : ''}.`,
  );
  lines.push(nextForSuperseded(superseded, options));
  return lines;
}

/** The commands that replace kept files with a pointer or remove them. */
export function nextForSuperseded(superseded: SupersededFile[], options: FlowOptions | undefined): string {
  const pointer = superseded.some((s) => s.fates.includes('pointer'));
  const what = pointer ? 'pointer or remove' : 'remove';
  return `To replace ${superseded.length === 1 ? 'it' : 'them'} (${what}): run ${stepName(options, 'propose')}, then ${stepName(options, 'approve')} and choose ${what} for ${showPaths(superseded.map((s) => s.path))}, then ${stepName(options, 'migrate')}.`;
}

/** The superseded files of this repository now; none when its state cannot be read (analyze still runs). */
export function supersededNow(root: string, scan: Pick<ScanResult, 'docs'>): Promise<SupersededFile[]> {
  return supersededOnceScanned(root)(scan);
}

/**
 * The same, with the state read from now on: analyze starts it before its scan, which lets the
 * event loop turn between its batches of files, so the state is read by the time the scan is done.
 */
export function supersededOnceScanned(root: string): (scan: Pick<ScanResult, 'docs'>) => Promise<SupersededFile[]> {
  // This machine's own state first; else what the committed decisions say (a fresh clone, CI): check agrees with the developer's.
  const read = readState(root).then(
    async (state) => ({
      state: state.migrations.some((m) => m.rolledBackAt === null) ? state : ((await committedMigration(root)) ?? state),
    }),
    async () => {
      const committed = await committedMigration(root);
      return committed ? { state: committed } : null;
    },
  );
  return async (scan) => {
    const got = await read;
    if (got === null) return [];
    try {
      return supersededFiles(scan, got.state);
    } catch {
      return [];
    }
  };
}

/**
 * An analysis (or a plan) with the copies left out and, when every legacy file is superseded, the
 * pattern said as it is: the rules are in Copilot's files already.
 */
export function annotated<A extends { problems: Problem[]; patternDetail?: string }>(
  a: A,
  superseded: SupersededFile[],
  legacyCount: number,
): A {
  if (superseded.length === 0) return a;
  const out = { ...a, problems: withoutCopies(a.problems, superseded) };
  if (a.patternDetail !== undefined && superseded.length === legacyCount) {
    out.patternDetail = `the rules of ${fileNames(superseded.map((s) => s.path))} are in Copilot's files already; ${superseded.length === 1 ? 'that file is' : 'those files are'} kept as you chose`;
  }
  return out;
}
