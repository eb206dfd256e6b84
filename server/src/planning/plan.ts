import { byCodeUnit } from '../common/collections.js';
import { analyze } from '../analysis/analyze.js';
import type { Analysis } from '../model/analysis.js';
import type { ConflictOption, LegacyOption, Plan, PlanChoices, PlanOperation } from '../model/plan.js';
import type { SourceInfo } from '../model/source.js';
import { COPILOT_INSTRUCTIONS_PATH } from '../analysis/formats/copilot-instructions.js';
import { canonicalJson, sha256 } from '../common/hash.js';
import type { InstructionDoc, Scope } from '../model/model.js';
import { fileThere, type ScanResult } from '../analysis/discovery/scan.js';
import { planTargets, type Target } from './targets.js';
import { splitText } from '../common/text.js';
import { IMPORTED_KIND } from '../analysis/discovery/imports.js';
import { conflictEffects, conflictOptions, copyChoices, DEFAULT_CHOICES, isDefault, type CopyChoices } from './choices.js';
import { operation } from './operations.js';
import {
  copilotLink,
  legacyOptions,
  linkOptions,
  optionalOptions,
  pointerTo,
  readByCopilot,
  unwritable,
  type CopilotLink,
} from './options.js';
import { blockedCopilotNote, closingNotes } from './plan-notes.js';
import type { Note } from './notes.js';
import { noteText } from './note-words.js';
import { LineMap } from './render/line-map.js';
import { writeTargets, type Written } from './write-targets.js';
import { scopeChoices } from './scopes.js';
import { aboutWrittenLines, assistantChoices, withoutLeftOut } from './assistant-lines.js';
import { pointerLines } from './pointer-lines.js';
import { restatedGuides, withoutRestated } from './restated-guide.js';
import { managedLookup } from './render/managed.js';
import { managedStays } from './managed-stays.js';
import { allInManagedBlocks } from '../model/managed-blocks.js';
import { settledLabel, type Label } from './settled-label.js';
import { formatFacts } from '../model/formats.js';
import { repointedDocs, repointer, withoutRepointedCopies, type Repoint } from './repoint.js';

export type { ConflictOption, LegacyFate, LegacyOption, Plan, PlanChoices, PlanOperation } from '../model/plan.js';
export { DEFAULT_CHOICES } from './choices.js';
export { legacyNote, POINTER_KINDS } from './options.js';
export { COPILOT_SIZE_WARNING_CHARS } from './note-words.js';

/**
 * Build the exact migration plan. Same sources and choices give the same plan, byte for byte. The
 * plan hash covers the sources, the options offered and the operations under the default choices,
 * so an approval binds to what the person was shown.
 */
export function buildPlan(scan: ScanResult, analysis: Analysis = analyze(scan), choices: PlanChoices = DEFAULT_CHOICES): Plan {
  const base = planWith(scan, analysis, DEFAULT_CHOICES);
  const chosen = isDefault(choices) ? base : planWith(scan, analysis, choices);
  const planHash = hashPlan(analysis.sources, base.operations, base.legacy, base.conflicts);
  return {
    ...chosen,
    pattern: settledLabel(scan, analysis, base.operations.length).pattern,
    planHash,
    chosenHash: chosen === base ? planHash : hashPlan(analysis.sources, chosen.operations, base.legacy, base.conflicts),
  };
}

/** The label analyze and propose show: the plan is built only when it may settle it (an unstructured repository where no rules move). */
export function analysisLabel(scan: ScanResult, analysis: Analysis): Label {
  return settledLabel(scan, analysis, () => planWith(scan, analysis, DEFAULT_CHOICES).operations.length);
}

/** The source files that are symlinks (scan.files' linkTarget). */
const linkedFiles = (scan: ScanResult) => new Set([...scan.files].filter(([, f]) => f.linkTarget).map(([p]) => p));

/** Source lines by path, split once per plan; `rewritten` lines (pointers at moved rules, repoint.ts) in place of the file's. */
function lineCache(scan: ScanResult, rewritten?: LineMap<string>): (path: string) => string[] {
  const cache = new Map<string, string[]>();
  return (p) => {
    let lines = cache.get(p);
    if (!lines) {
      lines = splitText(scan.files.get(p)?.text ?? '').lines;
      if (rewritten) lines = lines.map((line, i) => rewritten.get({ path: p, line: i + 1 }) ?? line);
      cache.set(p, lines);
    }
    return lines;
  };
}

/**
 * The scan with the pointers of legacy files at moved rules rewritten to where the plan writes those
 * rules (repoint.ts), its lines, and the layout over it: laid out again only when a line changed.
 */
function repointed(scan: ScanResult, choices: PlanChoices) {
  const copies = copyChoices(scan, choices);
  const l = layout(scan, choices, copies);
  const repoint = repointerOf(scan, l.targets);
  const r = repointedDocs(scan.docs, repoint);
  if (r.lines.size === 0) return { scan, linesOf: lineCache(scan), copies, l, repoint: null };
  const now: ScanResult = { ...scan, docs: r.docs };
  const copiesNow = copyChoices(now, choices);
  return { scan: now, linesOf: lineCache(now, r.lines), copies: copiesNow, l: layout(now, choices, copiesNow), repoint };
}

/** The pointer rewrite for the files the plan moves into `targets` (repoint.ts). */
function repointerOf(scan: ScanResult, targets: readonly Target[]): Repoint {
  const moved = movedTo(scan, targets);
  const ruleFiles = new Set(scan.docs.filter((d) => moved.has(d.path) && formatFacts(d.kind)?.dotFolder).map((d) => d.path));
  return repointer(moved, ruleFiles, scan.listing);
}

/**
 * Each legacy file whose rules the plan writes (not a file all in managed blocks, not into a file it
 * cannot write), and where; and a twin of a Copilot file (a file a migration kept is one), whose rules
 * are in that file already: the same map after a migration as before it.
 */
function movedTo(scan: ScanResult, targets: readonly Target[]): Map<string, string> {
  const out = new Map<string, string>(scan.copies.filter((c) => c.relation === 'twin').map((c) => [c.path, c.keptPath]));
  for (const t of targets) {
    if (unwritable(scan, t.path) !== null) continue;
    for (const d of t.docs)
      if (d.role === 'legacy' && !allInManagedBlocks(d.units, scan.files.get(d.path)?.text ?? '')) out.set(d.path, t.path);
  }
  return out;
}

/** The documents a plan migrates under the person's choices, and where their rules go. */
interface Layout {
  /** Files left out by default, which the person may ask to migrate. */
  optional: InstructionDoc[];
  asked: Set<InstructionDoc>;
  /** The documents that contribute rules. */
  docs: InstructionDoc[];
  byPath: Map<string, InstructionDoc>;
  notRuleOf: (d: InstructionDoc) => string | null;
  link: CopilotLink | null;
  replaceLink: boolean;
  /** Copilot's own file cannot be written: repo-wide rules go to a scoped file instead. */
  copilotBlocked: boolean;
  legacyDocs: InstructionDoc[];
  existing: Map<string, Scope>;
  targets: Target[];
}

function layout(scan: ScanResult, choices: PlanChoices, copies: CopyChoices): Layout {
  // The copy the person chose to migrate instead of the one kept by default (`use-this`): the group turns around.
  const promoted = new Set(copies.swaps.map((w) => w.chosen));
  const notRuleOf = (d: InstructionDoc): string | null => copies.leftOut.get(d.path) ?? (promoted.has(d.path) ? null : d.notRule);
  // A file left out by default is migrated only when the person asks (its option's `migrate`).
  const optional = scan.docs.filter((d) => (scan.optional.includes(d.path) && !promoted.has(d.path)) || copies.leftOut.has(d.path));
  const asked = new Set(optional.filter((d) => choices.legacy[d.path] === 'migrate'));
  const content = new Set(scan.docs.filter((d) => d.aliasOf === null && notRuleOf(d) === null));
  const docs = scan.docs.filter((d) => content.has(d) || asked.has(d));
  const byPath = new Map(docs.map((d) => [d.path, d]));
  const link = copilotLink(scan, byPath);
  const replaceLink = link !== null && choices.legacy[COPILOT_INSTRUCTIONS_PATH] === 'replace';
  const copilotBlocked = !replaceLink && unwritable(scan, COPILOT_INSTRUCTIONS_PATH) !== null;
  // The file a linked Copilot file shows is what Copilot reads already: its rules are not copied again.
  const legacyDocs = docs.filter((d) => d.role === 'legacy' && d !== link?.shown);
  const existing = new Map<string, Scope>(docs.filter((d) => d.role === 'copilot').map((d) => [d.path, d.scope]));
  const targets = planTargets(legacyDocs, existing, copilotBlocked ? 'scoped' : 'copilot');
  const copilotFirst = !targets.some((t) => t.path === COPILOT_INSTRUCTIONS_PATH) && (byPath.has(COPILOT_INSTRUCTIONS_PATH) || replaceLink);
  if (!copilotBlocked && copilotFirst) targets.unshift({ path: COPILOT_INSTRUCTIONS_PATH, scope: { kind: 'repo' }, docs: [] });
  return { optional, asked, docs, byPath, notRuleOf, link, replaceLink, copilotBlocked, legacyDocs, existing, targets };
}

/**
 * Where the plan puts each legacy file's rules under `choices` (the defaults: the plan propose
 * builds), by path; a file the plan leaves out has no entry. The one decision analyze's report and
 * the plan's both read, so "who will see its rules after the migration" never promises a file the
 * plan does not migrate.
 */
export function migratedTargets(scanned: ScanResult, choices: PlanChoices = DEFAULT_CHOICES): Map<string, string> {
  const scan: ScanResult = { ...scanned, docs: scopeChoices(scanned, choices).docs };
  const l = layout(scan, choices, copyChoices(scan, choices));
  // A file whose text is all managed blocks keeps it (managed-stays.ts): none of its lines moves.
  const moves = (d: InstructionDoc) => !allInManagedBlocks(d.units, scan.files.get(d.path)?.text ?? '');
  return new Map(l.targets.flatMap((t) => t.docs.filter(moves).map((d) => [d.path, t.path] as const)));
}

/**
 * The pointer rewrite the plan with the default choices makes (repoint.ts): how a kept legacy line
 * reads in Copilot's files, for check and analyze to find it there after a migration.
 */
export function defaultRepoint(scanned: ScanResult): Repoint {
  const scan: ScanResult = { ...scanned, docs: scopeChoices(scanned, DEFAULT_CHOICES).docs };
  const l = layout(scan, DEFAULT_CHOICES, copyChoices(scan, DEFAULT_CHOICES));
  return repointerOf(scan, l.targets);
}

function planWith(scanned: ScanResult, analyzed: Analysis, choices: PlanChoices): Omit<Plan, 'planHash' | 'chosenHash'> {
  const scopes = scopeChoices(scanned, choices);
  const { scan, linesOf, copies, l, repoint } = repointed({ ...scanned, docs: scopes.docs }, choices);
  // A kept legacy line and its copy with pointers rewritten are one rule, not a contradiction to mark.
  const analysis = repoint ? { ...analyzed, problems: withoutRepointedCopies(analyzed.problems, scanned, () => repoint) } : analyzed;
  const { conflicts, marks, dropped, assistants, removed, stays, lineNotes, guides } = lineEffects(scan, analysis, choices, l, linesOf);
  // A guide the target already holds in other words: what it restates is not written again (issue 40), but for what contradicts.
  const restated = withoutRestated(
    l.targets.map((t) => ({ ...t, docs: t.docs.map((d) => withoutLeftOut(withoutLeftOut(d, assistants.leftOut), stays)) })),
    l.docs.filter((d) => d.role === 'copilot'),
    { guides, problems: analysis.problems },
  );
  const imports = new LineMap(scan.imports.map((r) => [{ path: r.from, line: r.line }, r] as const));
  const written = writeTargets(
    {
      scan,
      sources: { linesOf, structured: (p) => analysis.structured[p] ?? false },
      byPath: l.byPath,
      link: l.link,
      replaceLink: l.replaceLink,
      marks,
      dropped: removed,
      rewrites: assistants.rewrites,
      imports,
    },
    restated.targets,
  );
  written.merged.unshift(...restated.merged);
  const blockedNotes = l.copilotBlocked ? [blockedCopilotNote(scan, l.link, l.targets)] : [];
  // No note or choice about a line the plan does not write: merged into the same line of another file.
  const about = aboutWrittenLines(lineNotes, assistants.options, written.merged);
  const restatedNotes = restated.restated.map((r): Note => ({ kind: 'restated-lines', ...r }));
  const notes: Note[] = [...blockedNotes, ...written.notes, ...restatedNotes, ...scopes.notes, ...about.notes];
  const { operations } = written;
  const legacy = options(scan, l, written, copies.copies);
  for (const option of legacy) {
    const fate = choices.legacy[option.path] ?? 'keep';
    const file = scan.files.get(option.path)!;
    if (fate === 'remove' && option.fates.includes('remove')) operations.push(operation(option.path, file.text, file.sha256, null));
    if (fate === 'pointer' && option.fates.includes('pointer'))
      operations.push(operation(option.path, file.text, file.sha256, pointerTo(option.path, option.target)));
    // A left-out file's note is its `notRule` line below; a kept legacy file's note says who reads it twice.
    if (fate === 'keep' && readByCopilot(option.kind, option.path) && !option.fates.includes('migrate'))
      notes.push({ kind: 'option', option });
  }
  notes.push(
    ...closingNotes({
      scan,
      choices,
      docs: l.docs,
      targets: l.targets,
      blocked: written.blocked,
      empty: written.empty,
      long: written.long,
      legacy,
      dropped: dropped.values(),
      copies,
      notRuleOf: l.notRuleOf,
      asked: l.asked,
      optional: l.optional,
      conflicts: conflicts.length,
    }),
  );
  operations.sort((a, b) => byCodeUnit(a.path, b.path));
  return {
    pattern: analysis.pattern,
    sources: analysis.sources,
    operations,
    problems: analysis.problems,
    merged: written.merged,
    provenance: written.provenance,
    legacy,
    conflicts: conflicts.map((c) => c.option),
    scopes: scopes.options,
    assistants: about.options,
    // Every line the plan drops, each with why: sides not chosen, lines left out, lines that only point at their target.
    dropped: removed.values(),
    notes: notes.map(noteText),
  };
}

/**
 * What the choices and the plan's rules do to single lines of the migrated files: the contradictions
 * offered and marked, the lines dropped (sides not chosen, lines left out, pointer lines, managed
 * blocks that stay in their files), the rewrites, and the notes that say so.
 */
function lineEffects(scan: ScanResult, analysis: Analysis, choices: PlanChoices, l: Layout, linesOf: (path: string) => string[]) {
  const managed = managedLookup(linesOf);
  const conflicts = conflictOptions(analysis, linesOf, managed);
  const { marks, dropped, kept } = conflictEffects(conflicts, choices, l.docs);
  const targetOf = (d: InstructionDoc) => l.targets.find((t) => t.docs.includes(d))?.path ?? COPILOT_INSTRUCTIONS_PATH;
  const restated = restatedGuides(
    l.legacyDocs,
    l.docs.filter((d) => d.role === 'copilot'),
    targetOf,
  );
  const assistants = assistantChoices(l.legacyDocs, targetOf, choices, managed, fileThere(scan), restated);
  const pointers = pointerLines(l.legacyDocs, targetOf, managed);
  const stay = managedStays(l.legacyDocs, linesOf);
  const removed = new LineMap(
    [...dropped.values(), ...assistants.leftOut.values(), ...pointers.dropped.values(), ...stay.stays.values()].map((d) => [d, d] as const),
  );
  // A line of a block that stays in its file is in no Copilot file: no choice is said to leave it there.
  const aboutWritten = (n: Note): Note[] => {
    if (n.kind === 'managed-kept') return stay.stays.has(n.at) ? [] : [n];
    if (n.kind !== 'other-assistant') return [n];
    const lines = n.lines.filter((x) => !stay.stays.has({ path: n.path, line: x.line }));
    return lines.length === 0 ? [] : [{ ...n, lines }];
  };
  const lineNotes = [...assistants.notes.flatMap(aboutWritten), ...pointers.notes, ...stay.notes, ...kept.flatMap(aboutWritten)];
  return { conflicts, marks, dropped, assistants, removed, stays: stay.stays, lineNotes, guides: new Set(restated.keys()) };
}

/** The options offered for the files the plan leaves or moves: the linked Copilot file, legacy files, files left out. */
function options(scan: ScanResult, l: Layout, written: Pick<Written, 'blocked' | 'empty'>, copies: CopyChoices['copies']): LegacyOption[] {
  // A file read only because it is imported (a README) is not an instruction file: it stays, with no choice to make.
  const legacy = l.legacyDocs.filter((d) => d.kind !== IMPORTED_KIND && !l.asked.has(d));
  return [
    ...linkOptions(l.link, l.replaceLink),
    ...legacyOptions(legacy, l.targets, scan, written.blocked, written.empty),
    ...optionalOptions({ ...l, copies, linked: linkedFiles(scan) }),
  ];
}

/** The hash that an approval binds to: the sources read, the options offered, every default operation's exact content. */
export function hashPlan(
  sources: SourceInfo[],
  operations: PlanOperation[],
  legacy: LegacyOption[] = [],
  conflicts: ConflictOption[] = [],
): string {
  return sha256(
    canonicalJson({
      sources: sources.map((s) => ({ path: s.path, sha256: s.sha256 })),
      operations: operations.map((o) => ({ op: o.op, path: o.path, content: o.content, beforeSha256: o.beforeSha256 })),
      legacy: legacy.map((l) => ({
        path: l.path,
        target: l.target,
        fates: l.fates,
        ...(l.linkTarget !== undefined ? { linkTarget: l.linkTarget } : {}),
      })),
      conflicts: conflicts.map((c) => ({ id: c.id, locations: c.locations })),
    }),
  );
}
