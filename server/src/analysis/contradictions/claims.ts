import type { Scope, Unit } from '../../model/model.js';
import { FENCE } from '../../model/markdown-units.js';
import { languagesOf } from '../scope/scope-overlap.js';
import { notTheTool, readOption } from './option-claims.js';
import { anyOf, CLAIM_TOPICS, GENERIC_VERSION, MODALS, VERSIONED_LANGUAGES } from './topics.js';
import { RANGE_MARK, VERSION_LABEL, versionClaims } from './versions.js';
import { actionClaims, codeCommands, roleClaim, tableCommands } from './claim-reader.js';
import type { Claim, ClaimBase } from './claim.js';
import { proseCommands } from './prose-commands.js';
import { codeUseClaims } from './code-uses.js';
import { bareItem, dontFrom, listHead } from './list-heads.js';
import { commandTool, commandVersions, COMMAND_TOOLS, normalizeCommand, oneOffCommand, runnerTool } from './tools.js';

const REPO: Scope = { kind: 'repo' };

/** Any option of any topic: a line that names none is read for no topic. */
export const ANY_OPTION = anyOf(CLAIM_TOPICS.flatMap((t) => t.options.map((o) => o.pattern)));
/** The modal patterns, each with a twin that only tests (a line without "always" or "never" is read no further). */
const MODALS_READ = MODALS.map((m) => ({ ...m, anywhere: new RegExp(m.pattern.source, m.pattern.flags.replace('g', '')) }));
/** Any of the modal patterns (their flags are `gi`, tests/analysis/fast-paths.test.ts): one test for a line that has none. */
export const ANY_MODAL = anyOf(MODALS.map((m) => m.pattern));
/** Any option, language version or modal word, case aside (every pattern's flags are among `g` and `i`). */
const ANY_NAMED = anyOf([
  ...CLAIM_TOPICS.flatMap((t) => t.options.map((o) => o.pattern)),
  ...VERSIONED_LANGUAGES.map((l) => l.pattern),
  ...MODALS.map((m) => m.pattern),
  VERSION_LABEL,
]);
/** A capitalised name before a dotted version, case kept: tested apart, it is not tried at every lower-case word. */
const ANY_NAMED_VERSION = new RegExp(GENERIC_VERSION.source);

/**
 * Whether a line may claim an option, a version or "always X" / "never X": whether any of their
 * patterns matches it, or it holds a range mark (versions are read after ranges are rewritten). A line
 * that names none of them (most lines) is searched once, not once per reading.
 */
export function mayNameClaim(text: string): boolean {
  return ANY_NAMED.test(text) || ANY_NAMED_VERSION.test(text) || RANGE_MARK.test(text);
}

const TITLES = new Map(CLAIM_TOPICS.map((t) => [t.id, t.title]));
/** The topic, value and kind of a version a line states (in prose, or in a command it gives). */
const versionClaim = (v: { key: string; name: string; value: string }) =>
  ({ topic: `version:${v.key}`, topicTitle: `${v.name} version`, value: v.value, positive: true, kind: 'version' }) as const;
/** Tool names, which the topics judge: an action on one ("never use npm") is left to them. */
const TOOL_NAMES = new Set([...Object.keys(COMMAND_TOOLS), ...CLAIM_TOPICS.flatMap((t) => t.options.map((o) => o.value.toLowerCase()))]);

/**
 * Read every line of the units for statements about the claim topics, language versions, actions on
 * objects and commands' roles; and the commands of setup steps (shell code blocks, table cells),
 * which use a tool or pin a version without choosing it (`weak`).
 */
export function extractClaims(units: Unit[], scopeOf: (u: Unit) => Scope = () => REPO): Claim[] {
  const claims: Claim[] = [];
  const sections = new Map<string, string>();
  const previous = new Map<string, string>();
  const dontList = new Map<string, boolean>();
  const previousProse = new Map<string, string>();
  const line = new LineReading();
  for (const unit of units) {
    // Headings name a section; the rules are the lines under them.
    if (unit.kind === 'heading') sections.set(unit.path, sectionTitle(unit));
    const heads = listHead(unit);
    if (heads !== null) dontList.set(unit.path, heads);
    if (unit.kind === 'frontmatter' || unit.kind === 'heading') {
      previous.set(unit.path, unit.lines[0]!);
      continue;
    }
    if (unit.kind === 'code') previousProse.set(`${unit.path}:${unit.line}`, previous.get(unit.path) ?? '');
    line.unit = unit;
    line.scope = scopeOf(unit);
    line.section = sections.get(unit.path) ?? '';
    line.previous = previous.get(unit.path) ?? '';
    line.dontFrom = dontFrom(unit, dontList.get(unit.path) === true);
    unitClaims(line, claims);
    previous.set(unit.path, lastProse(unit));
  }
  claims.push(...codeUseClaims(claims, units, scopeOf, previousProse));
  return claims;
}

/** The last line of a unit outside its code blocks ('' for a code block). */
function lastProse(unit: Unit): string {
  if (unit.kind === 'code') return '';
  const prose = proseLines(unit);
  return prose.length === 0 ? '' : unit.lines[prose[prose.length - 1]!]!;
}

/** A line that introduces what not to do: the commands of the code block under it are examples of the wrong way. */
const SHOWS_WRONG = /[\u274C\u2717\u2718\u{1F6AB}\u26D4]|\b(?:wrong|bad|incorrect|don'?t|do not|never|avoid|instead of)\b/iu;

/** Where a claim stands: its line, unit, scope, languages, section and label. */
type Place = Pick<ClaimBase, 'path' | 'line' | 'unit' | 'text' | 'scope' | 'langs' | 'section' | 'label'>;

/**
 * The line being read, and where it stands once it claims something: most lines claim nothing, and
 * their place is never worked out. One object for the whole reading, not closures per unit and line.
 */
class LineReading {
  unit!: Unit;
  scope: Scope = REPO;
  section = '';
  /** The line before the unit (its last prose line, or a heading): what a code block is an example of. */
  previous = '';
  /** The first line of the unit in a list headed "don't" or "avoid" (Infinity for none): what its bare items tell to do is what not to do. */
  dontFrom = Infinity;
  /** The line being read is such an item. */
  dont = false;
  offset = -1;
  private placed: Place | null = null;
  private placedUnit: Unit | null = null;
  private placedOffset = -1;

  get text(): string {
    return this.unit.lines[this.offset]!;
  }

  /** The claim's place: worked out once per line, whichever reading asks first. */
  at(): Place {
    if (this.placed === null || this.placedUnit !== this.unit || this.placedOffset !== this.offset) {
      const text = this.text;
      this.placed = {
        path: this.unit.path,
        line: this.unit.line + this.offset,
        unit: `${this.unit.path}:${this.unit.line}`,
        text,
        scope: this.scope,
        langs: languagesOf(text, this.scope),
        section: this.section,
        label: labelOf(text),
      };
      this.placedUnit = this.unit;
      this.placedOffset = this.offset;
    }
    return this.placed;
  }
}

/**
 * The claims of one unit, line by line. A function per unit and per line, not one loop body for the
 * whole repository: a short function called often is optimised early in a process that runs once.
 */
function unitClaims(line: LineReading, claims: Claim[]): void {
  const unit = line.unit;
  if (unit.kind === 'code' || unit.lines.length > 1) {
    const commands = codeCommands(unit.lines);
    const wrongWay = commands.length > 0 && unit.kind === 'code' && SHOWS_WRONG.test(line.previous);
    for (const c of commands) {
      line.offset = c.offset;
      commandClaims(line, c.command, claims);
      if (!wrongWay) commandUseClaims(line, c.command, claims);
    }
  }
  if (unit.kind === 'code') return;
  const prose = proseLines(unit);
  for (let k = 0; k < prose.length; k++) {
    line.offset = prose[k]!;
    const text = line.text;
    const start = claims.length;
    line.dont = line.offset >= line.dontFrom && bareItem(text);
    const named = mayNameClaim(text);
    if (named && !line.dont) optionClaims(text, line, claims);
    const table = tableCommands(text);
    for (let i = 0; i < table.length; i++) commandClaims(line, table[i]!, claims);
    const steps = line.dont ? NO_STEPS : proseCommands(text);
    for (let i = 0; i < steps.length; i++) commandClaims(line, steps[i]!, claims);
    ruleClaims(text, line, claims, k > 0 && goesOn(unit.lines[prose[k - 1]!]!, text));
    if (named) modalClaims(text, line, claims);
    if (ANY_FACT.test(text)) factClaims(text, line, claims);
    keepChosen(claims, start);
  }
}

/**
 * A line that both uses and rules out one option ("run them with `x legacy`, since they do not use
 * x's own runner"; "`x bd <file>` instead of `x bd test <file>`") contrasts two ways of one tool:
 * it rules the option out nowhere.
 */
function keepChosen(claims: Claim[], start: number): void {
  let chosen: Set<string> | null = null;
  for (let i = claims.length - 1; i >= start; i--) {
    const c = claims[i]!;
    if (c.kind !== 'option' || c.positive) continue;
    chosen ??= new Set(
      claims
        .slice(start)
        .filter((x) => x.kind === 'option' && x.positive)
        .map((x) => `${x.topic}\0${x.value}`),
    );
    if (chosen.has(`${c.topic}\0${c.value}`)) claims.splice(i, 1);
  }
}

/** A command a line gives (a setup step, a table cell): the tool it uses and the versions it pins, weak claims. */
function commandClaims(line: LineReading, command: string, claims: Claim[]): void {
  const at = line.at();
  // The task runner a package manager runs (`pnpm turbo run build`), then the tool the command itself is.
  for (const found of [runnerTool(command), commandTool(command)]) {
    if (found)
      claims.push({
        topic: found.topic,
        topicTitle: TITLES.get(found.topic) ?? found.topic,
        value: found.value,
        positive: true,
        kind: 'option',
        weak: true,
        ...at,
      });
  }
  for (const v of commandVersions(command)) claims.push({ ...versionClaim(v), weak: true, ...at });
}

/** Words with which a line chooses a tool rather than only running a command of it. */
const CHOOSES = /\b(?:use[sd]?|using|prefer(?:red)?|instead|not|only|package manager)\b/i;

/** Whether `index` falls inside a code span that holds a command with arguments (`pnpm test`), not the bare name. */
function inCommandSpan(text: string, index: number): boolean {
  const open = text.lastIndexOf('`', index);
  if (open < 0 || (text.slice(0, open).match(/`/g)?.length ?? 0) % 2 === 1) return false;
  const close = text.indexOf('`', index);
  return close >= 0 && /\S\s+\S/.test(text.slice(open + 1, close).trim());
}

/** Whether `index` falls inside a code span whose command fetches, runs once or adds one named package. */
function inOneOffSpan(text: string, index: number): boolean {
  const open = text.lastIndexOf('`', index);
  if (open < 0) return false;
  const close = text.indexOf('`', index);
  if (close < 0 || (text.slice(0, open).match(/`/g)?.length ?? 0) % 2 === 1) return false;
  return oneOffCommand(normalizeCommand(text.slice(open + 1, close).trim()));
}

/**
 * A command a setup or run step gives uses it: a weak claim (it contradicts a rule, never another
 * step) on the command, and on its tool and subcommand when it has arguments ("git commit -m x" uses
 * "git commit"), so "Do not run `pnpm test` directly" and "Wrong: using git commit directly" meet it.
 */
function commandUseClaims(line: LineReading, command: string, claims: Claim[]): void {
  const words = command.split(' ');
  if (words.length < 2 || (commandTool(command) === null && !KNOWN_RUNNERS.test(words[0]!))) return;
  const at = line.at();
  const use = (object: string, qualifier: string) =>
    claims.push({
      topic: `act:use:${object}`,
      topicTitle: object,
      value: object,
      positive: true,
      kind: 'action',
      weak: true,
      polarity: 'must',
      verb: 'run',
      qualifier,
      excepted: false,
      objectKind: 'command',
      ...at,
    });
  use(command, '');
  if (words.length > 2 && /^[\w:-]+$/.test(words[1]!)) use(`${words[0]} ${words[1]}`, 'with arguments');
}
/** Tools whose subcommands rules name besides the package managers' ("git commit", "make up", "docker compose"). */
const KNOWN_RUNNERS = /^(?:git|make|just|task|docker|docker-compose|cargo|go|dotnet|gradle|mvn|php|composer|bundle|rake|gh|nx|turbo)$/;

/** The options of the claim topics a line names, and the versions it states. */
function optionClaims(text: string, line: LineReading, claims: Claim[]): void {
  if (ANY_OPTION.test(text)) {
    for (const topic of CLAIM_TOPICS) {
      if (topic.context && !topic.context.test(text)) continue;
      for (const option of topic.options) {
        if (option.context && !option.context.test(text)) continue;
        for (const match of text.matchAll(option.pattern)) {
          // "Windows-only `npm install @napi-rs/keyring`": a command adding one package names no choice.
          if (inOneOffSpan(text, match.index)) continue;
          if (notTheTool(topic, text, match.index, match[0].length)) continue;
          const positive = readOption(topic, option, text, match.index, match[0].length);
          if (positive === null) continue;
          const mention = positive && !CHOOSES.test(text) && inCommandSpan(text, match.index);
          claims.push({
            topic: topic.id,
            topicTitle: topic.title,
            value: option.value,
            positive,
            kind: 'option',
            ...(mention ? { mention } : {}),
            ...line.at(),
          });
        }
      }
    }
  }
  const versions = versionClaims(text);
  for (let i = 0; i < versions.length; i++) claims.push({ ...versionClaim(versions[i]!), ...line.at() });
}

/** A line that goes on with the sentence of the line before it: that line ends mid-sentence, this one starts in lower case. */
const goesOn = (before: string, text: string): boolean => !/[.!?:;|>]\s*$|^\s*$/.test(before) && /^\s*[a-z(]/.test(text);

/** What a line tells the reader to do or not to do: actions on objects and a command's role. */
function ruleClaims(text: string, line: LineReading, claims: Claim[], midSentence = false): void {
  const actions = actionClaims(text, midSentence);
  for (let i = 0; i < actions.length; i++) {
    // A "don't" list turns what its item says to do; not what a bracket of it says to do instead.
    const a = line.dont && !actions[i]!.aside ? { ...actions[i]!, polarity: 'never' as const } : actions[i]!;
    if (a.action === 'use' && TOOL_NAMES.has(a.object)) continue;
    const shown = shownAs(text, a.object);
    claims.push({
      topic: `act:${a.action}:${a.object}`,
      topicTitle: shown.replace(/:/g, ' '),
      value: a.object,
      positive: a.polarity !== 'never',
      kind: 'action',
      polarity: a.polarity,
      verb: a.verb,
      qualifier: a.qualifier,
      excepted: a.excepted,
      objectKind: a.objectKind,
      ...line.at(),
    });
  }
  const role = line.dont ? null : roleClaim(text);
  if (role) {
    claims.push({
      topic: `role:${role.role}`,
      topicTitle: `the ${role.role} command`,
      value: role.commands.join(' + '),
      positive: true,
      kind: 'role',
      commands: role.commands,
      strict: role.strict,
      ...line.at(),
    });
  }
}

/**
 * Facts a repository states one way: the default branch, the branch pull requests target. Two
 * values are a stale copy on one side ("Default branch: **develop**" vs "Current Default Branch: `master`").
 */
const FACTS: readonly { id: string; title: string; pattern: RegExp }[] = [
  {
    id: 'default-branch',
    title: 'the default branch',
    pattern: /\bdefault branch(?:\*\*|__)?\s*(?::|\bis\b|=)\s*(?:\*\*|__|`)*([A-Za-z][\w./-]*)/i,
  },
  {
    id: 'pr-target',
    title: 'the branch pull requests target',
    pattern: /\b(?:PRs|pull requests)\s+(?:should\s+|must\s+)?target\s+(?:the\s+)?(?:\*\*|__|`)*([A-Za-z][\w./-]*)/i,
  },
];
const ANY_FACT = /default branch|\btarget\b/i;

function factClaims(text: string, line: LineReading, claims: Claim[]): void {
  for (const f of FACTS) {
    const m = f.pattern.exec(text);
    if (!m) continue;
    claims.push({
      topic: `fact:${f.id}`,
      topicTitle: f.title,
      value: m[1]!.toLowerCase().replace(/[./-]+$/, ''),
      positive: true,
      kind: 'fact',
      ...line.at(),
    });
  }
}

/** "Always X" and "never X". */
function modalClaims(text: string, line: LineReading, claims: Claim[]): void {
  if (!ANY_MODAL.test(text)) return;
  for (let i = 0; i < MODALS_READ.length; i++) {
    const modal = MODALS_READ[i]!;
    if (!modal.anywhere.test(text)) continue;
    for (const match of text.matchAll(modal.pattern)) {
      const object = ruleObject(text.slice(match.index + match[0].length));
      if (object)
        claims.push({
          topic: `rule:${object}`,
          topicTitle: `"${object}"`,
          value: object,
          positive: modal.positive,
          kind: 'modal',
          ...line.at(),
        });
    }
  }
}

/** A line's leading bold label, lower-cased: "- **Unit Tests** (`tests/Unit/`): ..." → "unit tests". */
function labelOf(text: string): string | undefined {
  return /^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*|__)([^*_]{1,40})(?:\*\*|__)/.exec(text)?.[1]!.trim().toLowerCase().replace(/:$/, '');
}

/** The object as the line writes it ("CHANGELOG.md" for the key "changelog.md"). */
function shownAs(text: string, object: string): string {
  const i = text.toLowerCase().indexOf(object);
  return i >= 0 ? text.slice(i, i + object.length) : object;
}

const NO_LINE: readonly number[] = Object.freeze([]);
const NO_STEPS: readonly string[] = Object.freeze([]);
const FIRST_LINE: readonly number[] = Object.freeze([0]);

/** Indexes of a unit's lines outside the code blocks nested in it (an example under a list item). */
export function proseLines(u: Unit): readonly number[] {
  // One list for every one-line unit (nearly all of them), not one per unit and per pass.
  if (u.lines.length === 1) return FENCE.test(u.lines[0]!) ? NO_LINE : FIRST_LINE;
  const out: number[] = [];
  let fence: string | null = null;
  u.lines.forEach((l, i) => {
    const marker = FENCE.exec(l)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && marker && l.trim() === marker && marker.length >= fence.length && marker[0] === fence[0]) fence = null;
    else if (fence === null) out.push(i);
  });
  return out;
}

const FILLER = new Set(['the', 'a', 'an', 'to', 'any', 'your', 'our']);

/** The section a heading names, as rules under it are read: its text without the #s, lower-cased. */
export function sectionTitle(heading: Unit): string {
  return heading.lines[0]!.replace(/^\s*#+\s*/, '')
    .trim()
    .toLowerCase();
}

/** The thing a modal rule is about: its next few words, lower-cased, without filler. */
function ruleObject(rest: string): string | null {
  const words = rest
    .split(/[.;:,!?()]/)[0]!
    .toLowerCase()
    .replace(/[`*_"']/g, '')
    .split(/\s+/)
    .filter((w) => w !== '' && !FILLER.has(w))
    .slice(0, 4);
  // "Never do this:" / "Always do this:" point at the example under each: two objects, not one.
  if (words.slice(1).every((w) => POINTERS.has(w))) return null;
  return words.length >= 2 ? words.join(' ') : null;
}
/** Words that point at something said elsewhere (an example below, the line before) instead of naming it. */
const POINTERS = new Set(['this', 'that', 'these', 'those', 'it', 'them', 'so', 'here', 'the', 'following', 'below', 'above']);
