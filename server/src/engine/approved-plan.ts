import { PreconditionError } from '../common/errors.js';
import { analyze } from '../analysis/analyze.js';
import { scanRepository } from '../analysis/discovery/scan.js';
import { buildPlan, hashPlan, type Plan, type PlanOperation } from '../planning/plan.js';
import type { OnboardingState, PlanChoices, PlanFile } from '../state/schema.js';
import { readPlan, readState } from '../state/store.js';
import { assertPlanCurrent } from './apply.js';

/**
 * Which plan may be applied, checked from the files each time: the saved plan against the state and
 * its own hash, the approval against the plan, and the plan rebuilt from the instruction files as
 * they are now against the one the person saw.
 */

/** The saved plan, checked against the state that points at it and against its own hash. */
export async function currentPlan(root: string, state: OnboardingState): Promise<PlanFile> {
  const plan = await readPlan(root);
  if (!plan || !state.plan) throw new PreconditionError('There is no plan yet. Run propose first.');
  if (plan.planHash !== state.plan.planHash || hashPlan(plan.sources, plan.operations, plan.legacy, plan.conflicts) !== plan.planHash) {
    throw new PreconditionError('The saved plan does not match the one that was proposed (it was edited or replaced). Run propose again.');
  }
  return plan;
}

/**
 * The plan rebuilt with the person's choices from the files as they are now; refused when the files
 * changed since propose. Its conflicts carry their topics as data (planning/choices.ts).
 */
export async function approvedPlan(root: string, plan: PlanFile, choices: PlanChoices): Promise<Plan> {
  await assertPlanCurrent(root, plan.sources, plan.operations);
  const scan = await scanRepository(root);
  const fresh = buildPlan(scan, analyze(scan), choices);
  if (fresh.planHash !== plan.planHash) {
    throw new PreconditionError(
      'The plan is stale: the instruction files changed since it was proposed. Run propose again and approve the new plan.',
    );
  }
  return fresh;
}

export interface PlanToApply {
  /** The saved plan the approval names. */
  plan: PlanFile;
  /** That plan rebuilt with the approved choices: its operations are what migrate writes. */
  chosen: Plan;
}

/** The approved plan, as migrate will apply it: approved, not used yet, and the same plan the approval's second round showed. */
export async function planToApply(root: string): Promise<PlanToApply> {
  const state = await readState(root);
  const plan = await currentPlan(root, state);
  const approval = state.approval;
  if (!approval || approval.planHash !== plan.planHash) throw new PreconditionError('This plan has not been approved. Run approve first.');
  if (approval.usedAt !== null)
    throw new PreconditionError('The approval of this plan was already used by a migration. Run approve again.');
  const chosen = await approvedPlan(root, plan, approval.choices);
  // The approval binds to the plan its second round showed: rebuilt with the same choices, it must be the same plan.
  if (chosen.chosenHash !== (approval.approvedHash ?? plan.planHash)) {
    throw new PreconditionError('The plan built with the approved choices is not the plan that was approved. Run approve again.');
  }
  if (chosen.operations.length === 0) throw new PreconditionError('With the choices made, the plan changes no file.');
  return { plan, chosen };
}

/**
 * The re-check right before writing: the person may have edited a file, or another client approved
 * again, while the form was open. The approval must still be the unused one of this plan, and the
 * files must still give exactly the operations shown. Returns the state to record the migration in.
 */
export async function recheckApprovedPlan(
  root: string,
  shown: { planHash: string; operations: PlanOperation[] },
): Promise<OnboardingState> {
  const state = await readState(root);
  const approved = await currentPlan(root, state);
  if (approved.planHash !== shown.planHash || state.approval?.planHash !== shown.planHash || state.approval.usedAt !== null) {
    throw new PreconditionError('The approval changed while waiting for the confirmation.');
  }
  const current = (await approvedPlan(root, approved, state.approval.choices)).operations;
  if (JSON.stringify(current) !== JSON.stringify(shown.operations))
    throw new PreconditionError('The files changed while waiting for the confirmation.');
  return state;
}
