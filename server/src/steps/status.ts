import { errorMessage } from '../core/errors.js';
import { readState, StateDamagedError } from '../state/store.js';
import type { FlowContext } from './context.js';
import { result, resultForError, type StepResult } from './result.js';

const NEXT: Record<string, string> = {
  new: 'Run analyze to see the instruction files, then propose to build a plan.',
  proposed: 'Review the plan, then run approve.',
  approved: 'Run migrate to apply the approved plan.',
  migrated: 'The migration is applied. Run rollback to undo it.',
  rolled_back: 'The migration was rolled back. Run propose to start again.',
};

export async function statusStep(ctx: Pick<FlowContext, 'root'>): Promise<StepResult> {
  try {
    const state = await readState(ctx.root);
    const active = [...state.migrations].reverse().find((m) => m.rolledBackAt === null) ?? null;
    const approvalOpen = state.approval !== null && state.approval.usedAt === null && state.approval.planHash === state.plan?.planHash;
    const lines = [
      `Repository: ${ctx.root}`,
      `Step: ${state.step}`,
      `Plan: ${state.plan ? `${state.plan.planHash.slice(0, 12)} (${state.plan.operations} operation${state.plan.operations === 1 ? '' : 's'})` : 'none'}`,
      `Approval: ${approvalOpen ? `open, from ${state.approval!.client?.name ?? 'unknown client'}` : state.approval?.usedAt ? 'used' : 'none'}`,
      `Migration to roll back: ${active ? `${active.id} (backup in ${active.backupDir})` : 'none'}`,
      `Next: ${NEXT[state.step]}`,
      ...(state.lastRecovery ? [`Last recovery (${state.lastRecovery.at}): ${state.lastRecovery.detail}`] : []),
    ];
    return result('status', lines.join('\n'), {
      damaged: false,
      step: state.step,
      planHash: state.plan?.planHash ?? null,
      approved: approvalOpen,
      activeMigration: active ? { id: active.id, backupDir: active.backupDir, files: active.files.map((f) => f.path) } : null,
      migrations: state.migrations.length,
      next: NEXT[state.step],
      lastRecovery: state.lastRecovery ?? null,
    });
  } catch (err) {
    if (err instanceof StateDamagedError) {
      return result('status', `The onboarding state cannot be read. ${errorMessage(err)}`, { damaged: true, step: null, message: errorMessage(err) });
    }
    return resultForError(err);
  }
}
