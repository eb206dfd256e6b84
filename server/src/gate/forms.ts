import { z } from 'zod';
import { showExcerpt, showLine, showPath, showPaths } from '../show/untrusted.js';
import type { GatedStep } from '../state/schema.js';
import {
  LegacyFate,
  type AssistantFate,
  type AssistantOption,
  type ConflictOption,
  type LegacyOption,
  type PlanChoices,
  type ScopeFate,
  type ScopeOption,
} from '../model/plan.js';
import type { Problem } from '../model/problem.js';
import { folderGlob } from '../model/folder-glob.js';
import { conflictProblems, MAX_CONFLICT_FIELDS } from '../planning/choices.js';
import { MAX_SCOPE_FIELDS } from '../planning/scopes.js';
import { MAX_ASSISTANT_FIELDS } from '../planning/assistant-lines.js';

/**
 * The contract's elicitation forms. Field names are fixed; optional fields carry a default.
 * `requestedSchema` is what the person's client renders; `content` validates what comes back.
 */
export interface Form {
  requestedSchema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required: string[];
  };
  content: z.ZodType<Record<string, unknown>>;
  /** Required booleans that must all be true for the step to go ahead. */
  confirmations: string[];
}

const MAX_TEXT = 2000;

export const FORMS: Record<GatedStep, Form> = {
  approve: {
    requestedSchema: {
      type: 'object',
      properties: {
        approved: {
          type: 'boolean',
          title: 'Approve this migration plan',
          description: 'Yes approves exactly the plan shown above. Nothing is written until you also confirm the migrate step.',
        },
        comment: {
          type: 'string',
          title: 'Comment (optional)',
          description: 'Recorded with your answer. With no, it is read as the changes you would like: the next propose shows it.',
          maxLength: MAX_TEXT,
          default: '',
        },
      },
      required: ['approved'],
    },
    content: z.object({ approved: z.boolean(), comment: z.string().max(MAX_TEXT).optional() }),
    confirmations: ['approved'],
  },
  migrate: {
    requestedSchema: {
      type: 'object',
      properties: {
        confirmed: {
          type: 'boolean',
          title: 'Apply the approved plan now',
          description: 'Yes backs up every file listed above and then writes the changes.',
        },
        understood_risks: {
          type: 'boolean',
          title: 'I understand these files will change',
          description: 'The originals are kept in the backup folder named above and can be restored with rollback.',
        },
      },
      required: ['confirmed', 'understood_risks'],
    },
    content: z.object({ confirmed: z.boolean(), understood_risks: z.boolean() }),
    confirmations: ['confirmed', 'understood_risks'],
  },
  rollback: {
    requestedSchema: {
      type: 'object',
      properties: {
        confirmed: {
          type: 'boolean',
          title: 'Restore the files from the backup',
          description: 'Yes restores every file listed above byte for byte and removes the files the migration created.',
        },
        reason: {
          type: 'string',
          title: 'Reason (optional)',
          description: 'Why you are rolling back; recorded in the trace.',
          maxLength: MAX_TEXT,
          default: '',
        },
      },
      required: ['confirmed'],
    },
    content: z.object({ confirmed: z.boolean(), reason: z.string().max(MAX_TEXT).optional() }),
    confirmations: ['confirmed'],
  },
};

/** More legacy files than this are decided together, in one field. */
const MAX_FILE_FIELDS = 20;

export { MAX_CONFLICT_FIELDS };

/** Titles and descriptions show paths and rule text through show/untrusted.ts: quoted, escaped, one line. */
const FATE_TITLES: Record<LegacyFate, (path: string, target: string, copyOf?: string) => string> = {
  keep: (p) => `Keep ${showPath(p)} as it is`,
  remove: (p) => `Remove ${showPath(p)} (it is backed up first)`,
  pointer: (p, t) => `Replace ${showPath(p)} with a pointer to ${showPath(t)}`,
  replace: (p) => `Replace the link ${showPath(p)} with a regular file holding all repo-wide rules (the backup keeps the link)`,
  migrate: (p, t, c) =>
    `Migrate ${showPath(p)} after all: its rules go to ${showPath(t)}${c === undefined ? '' : `, beside those of ${showPath(c)}`}`,
  'use-this': (p, t, c) =>
    `Migrate ${showPath(p)} instead of ${showPath(c ?? '')} (${showPath(c ?? '')} is then left out as the copy): its rules go to ${showPath(t)}`,
};

/** The question a file's field asks: where its rules go, or, for a linked Copilot file, what becomes of the link. */
function fileTitle(l: Pick<LegacyOption, 'path' | 'target' | 'fates' | 'linkTarget' | 'copyOf'>): string {
  if (l.linkTarget !== undefined) return `${showPath(l.path)} is a symlink to ${showPath(l.linkTarget)}`;
  if (l.copyOf !== undefined)
    return `${showPath(l.path)} is left out as a copy of ${showPath(l.copyOf.path)}, whose rules are migrated (keeping it as it is)`;
  return l.fates.includes('migrate')
    ? `${showPath(l.path)} is left out of the migration (keeping it as it is)`
    : `${showPath(l.path)}: its rules go to ${showPath(l.target)}`;
}

export interface ApproveFormInput {
  legacy: Pick<LegacyOption, 'path' | 'target' | 'fates' | 'linkTarget' | 'copyOf'>[];
  conflicts: ConflictOption[];
  /** Nested AGENTS.md files whose scope may be chosen (absent: none). */
  scopes?: ScopeOption[];
  /** Migrated files with lines written for another assistant (absent: none). */
  assistants?: AssistantOption[];
  /** The plan's problems: a conflict's title says how certain its contradiction is (issue 12). */
  problems?: Pick<Problem, 'type' | 'description' | 'certainty'>[];
}

/** A conflict's certainty, from its problem in the plan (by the conflict's id, not its words). */
const certaintyOf = (problems: Map<string, Pick<Problem, 'certainty'>>, id: string): string => {
  const c = problems.get(id)?.certainty;
  return c ? ` (certainty ${c})` : '';
};

/** The plan offers choices: approve asks them in a first round of their own. */
export function hasChoices(plan: ApproveFormInput): boolean {
  return (
    plan.legacy.some((l) => l.fates.length > 1) ||
    plan.conflicts.length > 0 ||
    (plan.scopes ?? []).length > 0 ||
    (plan.assistants ?? []).length > 0
  );
}

/**
 * Approve's second round: the contract's approve form, and, when a first round asked the choices,
 * an optional field to go back and choose again.
 */
export function approveForm(withChoices: boolean, approves?: string): Form {
  const base = approves === undefined ? FORMS.approve : approveSaying(approves);
  if (!withChoices) return base;
  return {
    requestedSchema: {
      ...base.requestedSchema,
      properties: {
        ...base.requestedSchema.properties,
        choose_again: {
          type: 'boolean',
          title: 'Go back and change my choices',
          description: 'Yes asks the choices again instead of answering here; nothing is approved.',
          default: false,
        },
      },
    },
    content: z.object({ approved: z.boolean(), comment: z.string().max(MAX_TEXT).optional(), choose_again: z.boolean().optional() }),
    confirmations: base.confirmations,
  };
}

/** The approve form whose yes says what it approves (the diff shown, and where the rest is). */
function approveSaying(approves: string): Form {
  const base = FORMS.approve;
  const approved = { ...base.requestedSchema.properties.approved, description: approves };
  return { ...base, requestedSchema: { ...base.requestedSchema, properties: { ...base.requestedSchema.properties, approved } } };
}

/**
 * Approve's first round, when the plan offers choices: only the choices, each optional with a safe
 * default (keep legacy files; keep all contradicting rules and mark them).
 */
export function choicesForm(plan: ApproveFormInput): Form & { choicesFrom(content: Record<string, unknown>): PlanChoices } {
  const properties: Record<string, Record<string, unknown>> = {};
  const shape: Record<string, z.ZodType> = {};
  const choosable = plan.legacy.filter((l) => l.fates.length > 1);
  const perFile = legacyFields(choosable, properties, shape);
  const problems = conflictProblems(plan.problems ?? []);
  plan.conflicts.slice(0, MAX_CONFLICT_FIELDS).forEach((c) => {
    const sides = sidesOf(c.locations);
    properties[c.id] = {
      type: 'string',
      title: `Which rule stands? ${showLine(c.description)}${certaintyOf(problems, c.id)}`,
      oneOf: [
        c.secondLook
          ? { const: 'keep_all', title: 'Both stand: they may not conflict (worth a second look; nothing is marked in the file)' }
          : {
              const: 'keep_all',
              title: 'Keep all of them and mark the conflict in the file (check, in CI too, then fails on it until you settle it)',
            },
        ...sides.map((side) => ({
          const: `keep_${side.first + 1}`,
          title: sideTitle(
            side.at,
            c.locations.filter((l) => !side.at.includes(l)),
          ),
        })),
      ],
      default: 'keep_all',
    };
    shape[c.id] = z.enum(['keep_all', ...sides.map((side) => `keep_${side.first + 1}`)] as [string, ...string[]]).optional();
  });
  const scopes = (plan.scopes ?? []).slice(0, MAX_SCOPE_FIELDS);
  scopes.forEach((o, i) => {
    properties[`scope_${i + 1}`] = scopeField(o);
    shape[`scope_${i + 1}`] = z.enum(['repo', 'folder']).optional();
  });
  const assistants = (plan.assistants ?? []).slice(0, MAX_ASSISTANT_FIELDS);
  assistants.forEach((o, i) => {
    properties[`assistant_${i + 1}`] = assistantField(o);
    shape[`assistant_${i + 1}`] = z.enum(o.fates as [string, ...string[]]).optional();
  });
  return {
    requestedSchema: { type: 'object', properties, required: [] },
    content: z.object(shape) as unknown as z.ZodType<Record<string, unknown>>,
    confirmations: [],
    choicesFrom(content) {
      const legacy: PlanChoices['legacy'] = {};
      choosable.forEach((l, i) => {
        const v = perFile ? content[`legacy_${i + 1}`] : content.legacy_all;
        if (typeof v === 'string' && (l.fates as string[]).includes(v)) legacy[l.path] = v as LegacyFate;
      });
      const conflicts: PlanChoices['conflicts'] = {};
      for (const c of plan.conflicts) if (typeof content[c.id] === 'string') conflicts[c.id] = content[c.id] as string;
      const picked: PlanChoices = { legacy, conflicts };
      const scoped: Record<string, ScopeFate> = {};
      scopes.forEach((o, i) => {
        const v = content[`scope_${i + 1}`];
        if ((v === 'repo' || v === 'folder') && v !== o.decided) scoped[o.path] = v;
      });
      const fated: Record<string, AssistantFate> = {};
      assistants.forEach((o, i) => {
        const v = content[`assistant_${i + 1}`];
        if (typeof v === 'string' && (o.fates as string[]).includes(v)) fated[o.path] = v as AssistantFate;
      });
      if (Object.keys(scoped).length > 0) picked.scopes = scoped;
      if (Object.keys(fated).length > 0) picked.assistants = fated;
      return picked;
    },
  };
}

/** The legacy files' fields: one per file, or one for all past MAX_FILE_FIELDS; whether they are per file. */
function legacyFields(
  choosable: ApproveFormInput['legacy'],
  properties: Record<string, Record<string, unknown>>,
  shape: Record<string, z.ZodType>,
): boolean {
  const perFile = choosable.length <= MAX_FILE_FIELDS;
  if (perFile) {
    choosable.forEach((l, i) => {
      properties[`legacy_${i + 1}`] = {
        type: 'string',
        title: fileTitle(l),
        oneOf: l.fates.map((f) => ({ const: f, title: FATE_TITLES[f](l.path, l.target, l.copyOf?.path) })),
        default: 'keep',
      };
      shape[`legacy_${i + 1}`] = z.enum(l.fates as [string, ...string[]]).optional();
    });
  } else if (choosable.length > 0) {
    properties.legacy_all = {
      type: 'string',
      title: `All ${choosable.length} legacy instruction files (their rules move into Copilot's files)`,
      oneOf: [
        { const: 'keep', title: 'Keep them all as they are' },
        { const: 'remove', title: 'Remove them all (each is backed up first)' },
      ],
      default: 'keep',
    };
    shape.legacy_all = LegacyFate.extract(['keep', 'remove']).optional();
  }
  return perFile;
}

/** Where a nested AGENTS.md's rules apply: the tool's decision is the default, the other is offered. */
function scopeField(o: ScopeOption): Record<string, unknown> {
  // The glob as written (model/folder-glob.ts escapes the folder's glob characters): the form says what applyTo will hold.
  const glob = folderGlob(o.folder) ?? `${o.folder}/**`;
  return {
    type: 'string',
    title: `Where do the rules of ${showPath(o.path)} apply? (the tool: ${o.decided === 'repo' ? 'the whole repository' : `${showPath(glob)} only`}, because ${showLine(o.reason)})`,
    oneOf: [
      { const: 'repo', title: `The whole repository: its rules go to .github/copilot-instructions.md` },
      {
        const: 'folder',
        title: `Only files under ${showPath(`${o.folder}/`)}: its rules go to a scoped file with applyTo ${showPath(glob)}`,
      },
    ],
    default: o.decided,
  };
}

const ASSISTANT_FATE_TITLES: Record<AssistantFate, (o: AssistantOption) => string> = {
  keep: () => 'Keep them as written (Copilot reads them as its own)',
  rewrite: (o) =>
    `Rewrite ${o.lines.filter((l) => l.rewrite !== null).length === 1 ? 'the line' : 'the lines'} the tool can for Copilot (the next form's diff shows how); keep the others as written`,
  leave_out: (o) =>
    `Leave ${o.leftOut.length === 1 ? 'that line' : `those ${o.leftOut.length} lines`} out of Copilot's files (${showPath(o.path)} itself keeps them)`,
};

/** What becomes of a file's lines written for another assistant; the lines are listed in full in the message. */
function assistantField(o: AssistantOption): Record<string, unknown> {
  const at = o.lines.map((l) => `${showPath(o.path)}:${l.line}`);
  const named = at.length > 3 ? `${at.slice(0, 3).join(', ')} and ${at.length - 3} more` : at.join(', ');
  return {
    type: 'string',
    title: `Lines of ${showPath(o.path)} written for another assistant (${named}): what goes to ${showPath(o.target)}?`,
    oneOf: o.fates.map((f) => ({ const: f, title: ASSISTANT_FATE_TITLES[f](o) })),
    default: 'keep',
  };
}

/**
 * What round one says about the nested AGENTS.md files and the lines for another assistant: the
 * tool's decision and reason for each file; each line in full with file:line, its rewrite beside it.
 */
export function scopeAndAssistantLines(plan: Pick<ApproveFormInput, 'scopes' | 'assistants'>): string[] {
  const lines: string[] = [];
  const scopes = plan.scopes ?? [];
  if (scopes.length > 0) {
    lines.push('', "Nested AGENTS.md files (the default is the tool's decision):");
    for (const o of scopes.slice(0, MAX_SCOPE_FIELDS))
      lines.push(
        `- ${showPath(o.path)}: ${o.decided === 'repo' ? 'the whole repository' : `${showPath(folderGlob(o.folder) ?? `${o.folder}/**`)} only`}, because ${showLine(o.reason)}.`,
      );
    if (scopes.length > MAX_SCOPE_FIELDS)
      lines.push(`- ${scopes.length - MAX_SCOPE_FIELDS} more keep the tool's decision (the plan's notes say which and why).`);
  }
  const assistants = plan.assistants ?? [];
  if (assistants.length > 0) {
    lines.push('', 'Lines written for another assistant (the default keeps them as written):');
    for (const o of assistants.slice(0, MAX_ASSISTANT_FIELDS)) {
      lines.push(`- ${showPath(o.path)}, its rules going to ${showPath(o.target)}:`);
      for (const l of o.lines) {
        lines.push(`  ${showPath(o.path)}:${l.line}: ${showLine(l.text)} (${showLine(l.names)})`);
        if (l.rewrite !== null) lines.push(`    rewritten for Copilot: ${showLine(l.rewrite)}`);
      }
      const extra = o.leftOut.filter((x) => !o.lines.some((l) => l.line === x.line));
      if (extra.length > 0)
        lines.push(
          `  Leaving them out also leaves out the ${extra.length} line(s) of the sections titled for another assistant: ${extra.map((x) => `${showPath(o.path)}:${x.line}`).join(', ')}.`,
        );
    }
    if (assistants.length > MAX_ASSISTANT_FIELDS)
      lines.push(`- ${assistants.length - MAX_ASSISTANT_FIELDS} more files keep theirs as written (the plan's notes list them).`);
  }
  return lines;
}

/** The sides of a conflict (locations that agree), each named by its first location's index. */
function sidesOf<L extends Located & { side?: number }>(locations: L[]) {
  const sides = new Map<number, { first: number; at: L[] }>();
  locations.forEach((l, j) => {
    const key = l.side ?? j;
    const side = sides.get(key);
    if (side) side.at.push(l);
    else sides.set(key, { first: j, at: [l] });
  });
  return [...sides.values()];
}

/**
 * What choosing a side does, as planning/choices.ts (conflictEffects) does it: the side's lines stay, every
 * other side's lines are dropped, each quoted in full with its place.
 * `Keep only "- Use pnpm." (CLAUDE.md:5); drop "- Use npm." (AGENTS.md:3)`
 */
function sideTitle(at: Located[], dropped: Located[]): string {
  const where = (ls: Located[]) => ls.map((l) => `${showPath(l.path)}:${l.line}`);
  const drop = dropped.map((l) => `"${showLine(l.text.trim())}" (${showPath(l.path)}:${l.line})`).join(', ');
  return `Keep only "${showExcerpt(at[0]!.text.trim(), 60)}" (${where(at).join(', ')}); drop ${drop}`;
}

type Located = Pick<ConflictOption['locations'][number], 'path' | 'line' | 'text'>;

/** The migrate form; when files the plan touches have uncommitted changes, it asks whether to overwrite them (default no). */
export function migrateForm(uncommitted: string[]): Form {
  if (uncommitted.length === 0) return FORMS.migrate;
  const base = FORMS.migrate;
  return {
    requestedSchema: {
      ...base.requestedSchema,
      properties: {
        ...base.requestedSchema.properties,
        allow_uncommitted: {
          type: 'boolean',
          title: `Overwrite uncommitted changes in ${showPaths(uncommitted)}`,
          description: 'They are backed up first, but git cannot give them back. Leave this off to commit or stash them first.',
          default: false,
        },
      },
    },
    content: z.object({ confirmed: z.boolean(), understood_risks: z.boolean(), allow_uncommitted: z.boolean().optional() }),
    confirmations: base.confirmations,
  };
}

/** The diff between two copies is cut after this many lines in the approve form's message (the plan's notes hold more). */
export const MAX_COPY_DIFF_LINES = 60;
/** …and after this many characters. */
export const MAX_COPY_DIFF_CHARS = 8000;

/**
 * What round one says about a file left out as a copy: which file is migrated instead, what each
 * choice does, and the differences between the two as one diff (cut at MAX_COPY_DIFF_LINES lines).
 * The diff is file content: shown as it is, never rewritten.
 */
export function copyChoiceLines(l: Pick<LegacyOption, 'path' | 'target' | 'fates' | 'copyOf'>): string[] {
  if (l.copyOf === undefined) return [];
  const [p, c, t] = [showPath(l.path), showPath(l.copyOf.path), showPath(l.target)];
  const lines = [
    `- ${p} is left out as a copy of ${c}: the rules of ${c} go to ${t}. Keep (the default): ${p} stays as it is and is not migrated. Migrate: its rules go to ${t} as well, beside those of ${c}.${
      l.fates.includes('use-this') ? ` Use this: ${p} is migrated instead, and ${c} is left out as the copy.` : ''
    }`,
  ];
  if (l.copyOf.diff === '') return [...lines, `  ${p} holds the same rules as ${c}: nothing of either is lost.`];
  const diff = l.copyOf.diff.split('\n');
  let cut = diff.slice(0, MAX_COPY_DIFF_LINES);
  let more = diff.length - cut.length;
  // A few very long lines must not fill the message either.
  while (cut.length > 1 && cut.join('\n').length > MAX_COPY_DIFF_CHARS) {
    cut = cut.slice(0, -1);
    more++;
  }
  if (more > 0) cut = [...cut, `… ${more} more lines of differences in the plan's notes (.copilot-state/plan.json)`];
  return [...lines, `  The differences from ${c} (migrated by default, lines marked -) to ${p} (lines marked +), as one diff:`, ...cut];
}
