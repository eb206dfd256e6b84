import { z } from 'zod';
import { showExcerpt, showLine, showPath, showPaths } from '../show/untrusted.js';
import type { GatedStep } from '../state/schema.js';
import type { ConflictOption, LegacyFate, LegacyOption } from '../model/plan.js';
import { MAX_CONFLICT_FIELDS } from '../planning/choices.js';

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
  /** The plan's problems: a conflict's title says how certain its contradiction is (issue 12). */
  problems?: { type: string; description: string; certainty?: string }[];
}

const certaintyOf = (plan: ApproveFormInput, description: string): string => {
  const c = plan.problems?.find((p) => p.type === 'contradiction' && p.description === description)?.certainty;
  return c ? ` (certainty ${c})` : '';
};

/** The plan offers choices: approve asks them in a first round of their own. */
export function hasChoices(plan: ApproveFormInput): boolean {
  return plan.legacy.some((l) => l.fates.length > 1) || plan.conflicts.length > 0;
}

/**
 * Approve's second round: the contract's approve form, and, when a first round asked the choices,
 * an optional field to go back and choose again.
 */
export function approveForm(withChoices: boolean): Form {
  if (!withChoices) return FORMS.approve;
  const base = FORMS.approve;
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

/**
 * Approve's first round, when the plan offers choices: only the choices, each optional with a safe
 * default (keep legacy files; keep all contradicting rules and mark them).
 */
export function choicesForm(
  plan: ApproveFormInput,
): Form & { choicesFrom(content: Record<string, unknown>): { legacy: Record<string, LegacyFate>; conflicts: Record<string, string> } } {
  const properties: Record<string, Record<string, unknown>> = {};
  const shape: Record<string, z.ZodType> = {};
  const choosable = plan.legacy.filter((l) => l.fates.length > 1);
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
    shape.legacy_all = z.enum(['keep', 'remove']).optional();
  }
  plan.conflicts.slice(0, MAX_CONFLICT_FIELDS).forEach((c) => {
    const sides = sidesOf(c.locations);
    properties[c.id] = {
      type: 'string',
      title: `Which rule stands? ${showLine(c.description)}${certaintyOf(plan, c.description)}`,
      oneOf: [
        c.secondLook
          ? { const: 'keep_all', title: 'Both stand: they may not conflict (worth a second look; nothing is marked in the file)' }
          : { const: 'keep_all', title: 'Keep all of them and mark the conflict in the file' },
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
  return {
    requestedSchema: { type: 'object', properties, required: [] },
    content: z.object(shape) as unknown as z.ZodType<Record<string, unknown>>,
    confirmations: [],
    choicesFrom(content) {
      const legacy: Record<string, LegacyFate> = {};
      choosable.forEach((l, i) => {
        const v = perFile ? content[`legacy_${i + 1}`] : content.legacy_all;
        if (typeof v === 'string' && (l.fates as string[]).includes(v)) legacy[l.path] = v as LegacyFate;
      });
      const conflicts: Record<string, string> = {};
      for (const c of plan.conflicts) if (typeof content[c.id] === 'string') conflicts[c.id] = content[c.id] as string;
      return { legacy, conflicts };
    },
  };
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

type Located = { path: string; line: number; text: string };

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
