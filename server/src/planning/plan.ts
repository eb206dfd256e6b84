import path from 'node:path';
import { byCodeUnit, pushTo } from '../common/collections.js';
import { createTwoFilesPatch } from 'diff';
import { analyze } from '../analysis/analyze.js';
import type { Analysis } from '../model/analysis.js';
import type { ConflictOption, LegacyFate, LegacyOption, Merged, Plan, PlanChoices, PlanOperation, Provenance } from '../model/plan.js';
import type { SourceInfo } from '../model/source.js';
import {
  additionsFrom,
  appendAdditions,
  bodyOf,
  changedLineNotes,
  insertMarks,
  type MarkTopics,
  renderBase,
  WrittenUnits,
  type Addition,
  type LineRef,
  type Rendered,
} from './assemble.js';
import { COPILOT_INSTRUCTIONS_PATH } from '../analysis/formats/copilot-instructions.js';
import { canonicalJson, sha256 } from '../common/hash.js';
import type { InstructionDoc, Scope } from '../model/model.js';
import type { ScanResult } from '../analysis/scan.js';
import { sameOrDemoted } from '../model/unit-shape.js';
import { keepUnitsApart } from './keep-apart.js';
import { frontMatterFor, planTargets, targetDescription, type Target } from './targets.js';
import { joinText, splitText, type TextLines } from '../common/text.js';
import { newReaders, readersOf, surfaceList } from '../analysis/surfaces.js';
import { IMPORTED_KIND, importCapNote, importNote } from '../analysis/imports.js';
import { keepInstead, type Copy, type CopySwap } from '../analysis/copies.js';

export type { ConflictOption, LegacyFate, LegacyOption, Plan, PlanChoices, PlanOperation } from '../model/plan.js';

export const DEFAULT_CHOICES: PlanChoices = { legacy: {}, conflicts: {} };

/** The kinds that can point at another file with an `@path` import: approve offers them the fate `pointer`. */
export const POINTER_KINDS: ReadonlySet<string> = new Set(['claude-md', 'gemini-md']);
/** Whether some Copilot surface reads this file as it is (core/surfaces.ts). */
const readByCopilot = (kind: string, path: string): boolean => readersOf(kind, path).length > 0;

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
    planHash,
    chosenHash: chosen === base ? planHash : hashPlan(analysis.sources, chosen.operations, base.legacy, base.conflicts),
  };
}

function isDefault(c: PlanChoices): boolean {
  return Object.values(c.legacy).every((f) => f === 'keep') && Object.values(c.conflicts).every((v) => v === 'keep_all');
}

/** Source lines by path, split once per plan. */
function lineCache(scan: ScanResult): (path: string) => string[] {
  const cache = new Map<string, string[]>();
  return (p) => {
    let lines = cache.get(p);
    if (!lines) {
      lines = splitText(scan.files.get(p)?.text ?? '').lines;
      cache.set(p, lines);
    }
    return lines;
  };
}

function planWith(scan: ScanResult, analysis: Analysis, choices: PlanChoices): Omit<Plan, 'planHash' | 'chosenHash'> {
  const linesOf = lineCache(scan);
  // The copy the person chose to migrate instead of the one kept by default (`use-this`): the group turns around.
  const { swaps, copies, leftOut, ignored } = copyChoices(scan, choices);
  const promoted = new Set(swaps.map((w) => w.chosen));
  const notRuleOf = (d: InstructionDoc): string | null => leftOut.get(d.path) ?? (promoted.has(d.path) ? null : d.notRule);
  // A file left out by default is migrated only when the person asks (its option's `migrate`).
  const optional = scan.docs.filter((d) => (scan.optional.includes(d.path) && !promoted.has(d.path)) || leftOut.has(d.path));
  const asked = new Set(optional.filter((d) => choices.legacy[d.path] === 'migrate'));
  const content = new Set(scan.docs.filter((d) => d.aliasOf === null && notRuleOf(d) === null));
  const docs = scan.docs.filter((d) => content.has(d) || asked.has(d));
  const byPath = new Map(docs.map((d) => [d.path, d]));
  const link = copilotLink(scan, byPath);
  const replaceLink = link !== null && choices.legacy[COPILOT_INSTRUCTIONS_PATH] === 'replace';
  const copilotBlocked = !replaceLink && unwritable(scan, COPILOT_INSTRUCTIONS_PATH) !== null;
  const copilot = docs.filter((d) => d.role === 'copilot');
  // The file a linked Copilot file shows is what Copilot reads already: its rules are not copied again.
  const legacyDocs = docs.filter((d) => d.role === 'legacy' && d !== link?.shown);
  const existing = new Map<string, Scope>(copilot.map((d) => [d.path, d.scope]));
  const targets = planTargets(legacyDocs, existing, copilotBlocked ? 'scoped' : 'copilot');
  if (
    !copilotBlocked &&
    !targets.some((t) => t.path === COPILOT_INSTRUCTIONS_PATH) &&
    (byPath.has(COPILOT_INSTRUCTIONS_PATH) || replaceLink)
  ) {
    targets.unshift({ path: COPILOT_INSTRUCTIONS_PATH, scope: { kind: 'repo' }, docs: [] });
  }

  const conflicts = conflictOptions(analysis, linesOf);
  const { marks, dropped } = conflictEffects(conflicts, choices, docs);

  // An `@path` import line is not a rule: what it imports is placed instead (analysis/imports.ts).
  const importLines = new Map(scan.imports.map((r) => [`${r.from}:${r.line}`, r]));
  const operations: PlanOperation[] = [];
  const merged: Merged[] = [];
  const provenance: Provenance[] = [];
  const notes: string[] = [];
  const blocked = new Set<string>();
  const long: string[] = [];
  if (copilotBlocked) notes.push(blockedCopilotNote(scan, link, targets));
  for (const target of targets) {
    const replacing = replaceLink && target.path === COPILOT_INSTRUCTIONS_PATH;
    const why = replacing ? null : unwritable(scan, target.path);
    if (why) {
      blocked.add(target.path);
      const from = target.docs.map((d) => d.path);
      notes.push(
        `${target.path} ${why}, and copilot-onboard does not write through links or over files it cannot read. ${from.length ? `The rules of ${from.join(', ')} are not migrated: make it a regular text file and propose again.` : 'It is left as it is.'}`,
      );
      continue;
    }
    const existingDoc = replacing ? link!.shown : byPath.get(target.path);
    const rendered = renderTarget(linesOf, target, existingDoc, analysis, merged);
    const apart = keepUnitsApart(dropLines(dropImports(rendered, importLines), dropped));
    const marked = insertMarks(apart.rendered, marks);
    assertEveryLineOnce(linesOf, [...(existingDoc ? [existingDoc] : []), ...target.docs], marked, merged, dropped);
    // A new file with no rule in it (its sources were empty, or all merged) is not created.
    if (!existingDoc && !marked.refs.some((r) => r !== null)) continue;
    // A new scoped file opens with its generated front matter: no BOM may stand before its `---`.
    const style = {
      ...textStyle(scan, existingDoc ?? target.docs[0]),
      ...(existingDoc || target.path === COPILOT_INSTRUCTIONS_PATH ? {} : { bom: false }),
    };
    const finalNewline = existingDoc ? splitText(scan.files.get(existingDoc.path)!.text).finalNewline : true;
    const content = joinText({ ...style, lines: marked.lines, finalNewline: finalNewline && marked.lines.length > 0 });
    provenance.push(...spans(target.path, marked.refs));
    const before = scan.files.get(target.path);
    if (!(before && content === before.text)) {
      notes.push(...changedLineNotes(target.path, marked, (p, l) => linesOf(p)[l - 1]));
      for (const ref of apart.before)
        notes.push(
          `${ref.path}:${ref.line} "${linesOf(ref.path)[ref.line - 1]!.trim()}" starts indented, so ${target.path} has a comment line before it that ends the list above: it would otherwise read as part of that list's last item.`,
        );
    }
    if (before && content === before.text && !replacing) {
      if (target.docs.length === 0) notes.push(`${target.path} is already organised in sections; nothing to change.`);
      continue;
    }
    const op = operation(target.path, before?.text ?? null, before?.sha256 ?? null, content);
    const size = sizeOver(target.path, content, before?.text ?? null);
    if (size) long.push(size);
    if (replacing) {
      op.replacesLink = link!.link;
      notes.push(
        `${target.path} is a symlink to ${link!.link}; as you chose, the link itself is replaced by a regular file with the rules (the backup keeps the link, and rollback puts it back). ${link!.shown.path} is not changed.`,
      );
    }
    operations.push(op);
  }

  // A file read only because it is imported (a README) is not an instruction file: it stays, with no choice to make.
  const legacy = [
    ...linkOptions(link, replaceLink),
    ...legacyOptions(
      legacyDocs.filter((d) => d.kind !== IMPORTED_KIND && !asked.has(d)),
      targets,
      scan,
      blocked,
    ),
    ...optionalOptions(optional, legacyDocs, targets, existing, copilotBlocked, notRuleOf, copies),
  ];
  for (const option of legacy) {
    const fate = choices.legacy[option.path] ?? 'keep';
    const file = scan.files.get(option.path)!;
    if (fate === 'remove' && option.fates.includes('remove')) operations.push(operation(option.path, file.text, file.sha256, null));
    if (fate === 'pointer' && option.fates.includes('pointer')) {
      const rel = path.posix.relative(path.posix.dirname(option.path), option.target);
      operations.push(operation(option.path, file.text, file.sha256, `@${rel}\n`));
    }
    // A left-out file's note is its `notRule` line below; a kept legacy file's note says who reads it twice.
    if (fate === 'keep' && readByCopilot(option.kind, option.path) && !option.fates.includes('migrate')) notes.push(option.note);
  }

  if (long.length > 0) notes.push(sizeWarning(long));
  notes.push(...frontMatterNotes(targets, blocked));
  for (const d of dropped.values()) {
    const option = legacy.find((l) => l.path === d.path);
    if (option && (choices.legacy[d.path] ?? 'keep') === 'keep') {
      const readers = readersOf(option.kind, option.path);
      const alsoRead = readers.length > 0 ? `, and ${surfaceList(readers)} read${readers.length > 1 ? '' : 's'} it too` : '';
      notes.push(
        `${d.path}:${d.line} is dropped from Copilot's files, but ${d.path} is kept and still says "${d.text.trim()}"${alsoRead}: remove the file, or edit that line, to settle the contradiction everywhere.`,
      );
    }
  }
  for (const d of scan.docs.filter((x) => notRuleOf(x) !== null)) {
    if (asked.has(d)) notes.push(`${d.path} is ${notRuleOf(d)}; as you chose, it is migrated all the same.`);
    else
      notes.push(
        `${d.path} is ${notRuleOf(d)}; it is reported, not migrated${optional.includes(d) ? ' (the approve form can migrate it all the same)' : ''}.`,
      );
  }
  for (const w of swaps) {
    const fate = choices.legacy[w.was];
    const undone =
      fate === 'remove' || fate === 'pointer'
        ? ` Your choice to ${fate === 'remove' ? 'remove it' : 'replace it with a pointer'} does not apply: a file left out as a copy is kept as it is.`
        : '';
    notes.push(`As you chose, ${w.chosen} is migrated instead of ${w.was}; ${w.was} is left out as the copy.${undone}`);
  }
  notes.push(...ignored);
  for (const c of copies.filter((x) => x.relation === 'copy')) {
    notes.push(
      c.diff === ''
        ? `${c.path} holds the same rules as ${c.keptPath} (front matter aside): nothing of it is lost.`
        : `The differences between ${c.keptPath} (migrated) and its copy ${c.path} (left out), as one diff; carry over what you want to keep by hand:\n${c.diff}`,
    );
  }
  for (const c of copies.filter((x) => x.relation === 'synced-source')) {
    const readers = readersOf(scan.docs.find((d) => d.path === c.path)!.kind, c.path);
    const read =
      readers.length > 0
        ? ` ${surfaceList(readers)} read${readers.length > 1 ? '' : 's'} ${c.path} as it is.`
        : ` No Copilot surface reads ${c.path}: carry over by hand what ${c.keptPath} should say.`;
    notes.push(
      `${c.keptPath} is kept as the hand-written distillation of ${c.path}, as it says; the plan does not merge ${c.path} into it.${read}`,
    );
  }
  for (const d of scan.docs.filter((x) => x.aliasOf !== null))
    notes.push(`${d.path} points at ${d.aliasOf}; its rules are read once, from ${d.aliasOf}.`);
  for (const r of scan.imports) {
    const note = importNote(r);
    if (note) notes.push(note);
  }
  for (const cap of scan.importCaps) notes.push(importCapNote(cap));
  for (const s of scan.skipped) notes.push(s.detail);
  for (const t of targets.filter((x) => x.scope.kind === 'request')) {
    notes.push(`${t.path} has a description and no applyTo: Copilot applies it on request, not automatically.`);
  }
  if (docs.length === 0 && scan.skipped.length === 0) notes.push('No instruction files were found; there is nothing to migrate.');
  if (conflicts.length > 0) {
    notes.push(
      'Contradicting rules are kept and marked unless you choose which one stands in the approve form: the plan never picks a winner.',
    );
  }

  operations.sort((a, b) => byCodeUnit(a.path, b.path));
  return {
    pattern: analysis.pattern,
    sources: analysis.sources,
    operations,
    problems: analysis.problems,
    merged,
    provenance,
    legacy,
    conflicts,
    dropped: [...dropped.values()],
    notes,
  };
}

function renderTarget(
  linesOf: (p: string) => string[],
  target: Target,
  existingDoc: InstructionDoc | undefined,
  analysis: Analysis,
  merged: Merged[],
): Rendered {
  // Every unit of the existing file, repeats too: legacy files merge into these copies, one each.
  const written = new WrittenUnits();
  if (existingDoc) for (const u of existingDoc.units) written.add(u);
  const lines = (d: InstructionDoc) => linesOf(d.path);
  if (target.path === COPILOT_INSTRUCTIONS_PATH) {
    let base: Rendered;
    if (existingDoc) {
      base = renderBase(existingDoc.path, lines(existingDoc), existingDoc.units, analysis.structured[existingDoc.path] ?? false);
    } else {
      base = { lines: ['# Copilot instructions'], refs: [null] };
    }
    const additions = new Map<string, Addition>();
    // Front matter a format reads is not among its units; a `---` block left there is content (.cursorrules has none).
    for (const doc of target.docs) additionsFrom(doc.units, written, additions, merged);
    return appendAdditions(base, [...additions.values()], target.path, merged);
  }
  const out: Rendered = existingDoc
    ? {
        lines: lines(existingDoc),
        refs: lines(existingDoc).map((l, i) => (l.trim() === '' ? null : { path: existingDoc.path, line: i + 1 })),
      }
    : { lines: frontMatterFor(target), refs: frontMatterFor(target).map(() => null) };
  for (const doc of target.docs) {
    if (doc.units.length === 0) continue; // front matter only: nothing to carry over
    const body = bodyOf(lines(doc), doc.units[0]!.line - 1, doc.units, written, merged, doc.path);
    if (body.lines.length === 0) continue;
    while (out.lines.length > 0 && out.lines[out.lines.length - 1]!.trim() === '') {
      out.lines.pop();
      out.refs.pop();
    }
    out.lines.push('', ...body.lines);
    out.refs.push(null, ...body.refs);
  }
  return out;
}

function textStyle(scan: ScanResult, doc: InstructionDoc | undefined): Omit<TextLines, 'lines' | 'finalNewline'> {
  if (!doc) return { bom: false, eol: '\n' };
  const t = splitText(scan.files.get(doc.path)!.text);
  return { bom: t.bom, eol: t.eol };
}

function operation(p: string, before: string | null, beforeSha: string | null, after: string | null): PlanOperation {
  return {
    op: before === null ? 'create' : after === null ? 'delete' : 'update',
    path: p,
    content: after,
    beforeSha256: beforeSha,
    afterSha256: after === null ? null : sha256(Buffer.from(after, 'utf8')),
    diff: createTwoFilesPatch(
      before === null ? '/dev/null' : `a/${p}`,
      after === null ? '/dev/null' : `b/${p}`,
      before ?? '',
      after ?? '',
      undefined,
      undefined,
      { context: 3 },
    ),
  };
}

/**
 * GitHub's documentation asks for short instructions: Copilot code review read only the first 4,000
 * characters of an instruction file (docs/formats.md, "Size"). A file the plan writes past that,
 * or grows while past it, gets a warning in the notes.
 */
export const COPILOT_SIZE_WARNING_CHARS = 4000;

/** "path (12.3 KB, 301 lines)" for a written file past the size worth a warning that the plan makes longer; else null. */
function sizeOver(p: string, after: string, before: string | null): string | null {
  if (after.length <= COPILOT_SIZE_WARNING_CHARS || (before !== null && after.length <= before.length)) return null;
  const kb = (b: string) => `${(Buffer.byteLength(b, 'utf8') / 1024).toFixed(1)} KB`;
  const was = before === null ? '' : `, ${kb(before)} before`;
  return `${p} (${kb(after)}, ${splitText(after).lines.length} lines${was})`;
}

function sizeWarning(long: string[]): string {
  const files = long.length === 1 ? `${long[0]} is` : `${long.length} Copilot files are: ${long.join('; ')}; each is`;
  return `Warning: ${files} over ${COPILOT_SIZE_WARNING_CHARS} characters after the migration. GitHub's documentation asks for short instructions, and Copilot code review has read only the first ${COPILOT_SIZE_WARNING_CHARS} characters of an instruction file: consider moving rules for parts of the code into scoped .instructions.md files, and linking to documentation instead of copying it.`;
}

/** Front matter that reads into scope is used; what Copilot's file cannot hold is said, not silently lost. */
const SCOPE_KEYS = new Set(['globs', 'alwaysApply', 'applyTo', 'trigger', 'paths', 'excludeAgent']);

function frontMatterNotes(targets: Target[], blocked: Set<string>): string[] {
  const notes: string[] = [];
  for (const target of targets.filter((t) => !blocked.has(t.path))) {
    const carried = target.path === COPILOT_INSTRUCTIONS_PATH ? null : targetDescription(target);
    for (const doc of target.docs) {
      // An empty description says nothing, so nothing of it is lost.
      const lost = (doc.frontMatterKeys ?? []).filter(
        (k) => !SCOPE_KEYS.has(k) && !(k === 'description' && (doc.description === null || carried === doc.description)),
      );
      if (lost.length > 0)
        notes.push(
          `${doc.path}: its front matter ${lost.map((k) => `"${k}"`).join(', ')} is not carried into ${target.path}, which has no place for it; the file keeps it while you keep the file.`,
        );
    }
  }
  return notes;
}

/**
 * Why the plan must not write to a path, or null. A symlink (or a file in a symlinked folder) would
 * be written through, changing the file it points at; a file the scan skipped was never read.
 */
function unwritable(scan: ScanResult, p: string): string | null {
  const link = scan.files.get(p)?.linkTarget;
  if (link) return `is a symlink to ${link}`;
  const skipped = scan.skipped.find((s) => s.path === p);
  return skipped ? `could not be read (${skipped.reason.replace(/_/g, ' ')})` : null;
}

/** A `.github/copilot-instructions.md` that is a symlink inside the repository, and the document whose text it shows. */
interface CopilotLink {
  /** The link's target as written (`../AGENTS.md`). */
  link: string;
  /** The document Copilot reads through the link: the instruction file at its end, or the linked file itself. */
  shown: InstructionDoc;
}

function copilotLink(scan: ScanResult, byPath: Map<string, InstructionDoc>): CopilotLink | null {
  const file = scan.files.get(COPILOT_INSTRUCTIONS_PATH);
  if (!file?.link) return null;
  const doc = scan.docs.find((d) => d.path === COPILOT_INSTRUCTIONS_PATH);
  const shown = doc?.aliasOf ? byPath.get(doc.aliasOf) : byPath.get(COPILOT_INSTRUCTIONS_PATH);
  return shown ? { link: file.link, shown } : null;
}

/** Why Copilot's own file is left as it is, and where the repo-wide rules go instead. */
function blockedCopilotNote(scan: ScanResult, link: CopilotLink | null, targets: Target[]): string {
  const fallback = targets.find((t) => t.docs.some((d) => d.scope.kind === 'repo'));
  const moved = fallback ? fallback.docs.filter((d) => d.scope.kind === 'repo').map((d) => d.path) : [];
  const where =
    moved.length > 0
      ? ` The repo-wide rules of ${moved.join(', ')} go to ${fallback!.path} (applyTo "**"), which Copilot reads for every file.`
      : '';
  if (link) {
    const through =
      link.shown.path === COPILOT_INSTRUCTIONS_PATH
        ? ''
        : ` Copilot reads ${link.shown.path} through it, so those rules are already Copilot's and stay where they are.`;
    return `${COPILOT_INSTRUCTIONS_PATH} is a symlink to ${link.link}: copilot-onboard does not write through links, so it is left as it is.${through}${where} The approve form can instead replace the link with a regular file holding all of them.`;
  }
  return `${COPILOT_INSTRUCTIONS_PATH} ${unwritable(scan, COPILOT_INSTRUCTIONS_PATH)}: copilot-onboard does not write through links or over files it cannot read, so it is left as it is.${where}`;
}

/** The choice to replace a linked Copilot file by a regular one, and the file the link shows (kept: others may link to it). */
function linkOptions(link: CopilotLink | null, replaced: boolean): LegacyOption[] {
  if (!link) return [];
  const options: LegacyOption[] = [
    {
      path: COPILOT_INSTRUCTIONS_PATH,
      kind: 'copilot-instructions',
      target: COPILOT_INSTRUCTIONS_PATH,
      fates: ['keep', 'replace'],
      note: `${COPILOT_INSTRUCTIONS_PATH} is a symlink to ${link.link}; keeping it leaves repo-wide rules of other files in their own Copilot file.`,
      linkTarget: link.link,
    },
  ];
  if (link.shown.role === 'legacy') {
    options.push({
      path: link.shown.path,
      kind: link.shown.kind,
      target: COPILOT_INSTRUCTIONS_PATH,
      fates: ['keep'],
      note: replaced
        ? `${link.shown.path} is kept as it is: its rules are copied into ${COPILOT_INSTRUCTIONS_PATH}, which stops being a link to it.`
        : `${link.shown.path} is kept as it is: ${COPILOT_INSTRUCTIONS_PATH} links to it, so Copilot reads its rules through the link.`,
    });
  }
  return options;
}

function legacyOptions(legacy: InstructionDoc[], targets: Target[], scan: ScanResult, blocked: Set<string>): LegacyOption[] {
  const aliased = new Set(scan.docs.map((d) => d.aliasOf).filter((a): a is string => a !== null));
  return legacy.map((doc) => {
    const target = targets.find((t) => t.docs.includes(doc))!.path;
    const fates: LegacyFate[] = ['keep'];
    // Only a file whose rules really moved may go, and never through a link: that would change its target.
    const movable = !aliased.has(doc.path) && !blocked.has(target) && !scan.files.get(doc.path)?.linkTarget;
    if (movable) fates.push('remove');
    if (POINTER_KINDS.has(doc.kind) && movable) fates.push('pointer');
    return { path: doc.path, kind: doc.kind, target, fates, note: legacyNote(doc, target) };
  });
}

/**
 * The choice to migrate a file the plan leaves out by default; keeping it (the default) leaves it out.
 * A copy may also be migrated instead of the file it is a copy of (`use-this`), when it applies wherever that file does.
 */
function optionalOptions(
  optional: InstructionDoc[],
  legacyDocs: InstructionDoc[],
  targets: Target[],
  existing: Map<string, Scope>,
  copilotBlocked: boolean,
  notRuleOf: (d: InstructionDoc) => string | null,
  copies: Copy[],
): LegacyOption[] {
  return optional.map((doc) => {
    // Where its rules would go: where they go now, or where they would go with it among the others.
    const target = (targets.find((t) => t.docs.includes(doc)) ??
      planTargets([...legacyDocs, doc], existing, copilotBlocked ? 'scoped' : 'copilot').find((t) => t.docs.includes(doc)))!.path;
    const copy = copies.find((c) => c.relation === 'copy' && c.path === doc.path);
    const fates: LegacyFate[] = copy?.swappable ? ['keep', 'migrate', 'use-this'] : ['keep', 'migrate'];
    return {
      path: doc.path,
      kind: doc.kind,
      target,
      fates,
      note: `${doc.path} is left out of the migration: it is ${notRuleOf(doc)}. Choose to migrate it if its rules are yours.`,
      ...(copy ? { copyOf: { path: copy.keptPath, diff: copy.diff } } : {}),
    };
  });
}

/**
 * The copies as the person's choices leave them. A `use-this` on a swappable copy turns its group
 * around (analysis/copies.ts, keepInstead); a second `use-this` in the same group is not applied, and said.
 */
function copyChoices(
  scan: ScanResult,
  choices: PlanChoices,
): { swaps: CopySwap[]; copies: Copy[]; leftOut: Map<string, string>; ignored: string[] } {
  const swaps: CopySwap[] = [];
  const ignored: string[] = [];
  for (const c of scan.copies) {
    if (choices.legacy[c.path] !== 'use-this' || c.relation !== 'copy' || !c.swappable) continue;
    const first = swaps.find((w) => w.was === c.keptPath);
    if (first)
      ignored.push(
        `${c.path}: your choice to migrate it instead of ${c.keptPath} is not applied, because you chose ${first.chosen} for that already; ${c.path} is left out as a copy of ${first.chosen}.`,
      );
    else swaps.push(keepInstead(c, scan.copies, scan.docs, (p) => scan.files.get(p)!.text));
  }
  if (swaps.length === 0) return { swaps, copies: scan.copies, leftOut: new Map(), ignored };
  const turned = new Set(swaps.map((w) => w.was));
  const copies = [...scan.copies.filter((c) => !(c.relation === 'copy' && turned.has(c.keptPath))), ...swaps.flatMap((w) => w.copies)];
  const order = new Map(scan.docs.map((d, i) => [d.path, i]));
  copies.sort((a, b) => order.get(a.path)! - order.get(b.path)!);
  const leftOut = new Map(swaps.flatMap((w) => w.copies.map((c) => [c.path, c.notRule] as const)));
  return { swaps, copies, leftOut, ignored };
}

/** What keeping a legacy file means, surface by surface (core/surfaces.ts): who reads it today, who sees its rules only after the migration. */
export function legacyNote(doc: Pick<InstructionDoc, 'path' | 'kind'>, target: string): string {
  const now = readersOf(doc.kind, doc.path);
  const later = newReaders(doc.kind, doc.path, target);
  const after = later.length > 0 ? `; ${surfaceList(later)} will see its rules only after the migration, from ${target}` : '';
  if (now.length === 0) return `${doc.path} is kept for its own tool: no Copilot surface reads it today${after}.`;
  return `${doc.path} is read today by ${surfaceList(now)}${after}. If you keep it, its rules load twice there (from it and from ${target}).`;
}

function conflictOptions(analysis: Analysis, linesOf: (p: string) => string[]): ConflictOption[] {
  return analysis.problems
    .filter((p) => p.type === 'contradiction')
    .map((p, i) => ({
      id: `conflict_${i + 1}`,
      description: p.description,
      locations: p.locations.map((l, j) => ({ ...l, text: linesOf(l.path)[l.line - 1] ?? '', side: p.sides?.[j] ?? j })),
    }));
}

function conflictEffects(conflicts: ConflictOption[], choices: PlanChoices, docs: InstructionDoc[]) {
  /** Topics by source line (`path:line`) of each side left standing; the plan marks the block each lands in. */
  const marks: MarkTopics = new Map();
  const dropped = new Map<string, { path: string; line: number; text: string }>();
  const byPath = new Map(docs.map((d) => [d.path, d]));
  // Headings are not marked: the rules under them are.
  const inHeading = (path: string, line: number) =>
    byPath.get(path)?.units.find((x) => line >= x.line && line < x.line + x.lines.length)?.kind === 'heading';
  for (const c of conflicts) {
    const choice = choices.conflicts[c.id] ?? 'keep_all';
    const keep = /^keep_(\d+)$/.exec(choice);
    const kept = keep ? Number(keep[1]) - 1 : -1;
    if (kept < 0 || kept >= c.locations.length) {
      const topic = c.description.replace(/^Contradicting rules about ([^:]+):.*$/s, '$1');
      for (const l of c.locations) {
        const key = `${l.path}:${l.line}`;
        if (!inHeading(l.path, l.line) && !marks.get(key)?.includes(topic)) pushTo(marks, key, topic);
      }
      continue;
    }
    const sideOf = (j: number) => c.locations[j]!.side ?? j;
    c.locations.forEach((l, j) => {
      if (sideOf(j) !== sideOf(kept)) dropped.set(`${l.path}:${l.line}`, { path: l.path, line: l.line, text: l.text });
    });
  }
  return { marks, dropped };
}

/** Take out `@path` import lines; one that ended the file takes the blank lines before it along. */
function dropImports(r: Rendered, imports: Map<string, unknown>): Rendered {
  const out = dropLines(r, imports);
  const last = r.refs[r.refs.length - 1];
  if (out.lines.length < r.lines.length && last && imports.has(`${last.path}:${last.line}`)) {
    while (out.lines.length > 0 && out.refs[out.refs.length - 1] === null && out.lines[out.lines.length - 1]!.trim() === '') {
      out.lines.pop();
      out.refs.pop();
    }
  }
  return out;
}

function dropLines(r: Rendered, dropped: Map<string, unknown>): Rendered {
  if (dropped.size === 0) return r;
  const out: Rendered = { lines: [], refs: [] };
  let gapAfterDrop = false;
  r.refs.forEach((ref, i) => {
    if (ref && dropped.has(`${ref.path}:${ref.line}`)) {
      gapAfterDrop = out.lines.length === 0 || out.lines[out.lines.length - 1]!.trim() === '';
      return;
    }
    const blank = ref === null && r.lines[i]!.trim() === '';
    // A dropped rule takes one of the blank lines around it along, so no double gap is left.
    if (blank && gapAfterDrop) return;
    gapAfterDrop = false;
    out.lines.push(r.lines[i]!);
    out.refs.push(ref);
  });
  return out;
}

/**
 * Safety net: every non-blank body line of every contributing document is in the output exactly
 * once, unless listed as merged (into a copy from another file: a repeat inside one file is kept) or
 * dropped by the person's choice, and every line that claims to come from a source is byte-identical to it.
 */
function assertEveryLineOnce(
  linesOf: (p: string) => string[],
  contributors: InstructionDoc[],
  out: Rendered,
  merged: Merged[],
  dropped: Map<string, unknown>,
): void {
  const seen = new Map<string, number>();
  out.refs.forEach((ref, i) => {
    if (!ref) return;
    const key = `${ref.path}:${ref.line}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    const source = linesOf(ref.path)[ref.line - 1];
    if (source === undefined || !sameOrDemoted(source, out.lines[i]!)) throw new Error(`internal check failed: ${key} would change`);
  });
  // A repeat inside one file is written again, never merged into its own file's copy.
  for (const m of merged) {
    const own = m.keptAt.path === m.path && linesOf(m.path)[m.keptAt.line - 1] === linesOf(m.path)[m.line - 1];
    if (own)
      throw new Error(`internal check failed: ${m.path}:${m.line} repeats line ${m.keptAt.line} of its own file and would be merged`);
  }
  const mergedLines = new Set(merged.flatMap((m) => Array.from({ length: m.lines }, (_, i) => `${m.path}:${m.line + i}`)));
  for (const doc of contributors) {
    for (const u of doc.units) {
      u.lines.forEach((l, i) => {
        if (l.trim() === '') return;
        const key = `${doc.path}:${u.line + i}`;
        const n = seen.get(key) ?? 0;
        const expected = mergedLines.has(key) || dropped.has(key) ? 0 : 1;
        if (n !== expected) throw new Error(`internal check failed: line ${key} would be ${n === 0 ? 'lost' : 'doubled'}`);
      });
    }
  }
}

function spans(target: string, refs: (LineRef | null)[]): Provenance[] {
  const out: Provenance[] = [];
  refs.forEach((ref, i) => {
    const last = out[out.length - 1];
    if (ref && last && last.from.path === ref.path && last.from.endLine === ref.line - 1 && last.to.endLine === i) {
      last.from.endLine = ref.line;
      last.to.endLine = i + 1;
    } else if (ref) {
      out.push({
        from: { path: ref.path, startLine: ref.line, endLine: ref.line },
        to: { path: target, startLine: i + 1, endLine: i + 1 },
      });
    }
  });
  return out;
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
