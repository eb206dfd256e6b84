import { errorMessage } from '../common/errors.js';
import { scanRepository } from '../analysis/discovery/scan.js';
import { unrecoveredOperation } from '../engine/recovery.js';
import type { OnboardingState } from '../state/schema.js';
import { readState, StateDamagedError } from '../state/store.js';
import { earlierMigration } from '../state/earlier-version.js';
import { showLine, showPath } from '../show/untrusted.js';
import type { FlowContext, FlowOptions } from '../call/context.js';
import { stepName } from '../call/words.js';
import { result, resultForError, type StepResult } from './result.js';
import { nextForSuperseded, supersededFiles, type SupersededFile } from './superseded.js';

const NEXT: Record<string, (o: FlowOptions | undefined) => string> = {
  new: (o) => `Run ${stepName(o, 'analyze')} to see the instruction files, then ${stepName(o, 'propose')} to build a plan.`,
  proposed: (o) => `Review the plan, then run ${stepName(o, 'approve')}.`,
  approved: (o) => `Run ${stepName(o, 'migrate')} to apply the approved plan.`,
  migrated: (o) => `The migration is applied. Run ${stepName(o, 'rollback')} to undo it.`,
  rolled_back: (o) => `The migration was rolled back. Run ${stepName(o, 'propose')} to start again.`,
};

export async function statusStep(ctx: Pick<FlowContext, 'root' | 'options'>): Promise<StepResult> {
  try {
    // Read first: a start that could not recover an interrupted operation left its journal.
    const interrupted = await unrecoveredOperation(ctx.root);
    const state = await readState(ctx.root);
    const own = [...state.migrations].reverse().find((m) => m.rolledBackAt === null) ?? null;
    // None of this clone's own: one an earlier version recorded here can still be rolled back (state/earlier-version.ts).
    const earlier = own ? null : await earlierMigration(ctx.root, state).catch(() => null);
    const active = own ?? earlier?.migration ?? null;
    const approvalOpen = state.approval !== null && state.approval.usedAt === null && state.approval.planHash === state.plan?.planHash;
    const next = earlier ? earlierNext(earlier.earlier.version, ctx.options) : nextStep(state, approvalOpen, ctx.options);
    // Nothing of this version's own yet: the step is the earlier version's migration, said as such.
    const step = earlier && state.step === 'new' ? 'migrated' : state.step;
    const by = earlier ? `recorded by copilot-onboard ${earlier.earlier.version}, an earlier version; ` : '';
    // After a migration that kept legacy files: which ones, and the commands that point or remove them.
    const kept = active && state.step === 'migrated' ? await keptLegacy(ctx.root, state) : [];
    const lines = [
      `Repository: ${showPath(ctx.root)}`,
      `Step: ${step}${earlier && step === 'migrated' ? ` (by copilot-onboard ${earlier.earlier.version}, an earlier version)` : ''}`,
      `Plan: ${planLine(state, approvalOpen)}`,
      `Approval: ${approvalOpen ? `approved, not applied yet (by ${state.approval!.client ? showLine(state.approval!.client.name) : 'an unknown client'})` : state.approval?.usedAt ? 'used' : 'none'}`,
      `Migration to roll back: ${active ? `${active.id} (${by}backup in ${active.backupDir})` : 'none'}`,
      `Next: ${next}`,
      ...(kept.length > 0
        ? [
            `Kept legacy files: ${kept.map((k) => `${showPath(k.path)} (superseded by ${k.by.map(showPath).join(', ')})`).join(', ')}.${keptNext(kept, ctx.options)}`,
          ]
        : []),
      ...(state.lastRecovery ? [`Last recovery (${showLine(state.lastRecovery.at)}): ${showLine(state.lastRecovery.detail)}`] : []),
    ];
    const stuck = interrupted && !interrupted.running;
    if (interrupted) lines.unshift(showLine(interrupted.text), '');
    return result('status', lines.join('\n'), {
      damaged: Boolean(stuck),
      step,
      // The plan that will run: once approved with choices, the plan those choices built; the plan it was built from beside it.
      planHash: approvalOpen ? (state.approval!.approvedHash ?? state.approval!.planHash) : (state.plan?.planHash ?? null),
      basePlanHash: state.plan?.planHash ?? null,
      approvedHash: approvalOpen ? (state.approval!.approvedHash ?? state.approval!.planHash) : null,
      approved: approvalOpen,
      activeMigration: active
        ? {
            id: active.id,
            backupDir: active.backupDir,
            files: active.files.map((f) => f.path),
            ...(earlier ? { writtenBy: earlier.earlier.version } : {}),
          }
        : null,
      migrations: state.migrations.length,
      next: stuck ? interrupted.text : next,
      superseded: kept.map(({ path, by, fates }) => ({ path, by, fates })),
      lastRecovery: state.lastRecovery ?? null,
      ...(interrupted ? { interrupted, ...(stuck ? { message: interrupted.text } : {}) } : {}),
    });
  } catch (err) {
    if (err instanceof StateDamagedError) {
      return result('status', `The onboarding state cannot be read. ${showLine(errorMessage(err))}`, {
        damaged: true,
        step: null,
        message: errorMessage(err),
      });
    }
    return resultForError(err);
  }
}

/** Once approved, the plan is the one the approval names: its hash and the operations migrate will run. */
function planLine(state: OnboardingState, approvalOpen: boolean): string {
  if (!state.plan) return 'none';
  const approval = approvalOpen ? state.approval! : null;
  const hash = approval?.approvedHash ?? state.plan.planHash;
  const operations = approval?.approvedOperations ?? state.plan.operations;
  return `${hash.slice(0, 12)} (${operations} operation${operations === 1 ? '' : 's'}${approval ? ' to run' : ''})`;
}

/** After an upgrade, with a migration the earlier version recorded here. */
function earlierNext(version: string, o: FlowOptions | undefined): string {
  return `Run ${stepName(o, 'rollback')} to undo the migration copilot-onboard ${version} recorded (it asks you first), or ${stepName(o, 'propose')} to build a new plan over the migrated files.`;
}

/** An approval spent on a migration that did not stand (undone at a restart) is no approval. */
function nextStep(state: OnboardingState, approvalOpen: boolean, o: FlowOptions | undefined): string {
  if (state.step === 'approved' && !approvalOpen)
    return `The approval was used. Run ${stepName(o, 'approve')} again, then ${stepName(o, 'migrate')}.`;
  return NEXT[state.step]!(o);
}

/** The next step for the kept files, after a space; none when no kept file can be replaced. */
function keptNext(kept: SupersededFile[], o: FlowOptions | undefined): string {
  const next = nextForSuperseded(kept, o);
  return next === '' ? '' : ` ${next}`;
}

/** The legacy files the active migration kept whose rules are all in its Copilot files (see superseded.ts). */
async function keptLegacy(root: string, state: OnboardingState): Promise<SupersededFile[]> {
  try {
    return supersededFiles(await scanRepository(root), state);
  } catch {
    return [];
  }
}
