/**
 * The one findings table: every kind of problem analysis reports, and every rule `check` reports
 * under, as data. A problem's `type` and `kind` are keys of `PROBLEM_TYPES` (a finder that reports a
 * kind with no row does not type-check), and so is its certainty; `check`'s rules, the `--fail-on`
 * ladder, the SARIF rules, the job summary's table and `fleet`'s columns are read from `CHECK_RULES`.
 * Adding a kind is its row here and the finder that reports it (analysis/analyze.ts lists them).
 *
 * No zod here, like the format registry: the zod enums are built from these keys in `problem.ts`.
 */

/** How sure analysis is of a kind of report, earned on the judged set (docs/analysis.md), most sure first. */
export const CERTAINTIES = ['high', 'medium', 'low'] as const;
/** A certainty (the zod enum and its type, `Certainty`, are in problem.ts). */
export type CertaintyLevel = (typeof CERTAINTIES)[number];

/** The rules `check` reports findings under, in the order it lists them. */
export const CHECK_RULE_IDS = ['contradiction', 'duplicate', 'drift', 'would-change', 'ambiguity', 'unread'] as const;
export type CheckRule = (typeof CHECK_RULE_IDS)[number];

export type SarifLevel = 'error' | 'warning' | 'note';

/** A kind of problem: how sure analysis is of it (the bar is in analysis/certainty.ts), and what it says, for people. */
export interface KindRow {
  certainty: CertaintyLevel;
  /** What a report of this kind says, in a few words (docs/analysis.md has the whole rule). */
  what: string;
}

/** A type of problem: the check rule its problems are reported under, and its kinds. */
interface TypeRow {
  rule: CheckRule;
  kinds: Readonly<Record<string, KindRow>>;
}

const row = (certainty: CertaintyLevel, what: string): KindRow => ({ certainty, what });

/**
 * Every type and kind of problem analysis reports (`analyze`'s `type` and `kind`), with its
 * certainty. docs/analysis.md gives the figures behind each certainty.
 */
export const PROBLEM_TYPES = {
  contradiction: {
    rule: 'contradiction',
    kinds: {
      'tool-choice': row('high', 'two tools, or two values, for one choice'),
      version: row('high', 'two versions of one thing'),
      'setup-step': row('high', 'a setup command against a rule'),
      action: row('medium', 'always doing something against never doing it'),
      command: row('medium', 'one role given two commands'),
      'always-never': row('medium', 'always against never, said of one thing'),
      'command-use': row('medium', 'a command used against a rule forbidding it'),
      fact: row('medium', 'two values of one fact about the project'),
      // Rules that say one thing differently (drift/drift.ts): a value changed in a copy and one helper
      // named two ways are reported; a labelled line edited in one copy, a flag on every run in one
      // file only and the poles of a style choice are worth a second look (low: shown, never failing
      // check, never marked in a file).
      'drifted-copy': row('medium', 'a copied rule with one value changed'),
      'drifted-name': row('medium', 'one name written two ways'),
      'drifted-line': row('low', 'a copied, labelled line edited in one copy'),
      'drifted-flag': row('low', 'a flag on every run in one file, on none in another'),
      'style-pair': row('low', 'the two sides of one style choice'),
      // A folder a structure tree lists under one root and rules name under another (drift/stale-layout.ts).
      'stale-path': row('low', 'a folder a tree and a rule put under two roots'),
      // One command as routine in one rule and as a last resort in another (drift/frequency.ts).
      frequency: row('low', 'one command as routine and as a last resort'),
      // Two lines about one subject, one slot filled with two values or one action said and forbidden
      // (contradictions/second-look/): ranked, a question for the person, never a report.
      subject: row('low', 'two lines on one subject with two values in one slot, or opposite polarity'),
      // Two alike lines of two files nothing marks, ranked high by the learned ranking (contradictions/second-look/rank.ts):
      // listed for the client's model, never among the few a person is shown unless the model raises it.
      alike: row('low', "two alike lines of two files on one subject, for the client's model to read"),
    },
  },
  duplication: {
    rule: 'duplicate',
    kinds: {
      exact: row('high', 'a rule repeated word for word'),
      'copied-file': row('medium', 'files that are mostly copies of one another'),
      'copied-section': row('medium', 'a section copied into another file'),
      near: row('medium', 'a rule copied and edited a little'),
      reworded: row('medium', 'a rule said again in other words'),
      heading: row('low', 'a heading repeated under one parent'),
    },
  },
  ambiguity: {
    rule: 'ambiguity',
    kinds: {
      // Hidden characters are read, not guessed; so are import lines past a cap, counted.
      'hidden-character': row('high', 'characters a reader cannot see'),
      'imports-not-followed': row('high', 'import lines past the cap, not followed'),
      // Not measured on the judged set: low, a note that never fails check (analysis/discovery/missing-paths.ts).
      'missing-path': row('low', 'a rule names a file the repository does not have'),
    },
  },
} as const satisfies Record<string, TypeRow>;

export type ProblemType = keyof typeof PROBLEM_TYPES;
/** The kinds of one type of problem (all of them by default). */
export type ProblemKind<T extends ProblemType = ProblemType> = T extends ProblemType
  ? keyof (typeof PROBLEM_TYPES)[T]['kinds'] & string
  : never;
/** A kind with its type, as the certainty table and the finder list name it: `contradiction/tool-choice`. */
export type TypedKind = { [T in ProblemType]: `${T}/${ProblemKind<T>}` }[ProblemType];

/** The types, in the order the table gives them. */
export const PROBLEM_TYPE_IDS = Object.keys(PROBLEM_TYPES) as ProblemType[];

/** The kinds of a type, in the table's order: the zod enum of `kind` (problem.ts) and the docs are built on it. */
export const kindsOf = <T extends ProblemType>(type: T): [ProblemKind<T>, ...ProblemKind<T>[]] =>
  Object.keys(PROBLEM_TYPES[type].kinds) as [ProblemKind<T>, ...ProblemKind<T>[]];

/** Every typed kind, in the table's order. */
export const TYPED_KINDS: readonly TypedKind[] = PROBLEM_TYPE_IDS.flatMap((t) => kindsOf(t).map((k) => `${t}/${k}` as TypedKind));

/** The certainty of a kind of problem: its row's (a kind with no row does not type-check). */
export function certaintyOf<T extends ProblemType>(p: { type: T; kind: ProblemKind<T> }): CertaintyLevel {
  return (PROBLEM_TYPES[p.type].kinds as Record<string, KindRow>)[p.kind]!.certainty;
}

/** The check rule a problem is reported under. */
export const ruleOfType = (type: ProblemType): CheckRule => PROBLEM_TYPES[type].rule;

/**
 * A check rule: where its findings come from, the `--fail-on` level from which it fails, its SARIF
 * rule and levels, and its column in `fleet`.
 */
export interface CheckRuleRow {
  /**
   * The lowest `--fail-on` level that fails on it: `self` when it is a rung of the ladder
   * (contradiction < duplicate < drift), the rung it fails with (`unread` fails wherever a
   * contradiction does), or `any`. A low-certainty contradiction fails only at `any`.
   */
  failsFrom: 'self' | 'any' | CheckRule;
  /** Kinds `check` finds itself, beside analysis's problems (drift: legacy-only; would-change: create, update, delete). */
  ownKinds: Readonly<Record<string, KindRow>>;
  sarif: {
    /** SARIF `name` (PascalCase); the rule id is `copilot-onboard/<rule>`. */
    name: string;
    short: string;
    full: string;
    /** The heading in docs/ci.md (GitHub's anchor). */
    anchor: string;
    /** How the message introduces the finding's other locations. */
    others: string;
    /** The level of a finding, by certainty: only a contradiction can be an error. */
    levels: Readonly<Record<CertaintyLevel, SarifLevel>>;
  };
  /** Its column in `fleet`: the key in the JSON, the header in the table, and whether it is counted by certainty. */
  fleet: { key: string; header: string; byCertainty?: true };
}

const WARNING: Readonly<Record<CertaintyLevel, SarifLevel>> = { high: 'warning', medium: 'warning', low: 'note' };

export const CHECK_RULES = {
  contradiction: {
    failsFrom: 'self',
    ownKinds: {},
    sarif: {
      name: 'Contradiction',
      short: 'Two instruction files (or two places in one) say opposite things.',
      full: 'Two rules that apply to the same files give opposite instructions (use one tool or another, do or do not). An assistant reading both follows one at random. Decide which stands and remove the other.',
      anchor: 'copilot-onboardcontradiction',
      others: 'The other side',
      levels: { high: 'error', medium: 'warning', low: 'note' },
    },
    fleet: { key: 'contradictions', header: 'contradictions high / medium / low', byCertainty: true },
  },
  duplicate: {
    failsFrom: 'self',
    ownKinds: {},
    sarif: {
      name: 'Duplicate',
      short: 'The same rule is written in more than one place.',
      full: 'A rule is repeated, word for word or reworded, in several instruction files or sections. Copies drift apart over time; keep one.',
      anchor: 'copilot-onboardduplicate',
      others: 'Also at',
      levels: WARNING,
    },
    fleet: { key: 'duplicates', header: 'duplicates' },
  },
  drift: {
    failsFrom: 'self',
    ownKinds: { 'legacy-only': row('high', "a legacy file's rule lines that no Copilot file holds") },
    sarif: {
      name: 'Drift',
      short: "A legacy instruction file says something Copilot's files do not.",
      full: "A legacy instruction file (CLAUDE.md, AGENTS.md, .cursor/rules, ...) standing beside Copilot's instruction files holds rule lines that none of Copilot's files holds, so Copilot does not follow them. Carry the rule over (run propose) or remove it.",
      anchor: 'copilot-onboarddrift',
      others: 'Also at',
      levels: WARNING,
    },
    fleet: { key: 'drift', header: 'drift' },
  },
  'would-change': {
    failsFrom: 'any',
    ownKinds: {
      create: row('high', 'propose would create this file'),
      update: row('high', 'propose would change this file'),
      delete: row('high', 'propose would remove this file'),
    },
    sarif: {
      name: 'WouldChange',
      short: 'Onboarding is not current: propose would create, change or remove a file.',
      full: "If copilot-onboard propose ran now, its plan would create, change or remove a file: Copilot's layout is not up to date with the instruction files. The alert is shown at the source the new file would be made from (a file to create does not exist yet), or at the first line that would change.",
      anchor: 'copilot-onboardwould-change',
      others: 'Made also from',
      // The onboarding is behind; nothing is wrong yet.
      levels: { high: 'note', medium: 'note', low: 'note' },
    },
    fleet: { key: 'wouldChange', header: 'would-change' },
  },
  ambiguity: {
    failsFrom: 'any',
    ownKinds: {},
    sarif: {
      name: 'Ambiguity',
      short:
        'An instruction file holds text a reader may not see (hidden characters), imports more than is read, or names a file that is not there.',
      full: 'An instruction file holds characters that display as nothing or as something else (zero-width, bidirectional controls), more @path import lines than copilot-onboard follows (200 per file, 1,000 in all), or a rule naming a file the repository does not have. A person reviewing it may not see what the assistant reads.',
      anchor: 'copilot-onboardambiguity',
      others: 'Also at',
      levels: WARNING,
    },
    fleet: { key: 'ambiguity', header: 'ambiguity' },
  },
  unread: {
    // An assistant still reads a file check could not, and it may hold a contradiction.
    failsFrom: 'contradiction',
    ownKinds: {
      'too-large': row('high', 'over 1 MiB: not read'),
      binary: row('high', 'binary: not read'),
      'not-utf8': row('high', 'not valid UTF-8, or named so: not read'),
      'symlink-outside': row('high', 'a link leaving the repository: not read'),
      'not-a-file': row('high', 'not a regular file: not read'),
      unreadable: row('high', 'cannot be opened: not read'),
    },
    sarif: {
      name: 'Unread',
      short: 'An instruction file could not be read, so nothing in it was checked.',
      full: 'An instruction file is too large (over 1 MiB), binary, not valid UTF-8 (or named so), a link leaving the repository, not a regular file, or cannot be opened. copilot-onboard did not read it, so it cannot say what it holds, but an assistant may still read it. Make it readable, or remove it.',
      anchor: 'copilot-onboardunread',
      others: 'Also at',
      levels: { high: 'error', medium: 'error', low: 'warning' },
    },
    fleet: { key: 'unread', header: 'unread' },
  },
} as const satisfies Record<CheckRule, CheckRuleRow>;

/** The kinds `check` finds itself, by rule. */
export type CheckOwnKind = { [R in CheckRule]: keyof (typeof CHECK_RULES)[R]['ownKinds'] & string }[CheckRule];
/** A check finding's kind: the problem's kind, or one `check` finds itself. */
export type FindingKind = ProblemKind | CheckOwnKind;

/** The rules that are rungs of the `--fail-on` ladder, in the table's order. */
type Rung = { [R in CheckRule]: (typeof CHECK_RULES)[R]['failsFrom'] extends 'self' ? R : never }[CheckRule];
/** `--fail-on`: a rung (it and the rungs before it), `any` (every rule), or `none`. */
export type FailOn = Rung | 'any' | 'none';

const RUNGS = CHECK_RULE_IDS.filter((r): r is Rung => CHECK_RULES[r].failsFrom === 'self');
/** The `--fail-on` levels, lowest first: yargs's choices, the tool's schema and the ladder below read it. */
const LEVELS: FailOn[] = [...RUNGS, 'any', 'none'];
export const FAIL_ON = LEVELS as [FailOn, ...FailOn[]];

/**
 * The rules a `--fail-on` level fails on, in the table's order: each rung adds its rule (and the rules
 * that fail with it) to the ones before it; `any` all; `none` none.
 */
export function rulesFailedAt(failOn: FailOn): ReadonlySet<CheckRule> {
  if (failOn === 'none') return new Set();
  if (failOn === 'any') return new Set(CHECK_RULE_IDS);
  const upTo = RUNGS.indexOf(failOn);
  const rungOf = (r: CheckRule): number => {
    const from: string = CHECK_RULES[r].failsFrom;
    return from === 'self' ? RUNGS.indexOf(r as Rung) : from === 'any' ? Infinity : RUNGS.indexOf(from as Rung);
  };
  return new Set(CHECK_RULE_IDS.filter((r) => rungOf(r) <= upTo));
}
