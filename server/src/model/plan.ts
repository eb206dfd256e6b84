import { z } from 'zod';
import { Pattern } from './analysis.js';
import { Location, Problem } from './problem.js';
import { Sha256, SourceInfo } from './source.js';

/**
 * The migration plan, as zod schemas: the one source of the planner's types (planning/plan.ts), of
 * the stored plan file (state/schema.ts) and of the propose tool's output (mcp/tool-schemas.ts).
 */

export const PlanOperation = z.object({
  op: z.enum(['create', 'update', 'delete']),
  path: z.string(),
  /** New content, or null for a delete. */
  content: z.string().nullable(),
  /** sha256 of the file before (null when it does not exist yet) and after (null when deleted). */
  beforeSha256: Sha256.nullable(),
  afterSha256: Sha256.nullable(),
  diff: z.string(),
  /** Set when the operation replaces a symlink (with this target, as written) by a regular file; beforeSha256 is what the link showed. */
  replacesLink: z.string().optional(),
});
export type PlanOperation = z.infer<typeof PlanOperation>;

/**
 * What happens to a file the person decides about. `replace` turns a linked Copilot file into a
 * regular one; `migrate`: a file left out by default (a vendored skill, a meta-rule, a copy) is
 * migrated after all; `use-this`: a file left out as a copy is migrated instead of the file it is a
 * copy of, which is then left out.
 */
export const LegacyFate = z.enum(['keep', 'remove', 'pointer', 'replace', 'migrate', 'use-this']);
export type LegacyFate = z.infer<typeof LegacyFate>;

/** A legacy file the person decides about in the approve form. */
export const LegacyOption = z.object({
  path: z.string(),
  kind: z.string(),
  /** Where its rules go in Copilot's layout. */
  target: z.string(),
  fates: z.array(LegacyFate),
  /** What keeping it means for Copilot. */
  note: z.string(),
  /** For a linked Copilot file: the link's target, as written. */
  linkTarget: z.string().optional(),
  /**
   * For a file left out as a copy: the file migrated instead, and the differences from it as one unified diff
   * (analysis/repeats/copies.ts); `twin`: that file is a Copilot file, which Copilot reads already.
   */
  copyOf: z.object({ path: z.string(), diff: z.string(), twin: z.literal(true).optional() }).optional(),
});
export type LegacyOption = z.infer<typeof LegacyOption>;

/** A contradiction the person may settle in the approve form; the default keeps all rules and marks them. */
export const ConflictOption = z.object({
  id: z.string(),
  description: z.string(),
  /** `side`: locations on one side agree; choosing one location keeps its whole side. */
  /** `managed`: the line is inside a block a tool manages (model/managed-blocks.ts); no choice drops it. */
  locations: z.array(
    z.object({
      path: z.string(),
      line: z.number().int(),
      text: z.string(),
      side: z.number().int().min(0).optional(),
      managed: z.literal(true).optional(),
    }),
  ),
  /** Only worth a second look (certainty low): the default lets both stand, and no mark is written into a file. */
  secondLook: z.literal(true).optional(),
  /** What the rules are about and what each side says (the problem's own): the marks and a person's words name it by them. */
  topic: z.string(),
  said: z.string(),
  /** Lines that only use a side's tool or value: named with the conflict, never dropped by a choice. */
  mentions: z.array(z.object({ path: z.string(), line: z.number().int(), side: z.number().int().min(0) })).optional(),
});
export type ConflictOption = z.infer<typeof ConflictOption>;

/** Where a nested AGENTS.md's rules apply: the whole repository, or its folder (the AGENTS.md convention). */
export const ScopeFate = z.enum(['repo', 'folder']);
export type ScopeFate = z.infer<typeof ScopeFate>;

/** A nested AGENTS.md whose scope the person may change in approve's first round; the default is the tool's decision. */
export const ScopeOption = z.object({
  path: z.string(),
  /** The folder it sits in, without a trailing slash. */
  folder: z.string(),
  decided: ScopeFate,
  /** Why the tool decided so, in words. */
  reason: z.string(),
});
export type ScopeOption = z.infer<typeof ScopeOption>;

/** Lines written for another assistant: kept as written (the default), rewritten for Copilot, or left out of Copilot's files. */
export const AssistantFate = z.enum(['keep', 'rewrite', 'leave_out']);
export type AssistantFate = z.infer<typeof AssistantFate>;

/** A migrated file's lines written for another assistant (analysis/discovery/other-assistants.ts), and what choosing each fate writes. */
export const AssistantOption = z.object({
  path: z.string(),
  /** Where its rules go. */
  target: z.string(),
  fates: z.array(AssistantFate),
  /** `names`: what the line names; `rewrite`: the line as `rewrite` writes it (null: as written); `leftOut`: lines `leave_out` drops. */
  /** `managed`: inside a block a tool manages: written as it is whatever the person chooses (no rewrite, never left out). */
  lines: z.array(
    z.object({
      line: z.number().int(),
      text: z.string(),
      names: z.string(),
      rewrite: z.string().nullable(),
      managed: z.literal(true).optional(),
    }),
  ),
  /** The lines `leave_out` drops: the lines above, and the body of a section titled for another assistant. */
  leftOut: z.array(z.object({ line: z.number().int(), text: z.string() })),
});
export type AssistantOption = z.infer<typeof AssistantOption>;

/** What the person chose in the approve form for legacy files and contradictions. */
export const PlanChoices = z.object({
  legacy: z.record(z.string(), LegacyFate),
  /** Conflict id → 'keep_all', or 'keep_N' (1-based location whose side stands; the other sides' lines are dropped). */
  conflicts: z.record(z.string(), z.string()),
  /** Nested AGENTS.md path → where its rules apply; absent: the tool's decision. */
  scopes: z.record(z.string(), ScopeFate).optional(),
  /** Path → what becomes of its lines for another assistant; absent: kept as written. */
  assistants: z.record(z.string(), AssistantFate).optional(),
});
export type PlanChoices = z.infer<typeof PlanChoices>;

/**
 * A rule merged away as a repeat: where it was, and where the kept copy is. `repeat`: it repeats what
 * its own file says before it in the same section, written once (issue 40); otherwise it is a copy of
 * what another file says under the same heading.
 */
export const Merged = z.object({
  path: z.string(),
  line: z.number().int(),
  lines: z.number().int(),
  keptAt: Location,
  text: z.string(),
  repeat: z.literal(true).optional(),
});
export type Merged = z.infer<typeof Merged>;

const Span = z.object({ path: z.string(), startLine: z.number().int(), endLine: z.number().int() });

/** Where a run of output lines came from. */
export const Provenance = z.object({ from: Span, to: Span });
export type Provenance = z.infer<typeof Provenance>;

/** A line the person's choices drop (a contradiction's side not chosen, a line left out), and why (absent in plans saved before). */
export const Dropped = z.object({ path: z.string(), line: z.number().int(), text: z.string(), reason: z.string().optional() });

/** What a plan holds besides its hashes: the planner builds it, the plan file stores it. */
export const PlanContent = z.object({
  pattern: Pattern,
  sources: z.array(SourceInfo),
  operations: z.array(PlanOperation),
  problems: z.array(Problem),
  merged: z.array(Merged),
  provenance: z.array(Provenance),
  legacy: z.array(LegacyOption),
  conflicts: z.array(ConflictOption),
  /** Nested AGENTS.md files whose scope may be chosen (absent in plans saved before). */
  scopes: z.array(ScopeOption).default([]),
  /** Migrated files with lines written for another assistant (absent in plans saved before). */
  assistants: z.array(AssistantOption).default([]),
  dropped: z.array(Dropped),
  notes: z.array(z.string()),
});

/**
 * The planner's plan. `chosenHash` is the hash of this plan as built with the person's choices: what
 * approve's second round shows and binds; equal to planHash under the default choices.
 */
export const Plan = z.object({ planHash: Sha256, chosenHash: Sha256, ...PlanContent.shape });
export type Plan = z.infer<typeof Plan>;
