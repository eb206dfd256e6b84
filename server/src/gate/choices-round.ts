import { conflictWords, opinionWords, secondLookWords } from '../call/words.js';
import { describeOperations } from '../show/diff-lines.js';
import { showExcerpt, showLine, showPath } from '../show/untrusted.js';
import type {
  AssistantFate,
  AssistantOption,
  ConflictOption,
  LegacyFate,
  LegacyOption,
  PlanChoices,
  ScopeFate,
  ScopeOption,
} from '../model/plan.js';
import type { Problem } from '../model/problem.js';
import { folderGlob } from '../model/folder-glob.js';
import type { PlanFile } from '../state/schema.js';
import { conflictProblems, MAX_CONFLICT_FIELDS } from '../planning/choices.js';
import { MAX_SCOPE_FIELDS } from '../planning/scopes.js';
import { MAX_ASSISTANT_FIELDS } from '../planning/assistant-lines.js';
import { field, formOf, type Field, type Form } from './fields.js';

/**
 * Approve's first round, when the plan offers choices: the form that asks them and the message
 * that says what each does. Round two, the approval itself, is the contract's form
 * (confirm-forms.ts) with the plan those choices give.
 */

/** More legacy files than this are decided together, in one field. */
const MAX_FILE_FIELDS = 20;

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
  if (l.copyOf?.twin)
    return `${showPath(l.path)} is left out as a twin of ${showPath(l.copyOf.path)}, which Copilot reads already (keeping it as it is)`;
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
 * Approve's first round, when the plan offers choices: only the choices, each optional with a safe
 * default (keep legacy files; keep all contradicting rules and mark them).
 */
export function choicesForm(plan: ApproveFormInput): Form & { choicesFrom(content: Record<string, unknown>): PlanChoices } {
  const choosable = plan.legacy.filter((l) => l.fates.length > 1);
  const perFile = choosable.length <= MAX_FILE_FIELDS;
  const problems = conflictProblems(plan.problems ?? []);
  const scopes = (plan.scopes ?? []).slice(0, MAX_SCOPE_FIELDS);
  const assistants = (plan.assistants ?? []).slice(0, MAX_ASSISTANT_FIELDS);
  const form = formOf([
    ...legacyFields(choosable, perFile),
    ...plan.conflicts.slice(0, MAX_CONFLICT_FIELDS).map((c) => conflictField(c, problems)),
    ...scopes.map((o, i) => scopeField(`scope_${i + 1}`, o)),
    ...assistants.map((o, i) => assistantField(`assistant_${i + 1}`, o)),
  ]);
  return {
    ...form,
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

/** The legacy files' fields: one per file, or one for all past MAX_FILE_FIELDS. */
function legacyFields(choosable: ApproveFormInput['legacy'], perFile: boolean): Field[] {
  if (perFile)
    return choosable.map((l, i) =>
      field.choice(
        `legacy_${i + 1}`,
        fileTitle(l),
        l.fates.map((f) => ({ const: f, title: FATE_TITLES[f](l.path, l.target, l.copyOf?.path) })),
        'keep',
      ),
    );
  if (choosable.length === 0) return [];
  return [
    field.choice(
      'legacy_all',
      `All ${choosable.length} legacy instruction files (their rules move into Copilot's files)`,
      [
        { const: 'keep', title: 'Keep them all as they are' },
        { const: 'remove', title: 'Remove them all (each is backed up first)' },
      ],
      'keep',
    ),
  ];
}

/** Which side of a contradiction stands: all of them by default, or one side, the others' lines dropped. */
function conflictField(c: ConflictOption, problems: Map<string, Pick<Problem, 'certainty'>>): Field {
  const sides = sidesOf(c.locations);
  return field.choice(
    c.id,
    `Which rule stands? ${showLine(c.description)}${certaintyOf(problems, c.id)}`,
    [
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
    'keep_all',
  );
}

/** Where a nested AGENTS.md's rules apply: the tool's decision is the default, the other is offered. */
function scopeField(name: string, o: ScopeOption): Field {
  // The glob as written (model/folder-glob.ts escapes the folder's glob characters): the form says what applyTo will hold.
  const glob = folderGlob(o.folder) ?? `${o.folder}/**`;
  return field.choice(
    name,
    `Where do the rules of ${showPath(o.path)} apply? (the tool: ${o.decided === 'repo' ? 'the whole repository' : `${showPath(glob)} only`}, because ${showLine(o.reason)})`,
    [
      { const: 'repo', title: `The whole repository: its rules go to .github/copilot-instructions.md` },
      {
        const: 'folder',
        title: `Only files under ${showPath(`${o.folder}/`)}: its rules go to a scoped file with applyTo ${showPath(glob)}`,
      },
    ],
    o.decided,
  );
}

const ASSISTANT_FATE_TITLES: Record<AssistantFate, (o: AssistantOption) => string> = {
  keep: () => 'Keep them as written (Copilot reads them as its own)',
  rewrite: (o) =>
    `Rewrite ${o.lines.filter((l) => l.rewrite !== null).length === 1 ? 'the line' : 'the lines'} the tool can for Copilot (the next form's diff shows how); keep the others as written`,
  leave_out: (o) =>
    `Leave ${o.leftOut.length === 1 ? 'that line' : `those ${o.leftOut.length} lines`} out of Copilot's files (${showPath(o.path)} itself keeps them)`,
};

/** What becomes of a file's lines written for another assistant; the lines are listed in full in the message. */
function assistantField(name: string, o: AssistantOption): Field {
  const at = o.lines.map((l) => `${showPath(o.path)}:${l.line}`);
  const named = at.length > 3 ? `${at.slice(0, 3).join(', ')} and ${at.length - 3} more` : at.join(', ');
  return field.choice(
    name,
    `Lines of ${showPath(o.path)} written for or about another assistant (${named}): what goes to ${showPath(o.target)}?`,
    o.fates.map((f) => ({ const: f, title: ASSISTANT_FATE_TITLES[f](o) })),
    'keep',
  );
}

/**
 * What round one says about the nested AGENTS.md files and the lines for another assistant: the
 * tool's decision and reason for each file; each line in full with file:line, its rewrite beside it.
 */
function scopeAndAssistantLines(plan: Pick<ApproveFormInput, 'scopes' | 'assistants'>): string[] {
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
    lines.push(
      '',
      'Lines written for another assistant, about an assistant itself, or otherwise not a rule (the default keeps them as written):',
    );
    for (const o of assistants.slice(0, MAX_ASSISTANT_FIELDS)) {
      lines.push(`- ${showPath(o.path)}, its rules going to ${showPath(o.target)}:`);
      for (const l of o.lines) {
        const stays = l.managed ? '; inside a block a tool manages, it stays as written whatever you choose' : '';
        lines.push(`  ${showPath(o.path)}:${l.line}: ${showLine(l.text)} (${showLine(l.names)}${stays})`);
        if (l.rewrite !== null) lines.push(`    rewritten for Copilot: ${showLine(l.rewrite)}`);
      }
      const extra = o.leftOut.filter((x) => !o.lines.some((l) => l.line === x.line));
      if (extra.length > 0)
        lines.push(
          `  Leaving them out also leaves out the ${extra.length} line(s) of the sections named above: ${showPath(o.path)} lines ${lineRanges(extra.map((x) => x.line))}.`,
        );
    }
    if (assistants.length > MAX_ASSISTANT_FIELDS)
      lines.push(`- ${assistants.length - MAX_ASSISTANT_FIELDS} more files keep theirs as written (the plan's notes list them).`);
  }
  return lines;
}

/** Line numbers in order as runs: `18-38, 40, 42-53` (a section of a whole file is one short list, not 180 places). */
function lineRanges(lines: number[]): string {
  const runs: [number, number][] = [];
  for (const l of lines) {
    const last = runs.at(-1);
    if (last && l === last[1] + 1) last[1] = l;
    else runs.push([l, l]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');
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
function sideTitle(at: Located[], others: Located[]): string {
  const where = (ls: Located[]) => ls.map((l) => `${showPath(l.path)}:${l.line}`);
  const quoted = (ls: Located[]) => ls.map((l) => `"${showLine(l.text.trim())}" (${showPath(l.path)}:${l.line})`).join(', ');
  const dropped = others.filter((l) => !l.managed);
  const managed = others.filter((l) => l.managed);
  // A line inside a managed block is never dropped (planning/choices.ts): its tool would write it back.
  const stays = managed.length > 0 ? `${quoted(managed)} ${managed.length === 1 ? 'stays' : 'stay'}, inside a block a tool manages` : '';
  const rest = dropped.length > 0 ? `; drop ${quoted(dropped)}${stays ? `; ${stays}` : ''}` : `; drops nothing: ${stays}`;
  return `Keep only "${showExcerpt(at[0]!.text.trim(), 60)}" (${where(at).join(', ')})${rest}`;
}

type Located = Pick<ConflictOption['locations'][number], 'path' | 'line' | 'text' | 'managed'>;

/** The diff between two copies is cut after this many lines in the approve form's message (the plan's notes hold more). */
export const MAX_COPY_DIFF_LINES = 60;
/** …and after this many characters. */
export const MAX_COPY_DIFF_CHARS = 8000;

/** What round one says about a twin of a Copilot file: what keeping it, migrating it and the pointer do. */
function twinLines(l: Pick<LegacyOption, 'fates'>, p: string, c: string): string[] {
  return [
    `- ${p} already holds the rules of ${c} (a twin): Copilot reads them there, so they are not appended again. Keep (the default): ${p} stays as it is. Migrate: its rules are appended to ${c} after all.${
      l.fates.includes('pointer') ? ` Pointer: ${p} is replaced by a line importing ${c} (the backup keeps it).` : ''
    }`,
  ];
}

/**
 * What round one says about a file left out as a copy: which file is migrated instead, what each
 * choice does, and the differences between the two as one diff (cut at MAX_COPY_DIFF_LINES lines).
 * The diff is file content: shown as it is, never rewritten.
 */
export function copyChoiceLines(l: Pick<LegacyOption, 'path' | 'target' | 'fates' | 'copyOf'>): string[] {
  if (l.copyOf === undefined) return [];
  const [p, c, t] = [showPath(l.path), showPath(l.copyOf.path), showPath(l.target)];
  const lines = l.copyOf.twin
    ? twinLines(l, p, c)
    : [
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
  const from = l.copyOf.twin ? 'which Copilot reads' : 'migrated by default';
  return [...lines, `  The differences from ${c} (${from}, lines marked -) to ${p} (lines marked +), as one diff:`, ...cut];
}

/**
 * Approve's first round: the choices the plan offers, what each does and which way the default
 * goes. The next form shows the plan those choices give, with its diff, for approval.
 */
export function choicesMessage(plan: PlanFile): string {
  const lines = [
    `copilot-onboard asks for your choices for migration plan ${plan.planHash.slice(0, 12)} (step 1 of 2).`,
    'Nothing is approved here: the next form shows the exact changes your choices lead to, and asks for your approval.',
    '',
    'With the default choices, the migrate step would:',
    ...(plan.operations.length > 0 ? describeOperations(plan.operations) : ['- change no file']),
  ];
  const choosable = plan.legacy.filter((l) => l.fates.length > 1);
  if (choosable.length > 0) {
    lines.push('', 'Legacy files (the default keeps each one):');
    for (const l of choosable) {
      if (l.linkTarget !== undefined) {
        lines.push(
          `- ${showPath(l.path)} is a symlink to ${showPath(l.linkTarget)}. Keep: the link stays, and the plan above is what happens. Replace: the link itself becomes a regular file with all repo-wide rules (the file it points at is not changed; rollback puts the link back).`,
        );
        continue;
      }
      if (l.copyOf !== undefined) {
        lines.push(...copyChoiceLines(l));
        continue;
      }
      lines.push(
        `- ${showPath(l.path)}: its rules go to ${showPath(l.target)}. Keep: ${showLine(l.note)}${l.fates.includes('remove') ? ' Remove: deleted after backup.' : ''}${l.fates.includes('pointer') ? ` Pointer: replaced by a line importing ${showPath(l.target)}.` : ''}`,
      );
    }
  }
  if (plan.conflicts.length > 0) lines.push('', ...contradictionLines(plan.conflicts, plan.modelOpinion));
  lines.push(...scopeAndAssistantLines(plan));
  return lines.join('\n');
}

/** Said before the yes: the default leaves the repository failing `check` (contradiction), and why. */
const CHECK_FAILS_ON_KEPT =
  "Keeping all of them (the default) leaves each contradiction in Copilot's files, marked: copilot-onboard check, and the CI workflow that runs it, then fails on it (a contradiction fails the check) until you settle it in the files. Choosing the rule that stands leaves check passing.";

/**
 * The contradictions, and which of them the form asks about. The form holds at most
 * MAX_CONFLICT_FIELDS of these questions; the rest are named here, and keep every side, marked.
 */
function contradictionLines(conflicts: PlanFile['conflicts'], opinion: PlanFile['modelOpinion']): string[] {
  const asked = conflicts.slice(0, MAX_CONFLICT_FIELDS);
  const notAsked = conflicts.slice(MAX_CONFLICT_FIELDS);
  const lines =
    notAsked.length === 0
      ? ['Contradictions (the form asks which rule stands for each; the default keeps all and marks them in the file):']
      : [
          `Contradictions (${conflicts.length}): the form asks which rule stands for the first ${asked.length}; the default keeps all and marks them in the file.`,
          `Not asked: the last ${notAsked.length}, listed below. A form holds at most ${MAX_CONFLICT_FIELDS} of these questions, so ${notAsked.length === 1 ? 'this one keeps' : `these ${notAsked.length} keep`} the rules of every side, each marked in the file. To choose for ${notAsked.length === 1 ? 'it' : 'them'}, settle some contradictions in the files and propose again.`,
        ];
  if (conflicts.some((c) => !c.secondLook)) lines.push(CHECK_FAILS_ON_KEPT);
  // The client's model's verdict on a second-look pair, when propose asked it (narrate/opinion.ts): labelled as its opinion.
  const verdicts = new Map((opinion?.verdicts ?? []).map((v) => [v.id, v]));
  const thinks = (c: { id: string }) => {
    const v = verdicts.get(c.id);
    return v && opinion ? `; ${opinionWords(v, opinion.model)}` : '';
  };
  for (const c of asked) lines.push(`- ${conflictWords(c)}${secondLookWords(c)}${thinks(c)}`);
  for (const c of notAsked)
    lines.push(`- ${conflictWords(c)} (not asked: all kept${c.secondLook ? '' : ', marked'})${secondLookWords(c)}${thinks(c)}`);
  return lines;
}
