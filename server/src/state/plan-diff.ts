import { sha256 } from '../common/hash.js';
import type { PlanOperation } from '../model/plan.js';
import { readFile, writeFile } from '../repo/safe-fs.js';
import { STATE } from '../repo/state-paths.js';

/**
 * `.copilot-state/plan.diff`: the unified diff of every operation of a plan, as migrate would write
 * it, whole. A form shows what fits in a message; this file is where the person reads the rest. Its
 * first line names the plan's hash, which is what binds it: approve and migrate check that the file
 * on disk is exactly this text for the plan they act on, and write it again when it is not.
 */

export const PLAN_DIFF = STATE.planDiff;

/** What a person was pointed to: the file, the plan it is of, its size and how much the form showed. */
export interface PlanDiffFacts {
  path: string;
  planHash: string;
  sha256: string;
  /** Characters of the diff (the header line aside). */
  chars: number;
  files: number;
}

const HEADER = /^# copilot-onboard plan ([0-9a-f]{64}):/;

/** The diff of every operation, each ending with a line end, as one text. */
export function wholeDiff(operations: Pick<PlanOperation, 'diff'>[]): string {
  return operations.map((o) => (o.diff === '' || o.diff.endsWith('\n') ? o.diff : `${o.diff}\n`)).join('');
}

/** The file's text: a header line naming the plan (patch and git apply skip it), then the whole diff. */
export function planDiffText(planHash: string, operations: Pick<PlanOperation, 'diff'>[]): string {
  const n = operations.length;
  return `# copilot-onboard plan ${planHash}: the whole diff of its ${n} file operation${n === 1 ? '' : 's'}, as migrate would write them\n${wholeDiff(operations)}`;
}

/** The plan hash a plan.diff names, or null when it names none (damaged, or another tool's). */
export function planHashOfDiff(text: string): string | null {
  return HEADER.exec(text)?.[1] ?? null;
}

/**
 * Writes plan.diff for this plan unless it already holds exactly that text (a second approve round
 * of the same plan writes nothing). Returns what a person is pointed to.
 */
export async function writePlanDiff(root: string, planHash: string, operations: Pick<PlanOperation, 'diff'>[]): Promise<PlanDiffFacts> {
  const text = planDiffText(planHash, operations);
  const now = await readFile(root, PLAN_DIFF).catch(() => null);
  if (now === null || now.toString('utf8') !== text) await writeFile(root, PLAN_DIFF, text);
  return { path: PLAN_DIFF, planHash, sha256: sha256(text), chars: wholeDiff(operations).length, files: operations.length };
}

/** plan.diff as it stands: the plan it names and whether it is exactly that plan's diff; null when there is none. */
export async function readPlanDiff(root: string): Promise<{ text: string; planHash: string | null } | null> {
  const bytes = await readFile(root, PLAN_DIFF).catch(() => null);
  if (bytes === null) return null;
  const text = bytes.toString('utf8');
  return { text, planHash: planHashOfDiff(text) };
}
