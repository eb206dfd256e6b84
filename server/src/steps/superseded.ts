import { fileThere, type ScanResult } from '../analysis/discovery/scan.js';
import type { InstructionDoc, Unit } from '../model/model.js';
import { managedLineNumbers } from '../model/managed-blocks.js';
import { pathKeyed } from '../model/links.js';
import { defaultRepoint, POINTER_KINDS } from '../planning/plan.js';
import type { Repoint } from '../planning/repoint.js';
import type { Problem } from '../model/problem.js';
import type { Pattern } from '../model/analysis.js';
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

export function supersededFiles(scan: CopilotLookupScan, state: Pick<OnboardingState, 'migrations'>): SupersededFile[] {
  const active = [...state.migrations].reverse().find((m) => m.rolledBackAt === null);
  if (!active) return [];
  const touched = new Set(active.files.map((f) => f.path));
  const written = new Set(active.files.filter((f) => f.afterSha256 !== null).map((f) => f.path));
  const copilot = scan.docs
    .filter((d) => d.role === 'copilot' && written.has(d.path))
    .map((d) => ({ path: d.path, holds: copilotHolds(scan, [d]) }));
  if (copilot.length === 0) return [];
  const out: SupersededFile[] = [];
  for (const doc of scan.docs) {
    if (doc.role !== 'legacy' || doc.aliasOf !== null || doc.notRule !== null || touched.has(doc.path)) continue;
    const { lines, managed } = movedRuleLines(scan, doc);
    const held = (l: string) => copilot.some((c) => c.holds(doc.path, l));
    if (lines.length === 0 || !lines.every(held)) continue;
    const by = copilot.filter((c) => lines.some((l) => c.holds(doc.path, l))).map((c) => c.path);
    // A file holding a tool's managed block stays for that block (planning/managed-stays.ts): nothing to replace it with.
    const fates: SupersededFile['fates'] = managed ? [] : POINTER_KINDS.has(doc.kind) ? ['pointer', 'remove'] : ['remove'];
    out.push({ path: doc.path, by, rules: lines.length, copies: 0, fates });
  }
  return out;
}

/** What the Copilot-side lookups read of a scan. */
export type CopilotLookupScan = ScanResult;

/** A document's rule lines (headings and front matter aside), trimmed, with their line numbers. */
export function ruleLinesOf(units: readonly Unit[]): { text: string; line: number }[] {
  return units
    .filter((u) => u.kind !== 'heading' && u.kind !== 'frontmatter')
    .flatMap((u) => u.lines.map((l, i) => ({ text: l.trim(), line: u.line + i })).filter((l) => l.text !== ''));
}

/**
 * A legacy document's rule lines that a plan moves: those inside a tool's managed block stay in its file
 * by design (planning/managed-stays.ts), so they are left out; `managed` says whether it holds one.
 */
export function movedRuleLines(scan: Pick<ScanResult, 'files'>, doc: InstructionDoc): { lines: string[]; managed: boolean } {
  const text = scan.files.get(doc.path)?.text ?? '';
  const inBlock = text.includes('<!--') ? managedLineNumbers(text.split('\n')) : null;
  const all = ruleLinesOf(doc.units);
  const lines = all.filter((l) => !inBlock?.has(l.line)).map((l) => l.text);
  return { lines, managed: lines.length < all.length };
}

/**
 * Whether a legacy file's line is in these Copilot files: as written, or with the paths it names
 * leading to the same repository paths (a move rewrites a link to lead where it led, a pointer at moved
 * rules to where they now are, and writes an `@path` as a link: model/links.ts, pathKeyed).
 */
export function copilotHolds(scan: CopilotLookupScan, copilot: readonly InstructionDoc[]): (fromFile: string, line: string) => boolean {
  const there = fileThere(scan);
  const lines = copilot.flatMap((d) => ruleLinesOf(d.units).map((l) => ({ path: d.path, text: l.text })));
  const raw = new Set(lines.map((l) => l.text));
  const keyed = new Set(lines.map((l) => pathKeyed(l.path, l.text, there)));
  // A pointer at moved rules is written to lead where they now are (planning/repoint.ts).
  let repoint: Repoint | null = null;
  return (fromFile, line) => raw.has(line) || keyed.has(pathKeyed(fromFile, (repoint ??= defaultRepoint(scan))(fromFile, line), there));
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
  const lines = superseded.map((s) => {
    const copies =
      s.copies > 0
        ? `, so the ${s.copies} duplicate${s.copies === 1 ? '' : 's'} between them ${s.copies === 1 ? 'is' : 'are'} not listed as problems`
        : '';
    // A file kept for its managed block: its other lines moved, the block stays where its tool writes it.
    const held =
      s.fates.length === 0
        ? `Its ${s.rules} rule line${s.rules === 1 ? '' : 's'} outside the block a tool manages ${s.rules === 1 ? 'is' : 'are'} in Copilot's files${copies}; the block stays in it, where its tool rewrites it.`
        : `Its ${s.rules} rule line${s.rules === 1 ? ' is' : 's are'} in Copilot's files${copies}.`;
    return `Note: ${showPath(s.path)} is superseded by ${showPaths(s.by)}; kept because you chose to. ${held}`;
  });
  const next = nextForSuperseded(superseded, options);
  return next === '' ? lines : [...lines, next];
}

/** The commands that replace kept files with a pointer or remove them; '' when no file can be replaced (each holds a managed block). */
export function nextForSuperseded(all: SupersededFile[], options: FlowOptions | undefined): string {
  const superseded = all.filter((s) => s.fates.length > 0);
  if (superseded.length === 0) return '';
  const pointer = superseded.some((s) => s.fates.includes('pointer'));
  const what = pointer ? 'pointer or remove' : 'remove';
  return `To replace ${superseded.length === 1 ? 'it' : 'them'} (${what}): run ${stepName(options, 'propose')}, then ${stepName(options, 'approve')} and choose ${what} for ${showPaths(superseded.map((s) => s.path))}, then ${stepName(options, 'migrate')}.`;
}

/** The superseded files of this repository now; none when its state cannot be read (analyze still runs). */
export function supersededNow(root: string, scan: CopilotLookupScan): Promise<SupersededFile[]> {
  return supersededOnceScanned(root)(scan);
}

/**
 * The same, with the state read from now on: analyze starts it before its scan, which lets the
 * event loop turn between its batches of files, so the state is read by the time the scan is done.
 */
export function supersededOnceScanned(root: string): (scan: CopilotLookupScan) => Promise<SupersededFile[]> {
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
 * pattern said as it is: the rules are in Copilot's files already, so a repository that is
 * `unstructured` only for the files it kept is `structured` (issue 40); `messy` stays.
 */
export function annotated<A extends { problems: Problem[]; patternDetail?: string; pattern?: Pattern }>(
  a: A,
  superseded: SupersededFile[],
  legacyCount: number,
): A {
  if (superseded.length === 0) return a;
  const out = { ...a, problems: withoutCopies(a.problems, superseded) };
  if (a.patternDetail !== undefined && superseded.length === legacyCount) {
    out.patternDetail = `the rules of ${fileNames(superseded.map((s) => s.path))} are in Copilot's files already; ${superseded.length === 1 ? 'that file is' : 'those files are'} kept as you chose`;
    if (a.pattern === 'unstructured') out.pattern = 'structured';
  }
  return out;
}
