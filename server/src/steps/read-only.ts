import { splitText, withThousands } from '../common/text.js';
import { analyze } from '../analysis/analyze.js';
import { describeGit, gitInfo } from '../repo/git.js';
import { analysisLabel, buildPlan, defaultRepoint, migratedTargets } from '../planning/plan.js';
import { withoutRepointedCopies } from '../planning/repoint.js';
import { settledLabel } from '../planning/settled-label.js';
import {
  assertCanPropose,
  assertPlanApplies,
  assertSourcesClean,
  droppedFrontMatterNotes,
  oversizedTargetNotes,
} from '../planning/preconditions.js';
import { scanRepository, type ScanResult } from '../analysis/discovery/scan.js';
import type { Analysis } from '../model/analysis.js';
import type { ConflictOption } from '../model/plan.js';
import { narrate } from '../narrate/narrate.js';
import { showLine } from '../show/untrusted.js';
import { analysisReport, planNext, planReport } from '../narrate/report.js';
import type { PlanFile } from '../state/schema.js';
import { readState, writePlan, writeState } from '../state/store.js';
import { withLock } from '../state/lock.js';
import type { FlowContext, FlowOptions } from '../call/context.js';
import { commandName, forPerson, stepName } from '../call/words.js';
import { writePlanDiff, type PlanDiffFacts } from '../state/plan-diff.js';
import { summaryTable } from '../show/summary-table.js';
import { narrationOf, result, resultForError, type StepResult } from './result.js';
import { annotated, supersededLines, supersededNow, supersededOnceScanned, type SupersededFile } from './superseded.js';
import { AskedBetweenCalls } from '../call/ports.js';
import { opinionLines, pairsBelowTheCut, secondLookOpinion } from '../narrate/opinion.js';

/**
 * Progress for the client: the files read, then each later phase by name. A phase is reported
 * before its work starts, and the step lets the event loop turn once so that the notification
 * goes out before the analysis holds it (seconds on a large monorepo).
 */
export function stepProgress(ctx: FlowContext, phases: number) {
  let total = phases;
  let done = 0;
  return {
    read(n: number, of: number) {
      total = of + phases;
      done = n;
      ctx.report?.progress(done, total, `Read ${n} of ${of} instruction files`);
    },
    async phase(message: string) {
      done++;
      total = Math.max(total, done);
      ctx.report?.progress(done, total, message);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

export async function analyzeStep(ctx: FlowContext): Promise<StepResult> {
  try {
    const progress = stepProgress(ctx, 2);
    // Legacy files kept after a migration: one note each, not the copies the migration made.
    const supersededIn = supersededOnceScanned(ctx.root);
    const scan = await scanRepository(ctx.root, progress.read, ctx.listed);
    await progress.phase(`Analyzing ${scan.sources.length} instruction files…`);
    const superseded = await supersededIn(scan);
    const analyzed = analyze(scan);
    // After a migration, a kept legacy line is no problem against its copy whose pointers it rewrote (planning/repoint.ts).
    const raw =
      superseded.length === 0
        ? analyzed
        : { ...analyzed, problems: withoutRepointedCopies(analyzed.problems, scan, () => defaultRepoint(scan)) };
    // The label settled by the plan when it changes nothing: already in Copilot's layout (issue 40).
    const a = annotated({ ...raw, ...analysisLabel(scan, raw) }, superseded, legacyCount(scan));
    const facts = {
      pattern: a.pattern,
      patternDetail: a.patternDetail,
      sources: a.sources,
      problems: a.problems,
      skipped: a.skipped,
      superseded,
    };
    await progress.phase('Writing the report…');
    // Where the plan puts each file's rules (none for a file it leaves out): analyze and propose show one decision.
    const report = [analysisReport(a, targetsOf(scan, superseded)), ...supersededLines(superseded, ctx.options)].join('\n');
    const told = await narrate(ctx, 'analyze', facts, report);
    return { ...result('analyzed', told.text, { ...facts, narration: told.source }), ...narrationOf(told) };
  } catch (err) {
    // The model is asked between calls (2026-07-28): not an error, the client calls again.
    if (err instanceof AskedBetweenCalls) throw err;
    return resultForError(err);
  }
}

/** Build the plan, save it under `.copilot-state/`, and make it the one an approval binds to. */
export async function proposeStep(ctx: FlowContext): Promise<StepResult> {
  try {
    return await withLock(ctx.root, 'operation', 'propose', () => propose(ctx));
  } catch (err) {
    if (err instanceof AskedBetweenCalls) throw err;
    return resultForError(err);
  }
}

/** The pattern's detail as analyze shows it: settled by the plan when it changes nothing, and said of superseded files. */
function detailShown(scan: ScanResult, analysis: Analysis, operations: number, superseded: SupersededFile[]): string | undefined {
  const { patternDetail } = settledLabel(scan, analysis, operations);
  return annotated({ problems: [], patternDetail }, superseded, legacyCount(scan)).patternDetail;
}

/** The client's model's opinion of the second-look pairs: the plan's, then the ranked ones past those (up to about 40 in all), and the pairs asked about. */
async function modelOpinion(ctx: FlowContext, conflicts: readonly ConflictOption[], scan: ScanResult, analysis: Analysis) {
  const below = pairsBelowTheCut(analysis.problems, (p) => splitText(scan.files.get(p)?.text ?? '').lines);
  return { opinion: await secondLookOpinion(ctx, conflicts, scan.docs, below), asked: [...conflicts, ...below] };
}

async function propose(ctx: FlowContext): Promise<StepResult> {
  const state = await readState(ctx.root);
  // What migrate would refuse is refused here, before a plan is offered (planning/preconditions.ts).
  await assertCanPropose(ctx.root);
  const progress = stepProgress(ctx, 3);
  const scan = await scanRepository(ctx.root, progress.read);
  assertSourcesClean(scan);
  await progress.phase(`Analyzing ${scan.sources.length} instruction files…`);
  const analysis = analyze(scan);
  await progress.phase('Building the plan…');
  const superseded = await supersededNow(ctx.root, scan);
  const plan = annotated(buildPlan(scan, analysis), superseded, legacyCount(scan));
  await assertPlanApplies(ctx.root, plan.operations);
  plan.notes.push(...droppedFrontMatterNotes(scan), ...oversizedTargetNotes(plan.operations));
  // The pattern in the words analyze uses for it (planReport passes patternDetail on to the analysis part).
  const patternDetail = detailShown(scan, analysis, plan.operations.length, superseded);
  // The client's model may read the second-look pairs (one request, none without sampling): shown as its opinion, beside the plan.
  const { opinion, asked } = await modelOpinion(ctx, plan.conflicts, scan, analysis);
  const { file, diffFile } = await savePlan(ctx.root, opinion ? { ...plan, modelOpinion: opinion } : plan);
  // An open approval of this very plan stands (the files and the choices offered are the same); one
  // of an earlier, different plan no longer applies. Step and approval say the same in status.
  const openApproval =
    state.approval && state.approval.usedAt === null && state.plan?.planHash === state.approval.planHash ? state.approval : null;
  const approvalStillValid = openApproval !== null && openApproval.planHash === plan.planHash;
  await writeState(ctx.root, {
    ...state,
    step: approvalStillValid ? 'approved' : 'proposed',
    plan: { planHash: plan.planHash, createdAt: file.createdAt, operations: plan.operations.length },
    approval: approvalStillValid ? state.approval : null,
  });
  const approvalText = openApproval ? approvalWords(openApproval, approvalStillValid, ctx.options) : null;
  const facts = {
    planHash: plan.planHash,
    pattern: plan.pattern,
    patternDetail,
    operations: plan.operations.map((o) => ({ op: o.op, path: o.path, diff: o.diff, content: o.content })),
    problems: plan.problems,
    merged: plan.merged.map(mergedFact),
    legacy: plan.legacy,
    conflicts: plan.conflicts.map((c) => ({
      id: c.id,
      description: c.description,
      locations: c.locations.map(({ path, line }) => ({ path, line })),
    })),
    notes: plan.notes,
    superseded,
  };
  const git = await gitInfo(
    ctx.root,
    plan.operations.map((o) => o.path),
  );
  const narrationFacts = { ...facts, operations: plan.operations.map((o) => ({ op: o.op, path: o.path })) };
  const feedback = state.feedback ? answerFeedback(state.feedback, plan.planHash) : null;
  const shown: PlanFile & { patternDetail?: string } = { ...file, patternDetail };
  const report = [
    feedback?.text,
    planReport(shown, targetsOf(scan, superseded)),
    supersededLines(superseded, ctx.options).join('\n'),
    approvalText,
    plan.operations.length > 0 ? planDiffLine(diffFile, ctx.options) : null,
    describeGit(git).join('\n'),
    opinion ? opinionLines(opinion, asked) : null,
  ]
    .filter(Boolean)
    .join('\n\n');
  await progress.phase('Writing the report…');
  const told = await narrate(ctx, 'propose', { ...narrationFacts, feedback }, report);
  // A person at the CLI gets the figures at a glance at the end; --json and MCP keep their shapes.
  const end = [planNext(plan, ctx.options), forPerson(ctx.options) ? proposeSummary(scan, plan) : null].filter(Boolean).join('\n\n');
  const proposed = result('proposed', told.text, {
    ...facts,
    git,
    feedback,
    approval: openApproval ? { stillApplies: approvalStillValid, planHash: openApproval.planHash } : null,
    diffFile: { path: diffFile.path, planHash: diffFile.planHash, chars: diffFile.chars },
    narration: told.source,
    ...(opinion ? { modelOpinion: opinion } : {}),
  });
  return { ...proposed, ...narrationOf(told), ...(end ? { end } : {}) };
}

/** What a new plan means for an open approval: it still stands (the same plan), or it no longer applies. */
function approvalWords(open: { approvedAt: string; planHash: string }, stillValid: boolean, options: FlowOptions | undefined): string {
  return stillValid
    ? `This plan is the one approved at ${showLine(open.approvedAt)}: that approval still stands, so ${stepName(options, 'migrate')} applies it. Approve again only to change the choices.`
    : `The approval of the earlier plan ${open.planHash.slice(0, 12)} no longer applies: this plan replaces it and needs its own approval.`;
}

/** The plan, and its whole diff readable as it is beside it (state/plan-diff.ts): what a cut text points to. */
async function savePlan(root: string, plan: Omit<PlanFile, 'version' | 'createdAt'>) {
  const file: PlanFile = { version: 1, createdAt: new Date().toISOString(), ...plan };
  await writePlan(root, file);
  return { file, diffFile: await writePlanDiff(root, plan.planHash, plan.operations) };
}

/** Where the whole diff is, and how a person prints it. */
function planDiffLine(file: PlanDiffFacts, options: FlowOptions | undefined): string {
  const print = forPerson(options)
    ? `; ${commandName(options, 'propose')} --diff prints it`
    : '; the MCP resource copilot-onboard://plan.diff serves it';
  return `The whole diff of this plan (${withThousands(file.chars)} characters, ${file.files} file${file.files === 1 ? '' : 's'}) is in ${file.path}${print}.`;
}

/** How a new plan answers the changes the person asked for on an earlier one. */
function answerFeedback(feedback: { planHash: string; comment: string; at: string }, planHash: string) {
  const same = feedback.planHash === planHash;
  const answer = same
    ? 'This plan is the same as the one you commented on: the instruction files have not changed. Edit them, or make your choices in the approve form (legacy files, which rule stands), and propose again.'
    : 'This plan differs from the one you commented on: the instruction files changed since. Check the diff below against your comment.';
  return {
    comment: feedback.comment,
    on: feedback.planHash,
    samePlan: same,
    text: `Requested changes (${feedback.at}): "${showLine(feedback.comment)}"\n${answer}`,
  };
}

/**
 * Where the plan puts each legacy file's rules, but for a file a migration kept on purpose: its rules
 * are in Copilot's files already, so it is never said to be read "only after the migration" (its
 * note says it is superseded and kept as the person chose).
 */
function targetsOf(scan: Parameters<typeof migratedTargets>[0], superseded: { path: string }[]): ReadonlyMap<string, string> {
  const targets = migratedTargets(scan);
  if (superseded.length === 0) return targets;
  const kept = new Set(superseded.map((x) => x.path));
  return new Map([...targets].filter(([path]) => !kept.has(path)));
}

function legacyCount(scan: { docs: { role: string; aliasOf: string | null; notRule: string | null }[] }): number {
  return scan.docs.filter((d) => d.role === 'legacy' && d.aliasOf === null && d.notRule === null).length;
}

/** The end of propose at the CLI: files read, rules, sections, problems, operations. */
function proposeSummary(scan: Awaited<ReturnType<typeof scanRepository>>, plan: Pick<PlanFile, 'operations' | 'problems'>): string {
  const docs = scan.docs.filter((d) => d.aliasOf === null && d.notRule === null);
  const rules = docs.flatMap((d) => d.units).filter((u) => u.kind !== 'heading' && u.kind !== 'frontmatter').length;
  const written = plan.operations.filter((o) => o.content !== null);
  const sections = written.reduce((n, o) => n + (o.content!.match(/^## /gm)?.length ?? 0), 0);
  const byKind = (['create', 'update', 'delete'] as const)
    .map((op) => [op, plan.operations.filter((o) => o.op === op).length] as const)
    .filter(([, n]) => n > 0);
  const kinds = { create: 'to create', update: 'to change', delete: 'to remove' } as const;
  const byType = new Map<string, number>();
  for (const p of plan.problems) byType.set(p.type, (byType.get(p.type) ?? 0) + 1);
  return summaryTable('Summary:', [
    ['Files read', `${scan.sources.length}${scan.skipped.length > 0 ? ` (${scan.skipped.length} left out)` : ''}`],
    ['Rules', `${rules}`],
    ['Sections', written.length > 0 ? `${sections} in the Copilot files the plan writes` : 'none written'],
    [
      'Problems',
      plan.problems.length === 0 ? '0' : `${plan.problems.length} (${[...byType].map(([type, n]) => `${n} ${type}`).join(', ')})`,
    ],
    [
      'Operations',
      byKind.length === 0 ? '0: nothing to do' : `${plan.operations.length} (${byKind.map(([op, n]) => `${n} ${kinds[op]}`).join(', ')})`,
    ],
  ]);
}

/** A rule merged away, as propose reports it: a repeat of what its own section said before also says how many lines it has. */
const mergedFact = (m: PlanFile['merged'][number]) => ({
  path: m.path,
  line: m.line,
  keptAt: m.keptAt,
  ...(m.repeat ? { repeat: true, lines: m.lines } : {}),
});
