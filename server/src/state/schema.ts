import { z } from 'zod';
import { ELICITATION_OUTCOMES } from '../common/outcomes.js';
import { PlanChoices, PlanContent } from '../model/plan.js';
import { ModelOpinion, Verdict } from '../model/opinion.js';
import { Sha256 } from '../model/source.js';
import { ChainHead } from './chain-head-schema.js';

/**
 * Every file copilot-onboard writes under `.copilot-state/`, as zod schemas. TypeScript types are
 * inferred from them and the JSON Schemas in `.copilot-state/schemas/` are generated from them.
 */

export { Sha256 } from '../model/source.js';
export { PlanChoices } from '../model/plan.js';
export { ChainHead };
/** The seal of a decision-state file to the clone that wrote it (state/binding.ts): `hmac-sha256:` and 64 hex digits. */
export const Binding = z.string().regex(/^hmac-sha256:[0-9a-f]{64}$/);
/**
 * The copilot-onboard version that wrote a state file or trace (`0.2.0`). Absent in files written
 * before 0.2.0: those are 0.1.0's, whose state carried no binding at first (docs/state.md, "Upgrading").
 */
export const WrittenBy = z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/);

/** The plan's whole diff as a file (state/plan-diff.ts): what a form pointed the person to. */
export const DiffPointer = z.object({
  path: z.string(),
  planHash: Sha256,
  sha256: Sha256,
  /** Characters of the whole diff, and of what the form showed of it. */
  chars: z.number().int().min(0),
  shownChars: z.number().int().min(0),
  whole: z.boolean(),
});
export type DiffPointer = z.infer<typeof DiffPointer>;
export const ClientInfo = z.object({ name: z.string(), version: z.string() });
export type ClientInfo = z.infer<typeof ClientInfo>;

/**
 * The protocol an exchange went over: `legacy` is the 2025 era (the revision negotiated once by a
 * connection's initialize), `modern` the 2026-07-28 era (the revision every request names).
 */
export const TraceProtocol = z.object({ era: z.enum(['legacy', 'modern']), revision: z.string().nullable() });
export type TraceProtocol = z.infer<typeof TraceProtocol>;

/** The plan file: the planner's plan (model/plan.ts) without its chosen hash, dated. */
export const PlanFile = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  planHash: Sha256,
  ...PlanContent.shape,
  /** What the client's model thought of the second-look pairs (model/opinion.ts): beside the plan, outside its hash; shown, never acted on. */
  modelOpinion: ModelOpinion.optional(),
  writtenBy: WrittenBy.optional(),
  binding: Binding.optional(),
});
export type PlanFile = z.infer<typeof PlanFile>;

export const Step = z.enum(['new', 'proposed', 'approved', 'migrated', 'rolled_back']);
export type Step = z.infer<typeof Step>;

export const Approval = z.object({
  planHash: Sha256,
  approvedAt: z.string(),
  client: ClientInfo.nullable(),
  comment: z.string().nullable(),
  /** What the person chose in the approve form for legacy files and contradictions. */
  choices: PlanChoices.default({ legacy: {}, conflicts: {} }),
  /** The hash of the plan rebuilt with those choices, as the approve form's second round showed it (planHash when no choice changed anything). */
  approvedHash: Sha256.optional(),
  /** How many file operations that plan holds: what migrate will run. */
  approvedOperations: z.number().int().optional(),
  usedAt: z.string().nullable(),
});

export const MigratedFile = z.object({
  path: z.string(),
  existed: z.boolean(),
  beforeSha256: Sha256.nullable(),
  afterSha256: Sha256.nullable(),
  /** The file was a symlink with this target (its content, seen through the link, is beforeSha256); rollback makes the link again. */
  linkTarget: z.string().optional(),
});

export const Migration = z.object({
  id: z.string(),
  planHash: Sha256,
  /** The hash of the plan as approved with the person's choices: the name the person was shown (planHash when no choice changed anything). */
  approvedHash: Sha256.optional(),
  migratedAt: z.string(),
  backupDir: z.string(),
  files: z.array(MigratedFile),
  rolledBackAt: z.string().nullable(),
});
export type Migration = z.infer<typeof Migration>;

/** What a start did about a migrate or rollback a killed process left half done (engine/recovery.ts). */
export const Recovery = z.object({
  operation: z.enum(['migrate', 'rollback']),
  migrationId: z.string(),
  /** Which side the repository is on now. */
  result: z.enum(['before-migration', 'after-migration']),
  detail: z.string(),
  /** Every repository file the recovery put back from the backup, and every file it removed. */
  restored: z.array(z.string()).optional(),
  removed: z.array(z.string()).optional(),
});
export type Recovery = z.infer<typeof Recovery>;

export const OnboardingState = z.object({
  version: z.literal(1),
  step: Step,
  updatedAt: z.string(),
  plan: z.object({ planHash: Sha256, createdAt: z.string(), operations: z.number().int() }).nullable(),
  approval: Approval.nullable(),
  migrations: z.array(Migration),
  /** Changes the person asked for: an approve answered no, with a comment. Shown by the next propose. */
  feedback: z.object({ planHash: Sha256, comment: z.string(), at: z.string(), client: ClientInfo.nullable() }).nullable().optional(),
  /** The last time a start found an interrupted migrate or rollback, and what it did. */
  lastRecovery: Recovery.extend({ at: z.string() }).optional(),
  writtenBy: WrittenBy.optional(),
  binding: Binding.optional(),
});
export type OnboardingState = z.infer<typeof OnboardingState>;

export const BackupManifest = z.object({
  version: z.literal(1),
  id: z.string(),
  planHash: Sha256,
  createdAt: z.string(),
  files: z.array(
    MigratedFile.extend({
      /** sha256 of the original bytes (the contract's name for beforeSha256), or null when the file did not exist. */
      sha256: Sha256.nullable(),
      /** Path of the saved original inside the backup folder, or null when the file did not exist. */
      backup: z.string().nullable(),
      /** Permission bits of the original (0o644, 0o755, ...), put back by rollback. Absent in older manifests. */
      mode: z.number().int().min(0).max(0o7777).optional(),
    }),
  ),
  /** Folders the migration created, as repository paths; rollback removes each one left empty. Absent in older manifests. */
  createdDirs: z.array(z.string()).optional(),
  /** Permission bits of every existing folder on the way to a file the migration touches; rollback puts them back (a removed folder is made again with its mode). Absent in older manifests. */
  dirModes: z.record(z.string(), z.number().int().min(0).max(0o7777)).optional(),
  writtenBy: WrittenBy.optional(),
  binding: Binding.optional(),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

export const GatedStep = z.enum(['approve', 'migrate', 'rollback']);
export type GatedStep = z.infer<typeof GatedStep>;

export const ElicitationOutcome = z.enum([
  'acknowledged',
  /** A `prune` trace: the retention policy (or `traces prune`) removed old read-only traces and backups. */
  'pruned',
  /** Approve's first round was answered: the choices are made, and the second round shows the plan they give. */
  'chosen',
  /** In approve's second round the person asked to go back and choose again. */
  'choose_again',
  /** A gated step's own outcome, or a refusal: from the one outcome table (common/outcomes.ts). */
  ...ELICITATION_OUTCOMES,
]);

/**
 * Chain fields: the trace's place in the sequence of all traces, and the sha256 of the one before.
 * `chainBreak` is set on a trace written when the chain was found broken (its head missing, or the
 * newest trace it names missing or edited): the chain goes on, and the break stays reported by
 * `traces verify` until a person acknowledges it.
 */
const Chain = {
  seq: z.number().int().min(1),
  prev: Sha256.nullable(),
  chainBreak: z.object({ problems: z.array(z.string()).min(1) }).optional(),
};

/** What a trace does: a gated step, or `acknowledge` (a person acknowledging a break in the chain, from the command line). */
export const TraceAction = z.enum(['approve', 'migrate', 'rollback', 'acknowledge', 'prune']);

export const ElicitationTrace = z.object({
  ...Chain,
  timestamp: z.string(),
  action: TraceAction,
  message: z.string(),
  schema: z.record(z.string(), z.unknown()),
  response: z.object({ action: z.string(), content: z.unknown().optional() }).nullable(),
  outcome: ElicitationOutcome,
  duration_ms: z.number().min(0),
  planHash: Sha256.nullable(),
  /** The client's self-reported name and version, as such: never a basis for a decision. */
  client: ClientInfo.nullable(),
  /** The protocol era and revision of the exchange (absent in traces written before 2026-11-26, and outside MCP). */
  protocol: TraceProtocol.optional(),
  /** Which round of the step's questions this was (approve asks two), from 1; absent when nothing was asked. */
  round: z.number().int().min(1).optional(),
  /** What was done after the answer, for a reviewer: files written, the backup folder, or why nothing. */
  detail: z.string().optional(),
  /** The file of the plan's whole diff the person was pointed to, and how much of it the form itself showed (absent before 0.2.0). */
  diffFile: DiffPointer.optional(),
  /** The copilot-onboard version that wrote this trace (absent before 0.2.0). */
  writtenBy: WrittenBy.optional(),
  /** Set on the trace a start writes when it finished or undid an interrupted migrate or rollback. */
  recovery: Recovery.pick({ migrationId: true, result: true, restored: true, removed: true }).optional(),
  /** Only on an `acknowledge` trace: the person's reason, and the problems `traces verify` reported, which it acknowledges. */
  acknowledged: z.object({ reason: z.string().min(1), problems: z.array(z.string()) }).optional(),
  /**
   * Only on a `prune` trace: what the retention policy removed. `traces` are runs of removed traces
   * (seq `from`..`to`, and the sha256 of the last one, which the next trace names as prev), so that
   * `traces verify` still verifies the chain; `backups` the migration ids whose backup folder went.
   */
  pruned: z
    .object({
      reason: z.string().min(1),
      traces: z.array(
        z.object({ from: z.number().int().min(1), to: z.number().int().min(1), lastSha256: Sha256, files: z.number().int().min(1) }),
      ),
      backups: z.array(z.string()),
    })
    .optional(),
});
export type ElicitationTrace = z.infer<typeof ElicitationTrace>;

export const SamplingTrace = z.object({
  ...Chain,
  /** In the read-only chain (state/traces/chains.ts), git-ignored; absent on the sampling traces earlier versions wrote into the gated chain. */
  chain: z.literal('read-only').optional(),
  timestamp: z.string(),
  /** `second-look`: propose put the second-look pairs to the model (narrate/opinion.ts). */
  intent: z.enum(['analyze', 'propose', 'second-look']),
  request: z.object({ messages: z.array(z.unknown()), maxTokens: z.number().int(), systemPrompt: z.string() }),
  response: z.object({ model: z.string(), stopReason: z.string().nullable(), content: z.unknown() }).nullable(),
  outcome: z.enum(['ok', 'unsupported', 'denied', 'timeout', 'error']),
  duration_ms: z.number().min(0),
  fallback: z.boolean(),
  client: ClientInfo.nullable(),
  /** The protocol era and revision of the exchange (absent in traces written before 2026-11-26, and outside MCP). */
  protocol: TraceProtocol.optional(),
  error: z.string().optional(),
  /** second-look: the verdicts that counted (both quotes are the lines) and those dropped, with why. */
  verdicts: z
    .object({
      counted: z.array(z.object({ id: z.string(), verdict: z.string() })),
      dropped: z.array(z.object({ id: z.string(), why: z.string() })),
    })
    .optional(),
  /** The copilot-onboard version that wrote this trace (absent before 0.2.0). */
  writtenBy: WrittenBy.optional(),
});
export type SamplingTrace = z.infer<typeof SamplingTrace>;

/**
 * The write-ahead journal of a migrate or rollback. It exists only while one runs: finding it at
 * start-up means the process died in the middle, and recovery brings the repository to one side.
 */
export const Journal = z.object({
  version: z.literal(1),
  operation: z.enum(['migrate', 'rollback']),
  migrationId: z.string(),
  planHash: z.string(),
  startedAt: z.string(),
  /** migrate: 'backup' while originals are saved (no repository file touched yet), then 'apply'. */
  phase: z.enum(['backup', 'apply', 'restore']),
  pid: z.number().int(),
  files: z.array(
    z.object({
      path: z.string(),
      beforeSha256: z.string().nullable(),
      afterSha256: z.string().nullable(),
      linkTarget: z.string().optional(),
    }),
  ),
  /** rollback: files edited after the migration, whose current bytes were saved before restoring. */
  edited: z.array(z.string()),
  writtenBy: WrittenBy.optional(),
  binding: Binding.optional(),
});
export type Journal = z.infer<typeof Journal>;

// `trace-chain.json`, the chain head (ChainHead): in state/chain-head-schema.ts, re-exported above, which an analyze loads alone.

/** The schemas published as JSON Schema files, by file name. */
export const PUBLISHED_SCHEMAS = {
  'onboarding.schema.json': OnboardingState,
  'plan.schema.json': PlanFile,
  'backup-manifest.schema.json': BackupManifest,
  'elicitation-trace.schema.json': ElicitationTrace,
  'sampling-trace.schema.json': SamplingTrace,
  'journal.schema.json': Journal,
  'trace-chain.schema.json': ChainHead,
} as const;

/**
 * The client's model's answer to propose's second-look question (narrate/opinion-reply.ts), untrusted:
 * here, with the stored files' schemas, because the read-only file compiles zod only when it checks
 * something, and this is checked only when a model answered. The size bounds are the reader's.
 */
export const OpinionAnswer = z.object({ verdicts: z.array(z.unknown()) });
export const OpinionVerdict = z.object({
  id: z.string().max(200),
  verdict: Verdict,
  quoteA: z.string().max(20_000),
  quoteB: z.string().max(20_000),
  reason: z.string().min(1).max(4000),
});
export type OpinionVerdict = z.infer<typeof OpinionVerdict>;
