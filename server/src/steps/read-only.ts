import { analyze } from '../core/analyze.js';
import { describeGit, gitInfo } from '../core/git.js';
import { buildPlan } from '../core/plan.js';
import { scanRepository } from '../core/scan.js';
import { narrate } from '../narrate/narrate.js';
import { analysisReport, planReport } from '../narrate/report.js';
import type { PlanFile } from '../state/schema.js';
import { readState, writePlan, writeState } from '../state/store.js';
import { withLock } from '../state/lock.js';
import type { FlowContext } from './context.js';
import { result, resultForError, type StepResult } from './result.js';

export async function analyzeStep(ctx: FlowContext): Promise<StepResult> {
  try {
    const a = analyze(await scanRepository(ctx.root));
    const facts = { pattern: a.pattern, sources: a.sources, problems: a.problems, skipped: a.skipped };
    const told = await narrate(ctx, 'analyze', facts, analysisReport(a));
    return result('analyzed', told.text, { ...facts, narration: told.source });
  } catch (err) {
    return resultForError(err);
  }
}

/** Build the plan, save it under `.copilot-state/`, and make it the one an approval binds to. */
export async function proposeStep(ctx: FlowContext): Promise<StepResult> {
  try {
    return await withLock(ctx.root, 'operation', 'propose', () => propose(ctx));
  } catch (err) {
    return resultForError(err);
  }
}

async function propose(ctx: FlowContext): Promise<StepResult> {
  {
    const state = await readState(ctx.root);
    const plan = buildPlan(await scanRepository(ctx.root));
    const file: PlanFile = { version: 1, createdAt: new Date().toISOString(), ...plan };
    await writePlan(ctx.root, file);
    const approvalStillValid = state.approval && state.approval.planHash === plan.planHash && state.approval.usedAt === null;
    await writeState(ctx.root, {
      ...state,
      step: 'proposed',
      plan: { planHash: plan.planHash, createdAt: file.createdAt, operations: plan.operations.length },
      approval: approvalStillValid ? state.approval : null,
    });
    const facts = {
      planHash: plan.planHash,
      pattern: plan.pattern,
      operations: plan.operations.map((o) => ({ op: o.op, path: o.path, diff: o.diff, content: o.content })),
      problems: plan.problems,
      merged: plan.merged.map((m) => ({ path: m.path, line: m.line, keptAt: m.keptAt })),
      legacy: plan.legacy,
      conflicts: plan.conflicts.map((c) => ({ id: c.id, description: c.description, locations: c.locations.map(({ path, line }) => ({ path, line })) })),
      notes: plan.notes,
    };
    const git = await gitInfo(ctx.root, plan.operations.map((o) => o.path));
    const narrationFacts = { ...facts, operations: plan.operations.map((o) => ({ op: o.op, path: o.path })) };
    const told = await narrate(ctx, 'propose', narrationFacts, `${planReport(file)}\n${describeGit(git).join('\n')}`);
    return result('proposed', told.text, { ...facts, git, narration: told.source });
  }
}
