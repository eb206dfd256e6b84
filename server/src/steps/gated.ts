import fs from 'fs-extra';
import { assertPlanCurrent } from '../engine/apply.js';
import { approvedPlan, currentPlan, planToApply, recheckApprovedPlan } from '../engine/approved-plan.js';
import { backupDirRel, backupRel } from '../engine/backup.js';
import { PreconditionError } from '../common/errors.js';
import type { Plan, PlanOperation } from '../planning/plan.js';
import { approveForm, migrateForm } from '../gate/confirm-forms.js';
import { choicesForm, choicesMessage, hasChoices } from '../gate/choices-round.js';
import { answerOf, saidNo } from '../call/field-roles.js';
import {
  commitFiles,
  commitsOfMigration,
  committableTraces,
  createBranch,
  describeCommit,
  describeGit,
  gitInfo,
  planCommit,
  type CommitPlan,
  type GitInfo,
} from '../repo/git.js';
import { RepoPaths } from '../repo/repo-path.js';
import { editedSinceMigration, manifestOfRecorded } from '../engine/restore.js';
import { performMigration, performRollback, settleOperation } from '../engine/migration.js';
import { earlierMigrationChecked, takeUpEarlierMigration, type EarlierMigration } from '../engine/earlier-migration.js';
import { runGated, type Acted, type GateResult, type Prepared } from '../gate/gate.js';
import type { Migration, PlanChoices, PlanFile } from '../state/schema.js';
import { readState, writeState } from '../state/store.js';
import { entryStat } from '../repo/safe-fs.js';
import { fileStamp } from '../state/traces/writer.js';
import type { FlowContext } from '../call/context.js';
import { approveMessage, migrateMessage, rollbackMessage } from './messages.js';
import { shownDiff } from './diff-shown.js';
import { writePlanDiff } from '../state/plan-diff.js';
import { showLine, showPath, showPaths } from '../show/untrusted.js';
import { stepName } from '../call/words.js';
import { result, type StepResult } from './result.js';
import { withThousands } from '../common/text.js';

function fromGate(g: GateResult<unknown>, fields: Record<string, unknown> = {}): StepResult {
  return result(g.outcome, g.text, { planHash: g.planHash, trace: g.trace, ...g.fields, ...fields }, g.badInput ?? false);
}

/** What approve's second round carries to its act: the plan, and the plan rebuilt with the choices. */
interface ApproveRound {
  plan: PlanFile;
  chosen: Plan;
  choices: PlanChoices;
}

const BACKUP_HINT = '.copilot-state/backups/<migration id>/';

export async function approveStep(ctx: FlowContext): Promise<StepResult> {
  const g = await runGated<ApproveRound>(
    ctx,
    'approve',
    async () => {
      const plan = await currentPlan(ctx.root, await readState(ctx.root));
      if (!hasChoices(plan)) return secondRound(ctx, plan, { legacy: {}, conflicts: {} }, false);
      await assertPlanCurrent(ctx.root, plan.sources, plan.operations);
      const form = choicesForm(plan);
      return {
        planHash: plan.planHash,
        message: choicesMessage(plan),
        form,
        next: (content) => secondRound(ctx, plan, form.choicesFrom(content), true),
      };
    },
    (content, round) => recordApproval(ctx, content, round),
  );
  return g.outcome === 'not_confirmed' ? recordRequestedChanges(ctx, g) : fromGate(g);
}

/** Round two: the plan rebuilt with the choices, its exact diff; the approval binds to its hash. */
async function secondRound(ctx: FlowContext, plan: PlanFile, picked: PlanChoices, withChoices: boolean): Promise<Prepared<ApproveRound>> {
  const chosen = await approvedPlan(ctx.root, plan, picked);
  if (chosen.operations.length === 0) {
    throw new PreconditionError(
      withChoices
        ? 'With these choices the plan changes no file, so there is nothing to approve'
        : 'The plan has nothing to do, so there is nothing to approve',
    );
  }
  const git = describeGit(
    await gitInfo(
      ctx.root,
      chosen.operations.map((o) => o.path),
    ),
  );
  // The whole diff of the plan the person approves, on disk: the form shows what fits and points there.
  const file = await writePlanDiff(ctx.root, chosen.chosenHash, chosen.operations);
  const shown = shownDiff(chosen.operations, file);
  // In words for every reader, a model too: no field id (`conflict_1: keep_1`) in what a person may be shown.
  const chosenLines = withChoices ? choiceLines(picked, plan) : [];
  return {
    planHash: chosen.chosenHash,
    message: `${approveMessage(plan, chosen, chosenLines, BACKUP_HINT, shown.lines)}\n\n${git.join('\n')}`,
    form: approveForm(withChoices, shown.approves),
    diffFile: {
      path: file.path,
      planHash: file.planHash,
      sha256: file.sha256,
      chars: file.chars,
      shownChars: shown.shownChars,
      whole: shown.whole,
    },
    ...(withChoices ? { goBack: (content: Record<string, unknown>) => answerOf(content, 'go_back') === true } : {}),
    prepared: { plan, chosen, choices: picked },
  };
}

/** An accepted approve: the approval of the plan round two showed, with the choices that built it. */
async function recordApproval(ctx: FlowContext, content: Record<string, unknown>, { plan, chosen, choices }: ApproveRound): Promise<Acted> {
  const state = await readState(ctx.root);
  await currentPlan(ctx.root, state);
  const said = answerOf(content, 'comment');
  const comment = typeof said === 'string' && said !== '' ? said : null;
  await writeState(ctx.root, {
    ...state,
    step: 'approved',
    feedback: null,
    approval: {
      planHash: plan.planHash,
      approvedAt: new Date().toISOString(),
      client: ctx.session.client.info(),
      comment,
      choices,
      approvedHash: chosen.chosenHash,
      approvedOperations: chosen.operations.length,
      usedAt: null,
    },
  });
  const picked = choiceLines(choices, plan);
  return {
    outcome: 'approved',
    detail: `Plan ${chosen.chosenHash.slice(0, 12)} is approved${picked.length ? ` with these choices: ${picked.join(', ')}` : ''}. Next: ${stepName(ctx.options, 'migrate')} applies it after a final confirmation.`,
  };
}

/** An approve answered no with a comment: the comment is kept as the changes the person asked for, shown by the next propose. */
async function recordRequestedChanges(ctx: FlowContext, g: GateResult<ApproveRound>): Promise<StepResult> {
  const comment = g.answered ? answerOf(g.answered, 'comment') : undefined;
  if (!g.prepared || !g.answered || !saidNo(g.answered) || typeof comment !== 'string' || comment.trim() === '') return fromGate(g);
  const state = await readState(ctx.root);
  await writeState(ctx.root, {
    ...state,
    feedback: {
      planHash: g.prepared.plan.planHash,
      comment: comment.trim(),
      at: new Date().toISOString(),
      client: ctx.session.client.info(),
    },
  });
  return fromGate(
    { ...g, text: `${g.text} The comment is recorded as requested changes: "${showLine(comment.trim())}". The next propose shows it.` },
    { requestedChanges: comment.trim() },
  );
}

/**
 * The choices that differ from the defaults, one line each, in words for every reader (a model over
 * MCP shows them to the person): `the conflict about package manager: keep the rule at AGENTS.md:3`,
 * never the form's own names (`conflict_1: keep_2`).
 */
function choiceLines(picked: PlanChoices, plan: Pick<PlanFile, 'conflicts'>): string[] {
  const conflict = (id: string, choice: string): string => {
    const c = plan.conflicts.find((x) => x.id === id);
    const name = c ? `the conflict about ${showLine(c.topic)}` : 'the conflict';
    const keep = /^keep_(\d+)$/.exec(choice);
    if (!keep) return `${name}: keep all its rules`;
    const at = c?.locations[Number(keep[1]) - 1];
    return `${name}: keep the rule at ${at ? `${showPath(at.path)}:${at.line}` : 'one side'}`;
  };
  const fates: Record<string, string> = {
    remove: 'remove it (backed up first)',
    pointer: 'replace it with a pointer',
    replace: 'replace the link with a regular file',
    migrate: 'migrate it after all',
    'use-this': 'migrate it instead of its copy',
  };
  return [
    ...Object.entries(picked.legacy)
      .filter(([, f]) => f !== 'keep')
      .map(([p, f]) => `${showPath(p)}: ${fates[f] ?? f}`),
    ...Object.entries(picked.conflicts)
      .filter(([, c]) => c !== 'keep_all')
      .map(([id, c]) => conflict(id, c)),
    ...Object.entries(picked.scopes ?? {}).map(
      ([p, f]) => `${showPath(p)}: ${f === 'repo' ? 'applies to the whole repository' : 'applies to its folder only'}`,
    ),
    ...Object.entries(picked.assistants ?? {})
      .filter(([, f]) => f !== 'keep')
      .map(
        ([p, f]) =>
          `${showPath(p)}: ${f === 'rewrite' ? 'lines for another assistant rewritten for Copilot' : 'lines for another assistant left out'}`,
      ),
  ];
}

/** What migrate's act needs, all of it settled before the person is asked. */
interface MigrateRound {
  planHash: string;
  /** The approved plan's own hash, the name the person saw (see approveMessage). */
  approvedHash: string;
  ops: PlanOperation[];
  id: string;
  git: GitInfo | null;
  commitPlan: CommitPlan | null;
}

export async function migrateStep(ctx: FlowContext): Promise<StepResult> {
  const g = await runGated<MigrateRound>(
    ctx,
    'migrate',
    async () => {
      const { plan, chosen } = await planToApply(ctx.root);
      const ops = chosen.operations;
      const id = await freshMigrationId(ctx.root);
      const git = await gitInfo(
        ctx.root,
        ops.map((o) => o.path),
      );
      // plan.diff is the approved plan's, every line: written again when it names another plan or was changed by hand.
      const diff = await writePlanDiff(ctx.root, chosen.chosenHash, ops);
      const extra = [
        `The whole diff of what it writes: ${diff.path} (plan ${diff.planHash.slice(0, 12)}, ${withThousands(diff.chars)} characters).`,
        ...describeGit(git),
        ...(ctx.options?.branch && git ? [`The migration goes on a new branch: ${showLine(ctx.options.branch)}.`] : []),
      ];
      let commitPlan: CommitPlan | null = null;
      // What --commit will do is said here, before anything is written; a commit on no branch is refused.
      if (ctx.options?.commit) {
        if (!git) extra.push('With --commit: this is not a git work tree, so nothing is committed.');
        else {
          if (git.detached && !ctx.options.branch) {
            throw new PreconditionError(
              `--commit on a detached HEAD (${showLine(git.head ?? '')}) would make a commit that belongs to no branch and is easily lost. Check out a branch first, or add --branch NAME to commit on a new one`,
            );
          }
          commitPlan = planCommit(git, ops);
          extra.push(...describeCommit(git, commitPlan, ctx.options.branch));
        }
      }
      return {
        planHash: chosen.chosenHash,
        message: `${migrateMessage(plan, chosen, backupDirRel(id))}\n${extra.join('\n')}`,
        form: migrateForm(git?.modified ?? []),
        prepared: { planHash: plan.planHash, approvedHash: chosen.chosenHash, ops, id, git, commitPlan },
      };
    },
    async (content, { planHash, approvedHash, ops, id, git, commitPlan }) => {
      if (git && git.modified.length > 0 && answerOf(content, 'allow_uncommitted') !== true) {
        throw new PreconditionError(
          `The plan would overwrite uncommitted changes in ${showPaths(git.modified)}. Commit or stash them, or allow it in the migrate form.`,
        );
      }
      // The person may have edited a file while the form was open: check again right before writing.
      const state = await recheckApprovedPlan(ctx.root, { planHash, operations: ops });
      if (ctx.options?.branch && git) await createBranch(ctx.root, ctx.options.branch);
      const hashes = { planHash, approvedHash };
      await performMigration(ctx.root, id, hashes, ops, state, (done, p) => ctx.report?.progress(done, ops.length, `Wrote ${p}`));
      const shownFiles = ops.map((o) => `${o.op} ${showPath(o.path)}`);
      const commit = ctx.options?.commit && git ? commitPlan : null;
      return {
        outcome: 'migrated',
        detail: `Migrated: ${shownFiles.join(', ')}. Backup in ${backupDirRel(id)}.${ctx.options?.branch && git ? ` On branch ${ctx.options.branch}.` : ''} Undo with ${stepName(ctx.options, 'rollback')}.`,
        settle: () => settleOperation(ctx.root),
        afterTrace: commit ? (trace) => commitMigration(ctx.root, commit, approvedHash, id, trace) : undefined,
        fields: { migrationId: id, backupDir: backupDirRel(id), files: ops.map((o) => `${o.op} ${o.path}`) },
      };
    },
  );
  return fromGate(g);
}

/**
 * The commit of `--commit`: the files the plan said it would hold and the traces, this migrate's
 * included. The message names the trace only when the commit holds it (git may ignore .copilot-state/).
 */
async function commitMigration(root: string, planned: CommitPlan, planHash: string, id: string, trace: string | null): Promise<string> {
  const traces = await committableTraces(root);
  const holdsTrace = trace !== null && traces.some((t) => trace === t || trace.startsWith(`${t}/`));
  const files = [...planned.files, ...traces];
  if (files.length === 0) return 'Nothing was committed: git can hold none of these changes, and it ignores the traces.';
  const message = `copilot-onboard: migrate instructions to Copilot's layout\n\nPlan ${planHash}\nMigration ${id}${holdsTrace ? `\nTrace ${trace}` : ''}`;
  const hash = await commitFiles(root, files, message);
  return `Committed as ${hash}${holdsTrace ? `, with its trace ${showPath(trace!)}` : ' (git ignores the traces, so the commit holds none)'}.`;
}

/** What rollback does not undo: the commits `--commit` made for the migration. History is never rewritten. */
function commitLines(commits: { commit: string; branches: string[] }[]): string[] {
  if (commits.length === 0) return [];
  const named = commits.map((c) => `${c.commit}${c.branches.length ? ` (on ${c.branches.map(showLine).join(', ')})` : ''}`).join(', ');
  return [
    `The migration was committed by --commit as ${named}. Rollback restores the files in the work tree only: it does not rewrite git history, so the commit and its branch stay, and the restored files show as uncommitted changes. Commit them to undo the migration in history, or run git revert ${commits[0]!.commit} instead of this rollback.`,
  ];
}

export async function rollbackStep(ctx: FlowContext): Promise<StepResult> {
  const g = await runGated<{ migration: Migration; committed: string[]; earlier: EarlierMigration | null }>(
    ctx,
    'rollback',
    async () => {
      const state = await readState(ctx.root);
      const own = [...state.migrations].reverse().find((m) => m.rolledBackAt === null);
      // None of this clone's own: one an earlier version recorded on this machine is offered (engine/earlier-migration.ts).
      const earlier = own ? null : await earlierMigrationChecked(ctx.root, state);
      const migration = own ?? earlier?.migration;
      if (!migration) throw new PreconditionError('There is no migration to roll back.');
      // Checked before the person is asked: a damaged backup or manifest is refused, naming it.
      const manifest = earlier ? earlier.manifest : await manifestOfRecorded(ctx.root, migration.id, state);
      const edited = await editedSinceMigration(ctx.root, manifest);
      const deleted = await missing(ctx.root, edited);
      const message = rollbackMessage(
        manifest,
        migration.backupDir,
        edited.filter((p) => !deleted.includes(p)),
      );
      const committed = commitLines(await commitsOfMigration(ctx.root, migration.id));
      return {
        planHash: migration.approvedHash ?? migration.planHash,
        message: [
          ...(earlier ? [earlierLine(earlier)] : []),
          message,
          ...(deleted.length ? [deletedLine(deleted)] : []),
          ...committed,
        ].join('\n'),
        prepared: { migration, committed, earlier },
      };
    },
    async (_content, { migration, committed, earlier }) => {
      if (earlier) await takeUpEarlierMigration(ctx.root, earlier);
      const state = await readState(ctx.root);
      const still = state.migrations.find((m) => m.id === migration.id && m.rolledBackAt === null);
      if (!still) throw new PreconditionError('That migration was already rolled back.');
      const done = await performRollback(ctx.root, still, (n, total, p) => ctx.report?.progress(n, total, `Restoring ${p}`));
      const parts = [`Rolled back migration ${migration.id}.`];
      if (done.restored.length) parts.push(`Restored: ${showPaths(done.restored)}.`);
      if (done.removed.length) parts.push(`Removed: ${showPaths(done.removed)}.`);
      if (done.savedEdits.length) parts.push(`Edits made after the migration were saved in ${migration.backupDir}edited-after-migration/.`);
      if (done.deletedAfterMigration.length) parts.push(deletedLine(done.deletedAfterMigration));
      parts.push(...committed);
      return {
        outcome: 'rolled_back',
        detail: parts.join(' '),
        settle: () => settleOperation(ctx.root),
        fields: { migrationId: migration.id, ...done },
      };
    },
  );
  return fromGate(g);
}

/** What the person is told first about a migration an earlier version recorded. */
function earlierLine({ earlier, migration }: EarlierMigration): string {
  return `Migration ${migration.id} was recorded by copilot-onboard ${earlier.version}, an earlier version, on this machine (${earlier.file}). Its backup was checked byte for byte against its manifest and the recorded migration. With your yes, this version takes the migration up as its own and rolls it back.`;
}

function deletedLine(paths: string[]): string {
  return `${paths.length > 1 ? 'These files were' : 'This file was'} deleted after the migration, so there is nothing of yours to save: ${showPaths(paths)}.`;
}

/** The repository files among `paths` that do not exist now. */
async function missing(root: string, paths: string[]): Promise<string[]> {
  const repo = new RepoPaths(root);
  const gone: string[] = [];
  for (const p of paths) if (!(await fs.pathExists(await repo.safeAbs(p)))) gone.push(p);
  return gone;
}

/** Backup folder names are ISO timestamps like trace names; a clash moves on by a millisecond. */
async function freshMigrationId(root: string): Promise<string> {
  let at = Date.now();
  for (;;) {
    const id = fileStamp(new Date(at).toISOString());
    if (!(await entryStat(root, backupRel(id)))) return id;
    at++;
  }
}
