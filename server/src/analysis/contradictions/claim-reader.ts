/**
 * Reads a rule's line as claims a careful reader would compare: a polarity (must, may, never), an
 * action with its synonyms (edit/update/modify/change; commit/push; use/run/install; ...) and the
 * object it acts on (a file, a command, a branch, a code identifier, a few words). Also the commands
 * a line or a setup block runs, and the command a labelled line gives a role ("**Build**: `x`").
 * The tables are data: ACTIONS here, the tools and roles in tools.ts. See docs/analysis.md.
 */
import { COMMAND_ROLES, normalizeCommand, SHELL_FENCES, commandTool, oneOffCommand } from './tools.js';
import { polarityOf, saidFrom, type Polarity } from './verb-polarity.js';

/** Actions and the verbs that name each one (base forms; -s, -ing and -ed forms follow). */
export const ACTIONS: Readonly<Record<string, readonly string[]>> = {
  edit: ['edit', 'update', 'modify', 'change', 'touch', 'regenerate', 'rewrite', 'alter', 'hand-edit'],
  commit: ['commit', 'push'],
  merge: ['merge'],
  'force-push': ['force-push'],
  use: ['use', 'run', 'install', 'call', 'invoke', 'import'],
  write: ['write', 'add', 'create'],
  mock: ['mock', 'stub', 'fake'],
  rebase: ['rebase'],
  delete: ['delete', 'remove'],
  disable: ['disable', 'skip', 'bypass'],
};

const DOUBLED = new Set(['commit', 'run', 'stub', 'skip']);
function forms(base: string): string[] {
  const stem = base.endsWith('e') ? base.slice(0, -1) : DOUBLED.has(base) ? base + base.at(-1) : base;
  const s = /(?:sh|ch|s|x)$/.test(base) ? `${base}es` : `${base}s`;
  return [base, s, `${stem}ing`, base.endsWith('e') ? `${base}d` : `${stem}ed`];
}

export const VERB_OF = new Map<string, { action: string; base: string; form: number }>();
for (const [action, verbs] of Object.entries(ACTIONS)) {
  for (const base of verbs) forms(base).forEach((f, form) => VERB_OF.set(f, { action, base, form }));
}
/** Words, with a hyphen or a space inside "force-push" / "force push": looked up in VERB_OF, faster than one regex of every verb. */
const WORDS = /\b(?:force[-\s]+)?[A-Za-z][A-Za-z-]*/g;
function* verbsIn(clause: string): Generator<{ index: number; text: string; verb: { action: string; base: string; form: number } }> {
  for (const m of clause.matchAll(WORDS)) {
    const verb = VERB_OF.get(m[0].toLowerCase().replace(/\s+/g, '-'));
    if (verb) yield { index: m.index, text: m[0], verb };
  }
}

/**
 * A word of a lower-cased line (a run of `a`-`z` and `-`) that is a verb form, "avoid" or "force":
 * what splitting the line into such words and looking each up answers, without the list of words.
 */
export const ACTION_WORD = new RegExp(`(?<![a-z-])(?:${[...VERB_OF.keys(), 'avoid', 'force'].join('|')})(?![a-z-])`);

/** Words in a prohibition that carve out an exception: "never X, except in scripts/". */
const EXCEPTION = /\b(?:except|unless|other than|apart from|outside of|excluding|save for)\b/i;
/**
 * A tip, not a rule: "when possible", "where practical", "if you can", "for speed". A hedged "avoid X"
 * or "X instead of Y" leaves room for the line that uses X or Y (issue 39).
 */
const HEDGED =
  /\b(?:(?:when|where|wherever|whenever|if)(?:\s+(?:it'?s|it is))?\s+(?:possible|practical|feasible|sensible|convenient|you can)|as (?:much|far) as (?:possible|practical)|for (?:speed|faster \w+|quicker \w+)|ideally)\b/i;
/** A replacement for one case ("instead of `y` if the tool is missing", "if it crashes, use `x` instead"): an exception, not a ban. */
const CONDITIONAL = /\b(?:if|when|whenever|unless|in case|once|until|while)\b/i;
/** Words right after an object that narrow the rule to some cases. */
const QUALIFIER = /^(?:with|without|when|if|unless|except|outside|inside|in|for|during|on|while|within|under|from|that|which|whose)\b/i;
/** A verb right after one of these is the case a rule is about ("when running", "before committing"), not what it says to do. */
const SUBORDINATE_BEFORE = /\b(?:when|whenever|while|before|after|once|until|if|unless)\s*$/i;

const FILLER = new Set([
  'the',
  'a',
  'an',
  'any',
  'your',
  'our',
  'all',
  'every',
  'each',
  'these',
  'those',
  'this',
  'that',
  'its',
  'their',
  'directly',
  'straight',
  'ever',
  'manually',
  'explicitly',
  'bare',
  'plain',
]);
const STOP = new Set([
  'in',
  'on',
  'for',
  'with',
  'without',
  'when',
  'by',
  'to',
  'from',
  'at',
  'after',
  'before',
  'unless',
  'except',
  'if',
  'and',
  'or',
  'but',
  'because',
  'so',
  'instead',
  'as',
  'than',
  'via',
  'inside',
  'outside',
  'under',
  'over',
  'into',
  'onto',
  'while',
  'during',
  'unless',
  'until',
  'is',
  'are',
  'be',
  'only',
  'whenever',
  'where',
  'which',
  'that',
]);
const GENERIC = /^(?:files?|code|anything|folders?|directory|directories|contents?|things?)$/;
const BRANCH_ACTIONS = new Set(['commit', 'merge', 'force-push', 'rebase']);

export interface ActionClaim {
  action: string;
  /** The verb as written in its base form ("update"). */
  verb: string;
  polarity: Polarity;
  object: string;
  objectKind: 'file' | 'branch' | 'command' | 'identifier' | 'words' | 'act';
  /** Words after the object that narrow the rule ("with file arguments"), normalised; '' for none. */
  qualifier: string;
  /** The clause carves out an exception. */
  excepted: boolean;
  /** Said in a bracket of its own ("Hardcode versions (use `'unreleased'`)"): what to do instead, not the line's rule. */
  aside?: true;
}

const bare = (s: string) => s.replace(/[*_]/g, '').replace(/\s+/g, ' ').trim();
const stem = (w: string) => (w.length > 3 && /[^su]s$/.test(w) && !/ss$/.test(w) ? w.slice(0, -1) : w);

/** The line's text without list marker, checkbox and a leading bold label ("**Git**: "). */
export function ruleText(line: string): string {
  return line
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/^\[[ xX]\]\s+/, '')
    .replace(/^(?:\*\*[^*]{1,40}\*\*|__[^_]{1,40}__)\s*:?\s*(?=\S)/, (m) => (/:/.test(m) ? '' : m))
    .replace(/^>\s*/, '');
}

/** The clauses of a line: sentences, and the parts around a dash or a semicolon. */
function clauses(text: string): string[] {
  return text.split(/(?<=[.;!?])\s+|;\s*|\s[\u2014\u2013-]\s|\s--\s/).filter((c) => c.trim() !== '');
}

/** The claims of one line: at most one per clause, for the first action that has a polarity. */
/** What most lines claim: one list for all of them, not an empty list per line. */
const NO_ACTIONS: readonly ActionClaim[] = Object.freeze([]);
const NO_COMMANDS: readonly string[] = Object.freeze([]);

/** A line that shows what not to do: "❌ Wrong: Using git commit directly", "**Bad:** ...". */
export const WRONG_MARK =
  /^\s*(?:[\u274C\u2717\u2718\u{1F6AB}\u26D4]\s*)?(?:\*\*|__)?(?:wrong|bad|incorrect|anti-pattern)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*/iu;
/** "Use X instead of Y", "X rather than Y": Y is ruled out. */
const INSTEAD = /\b(?:instead of|rather than)\s+(?:using\s+|calling\s+|running\s+)?/i;

/** The claims of one line; `midSentence`: the line goes on with a sentence the line before it began (a wrapped paragraph). */
export function actionClaims(line: string, midSentence = false): readonly ActionClaim[] {
  // Most lines name no action and no "avoid": one test says so before any parsing.
  if (!ACTION_WORD.test(line.toLowerCase())) return NO_ACTIONS;
  const out: ActionClaim[] = [];
  let text = ruleText(line);
  const wrong = WRONG_MARK.exec(text);
  if (wrong) text = text.slice(wrong[0].length);
  for (const [c, clause] of clauses(text).entries()) {
    // "Avoid `any`": avoiding a thing is never using it.
    const avoid = /^\s*(?:always\s+)?avoid\s+(?!\w+ing\b)/i.exec(clause);
    const avoided = avoid ? readObject('use', clause.slice(avoid[0].length)) : null;
    if (avoided) {
      out.push({
        action: 'use',
        verb: 'use',
        polarity: 'never',
        object: avoided.object,
        objectKind: avoided.kind,
        qualifier: '',
        excepted: EXCEPTION.test(clause) || HEDGED.test(clause),
      });
      continue;
    }
    let from = 0;
    for (const { index, text: word, verb } of verbsIn(clause)) {
      const m = { index, 0: word };
      const start = saidFrom(clause, m.index);
      const prefix = bare(clause.slice(Math.max(from, start), m.index).replace(/`/g, ''));
      // An order leads its clause: after a verb that set nothing ("uses mock data"), the next one is none.
      const lead = from > start ? bare(clause.slice(start, m.index).replace(/`/g, '')) : prefix;
      const rest = clause.slice(m.index + m[0].length);
      from = m.index + m[0].length;
      if (prefix.split(' ').length > 6) continue;
      // "Do not set a timeout when running `x`": a verb after "when", "before", "if" names the case, not the rule.
      if (SUBORDINATE_BEFORE.test(prefix)) continue;
      const object = readObject(verb.action, rest);
      if (!object) continue;
      const after = rest.slice(object.consumed);
      const polarity = wrong ? 'never' : polarityOf(prefix, after, verb.form, lead, !(midSentence && c === 0 && start === 0));
      if (!polarity) continue;
      out.push({
        action: verb.action,
        verb: verb.base,
        polarity,
        object: object.object,
        objectKind: object.kind,
        qualifier: qualifierOf(rest.slice(0, object.consumed), after),
        excepted: EXCEPTION.test(clause) || HEDGED.test(clause),
        ...(clause[start - 1] === '(' ? { aside: true as const } : {}),
      });
      // "Use `errors.AsType` instead of `errors.As`": the other one is ruled out, in the same words.
      const instead = polarity === 'must' ? INSTEAD.exec(after) : null;
      const other = instead ? readObject(verb.action, after.slice(instead.index + instead[0].length)) : null;
      if (other && other.object !== object.object)
        out.push({
          action: verb.action,
          verb: verb.base,
          polarity: 'never',
          object: other.object,
          objectKind: other.kind,
          qualifier: '',
          excepted: EXCEPTION.test(clause) || HEDGED.test(clause) || CONDITIONAL.test(clause),
        });
      break;
    }
  }
  return out;
}

/** What narrows an action: "bare" before its object, or the first words after it when they name a place or case. */
function qualifierOf(objectText: string, after: string): string {
  if (/\bbare\s+\S*$/i.test(objectText.replace(/`[^`]*`\s*$/, ''))) return 'bare';
  const q = bare(after.replace(/`/g, ''))
    .replace(/^[,:]\s*/, '')
    .replace(/\s*\b(?:is|are)\b.*$/i, '');
  if (!QUALIFIER.test(q)) return '';
  return q
    .toLowerCase()
    .replace(/[.!]+$/, '')
    .split(' ')
    .slice(0, 4)
    .join(' ');
}

/** What an action acts on, right after its verb, and how many characters of `rest` it took. */
function readObject(action: string, rest: string): { object: string; kind: ActionClaim['objectKind']; consumed: number } | null {
  let i = 0;
  const skip = () => {
    for (;;) {
      const m = /^\s*([A-Za-z'-]+)/.exec(rest.slice(i));
      if (!m || !FILLER.has(m[1]!.toLowerCase())) return;
      i += m[0].length;
    }
  };
  skip();
  if (action === 'rebase') return { object: 'rebase', kind: 'act', consumed: i };
  if (BRANCH_ACTIONS.has(action)) {
    const to =
      /^\s*(?:(?:changes|commits|code|it|them|work)\s+)?(?:to|into|onto|on|against)\s+(?:the\s+)?`?([\w./-]+?)`?(?:\s+branch)?(?=[\s.,;:!?)]|$)/i.exec(
        rest.slice(i),
      );
    if (to) return { object: to[1]!.toLowerCase(), kind: 'branch', consumed: i + to[0].length };
  }
  const tick = /^\s*`([^`]+)`/.exec(rest.slice(i));
  if (tick) {
    const raw = tick[1]!.trim();
    const kind = /\s/.test(raw) ? 'command' : /[./]/.test(raw) ? 'file' : 'identifier';
    return {
      object: kind === 'command' ? normalizeCommand(raw) : raw.replace(/^\.\//, '').toLowerCase(),
      kind,
      consumed: i + tick[0].length,
    };
  }
  const file = /^\s*([\w-]*\.[A-Za-z0-9]{1,8}|[\w.-]+\/[\w./-]*)(?=[\s.,;:!?)]|$)/.exec(rest.slice(i));
  if (file && /[A-Za-z]/.test(file[1]!))
    return { object: file[1]!.replace(/^\.\//, '').toLowerCase(), kind: 'file', consumed: i + file[0].length };
  // Words up to a preposition or a mark: "the database", "snapshot tests", "files in `migrations/`".
  const words: string[] = [];
  const re = /\s*([A-Za-z][\w'-]*)/y;
  re.lastIndex = i;
  let end = i;
  for (let m = re.exec(rest); m && words.length < 3; m = re.exec(rest)) {
    const w = m[1]!.toLowerCase();
    if (STOP.has(w)) break;
    if (!FILLER.has(w)) words.push(stem(w));
    end = re.lastIndex;
    if (/^[.,;:!?)]/.test(rest.slice(end))) break;
  }
  if (words.length === 1 && GENERIC.test(words[0]!)) {
    const where = /^\s*(?:in|under|inside|within)\s+(?:the\s+)?`?([\w./-]+)`?/.exec(rest.slice(end));
    if (where) return { object: where[1]!.replace(/^\.\//, '').toLowerCase(), kind: 'file', consumed: end + where[0].length };
  }
  if (words.length === 0) return null;
  return { object: words.join(' '), kind: 'words', consumed: end };
}

/** A command that a line gives a role: "**Build**: `bun run compile`", "To run all tests: `php artisan test`". */
export interface RoleClaim {
  role: string;
  commands: string[];
  /** The line insists (must, always, only, not): a different command for the role contradicts it. */
  strict: boolean;
}

const ROLE_LABEL = /^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*|__)?([A-Za-z][\w /-]{0,40}?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(?=\S)/;
const ROLE_FILLER = new Set([
  'to',
  'run',
  'all',
  'the',
  'command',
  'commands',
  'cmd',
  'script',
  'scripts',
  'full',
  'whole',
  'entire',
  'project',
  'suite',
]);
const STRICT = /\b(?:must|always|only|never|not)\b/i;
/** A path or glob in a code span followed by "only": the scope of the line, not a demand. */
const PATH_ONLY = /`[\w.@*-]*[/*][^`\s]*`\s+only\b/gi;
const NEGATED_COMMAND = /\b(?:not|never|instead of|rather than|don'?t use|do not use|avoid)\s*(?:\*\*|__)?\s*$/i;

export function roleClaim(line: string): RoleClaim | null {
  if (!line.includes('`')) return null;
  const ticks = [...line.matchAll(/`([^`\n]+)`/g)];
  if (ticks.length === 0) return null;
  const commands: string[] = [];
  for (const t of ticks) {
    const raw = t[1]!.trim();
    if (!/^[\w./-]+(?:\s+\S+)+$/.test(raw)) continue;
    if (NEGATED_COMMAND.test(line.slice(0, t.index))) continue;
    const command = normalizeCommand(raw);
    // Installing one named package (`pip install x-server`) sets up that package, not the project: no role's command.
    if (!oneOffCommand(command)) commands.push(command);
  }
  if (commands.length === 0) return null;
  // "`web/**` only" names the part of the repository the line is for: it does not insist.
  const prose = line.replace(PATH_ONLY, '').replace(/`[^`]*`/g, '');
  const strict = STRICT.test(prose);
  const label = ROLE_LABEL.exec(line);
  if (label && label.index === 0 && line.indexOf('`') > label[0].length - 1) {
    const words = label[1]!
      .toLowerCase()
      .split(/[\s/]+/)
      .filter((w) => w !== '' && !ROLE_FILLER.has(w));
    const roles = words.map((w) => COMMAND_ROLES[w]).filter((r): r is string => r !== undefined);
    if (roles.length === 1 && words.length <= 2) {
      const key = words.length === 1 ? roles[0]! : words.map((w) => COMMAND_ROLES[w] ?? w).join(' ');
      return { role: key, commands, strict };
    }
  }
  // A strict rule without a label: the role is what its one command runs ("MUST run inside Docker: `docker exec app php artisan test`").
  if (strict && commands.length === 1 && /\b(?:must|always|only)\b/i.test(prose)) {
    const words = commands[0]!.split(' ');
    const role = COMMAND_ROLES[words[words.length - 1]!];
    if (role) return { role, commands, strict };
  }
  return null;
}

/** Whether one command can stand for another: the same, or one with more arguments ("pnpm test --run"). */
export function sameCommand(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b} `) || b.startsWith(`${a} `);
}

/** The commands of a table row's cells: "| Start | `yarn dev` |". */
export function tableCommands(line: string): readonly string[] {
  if (!line.trimStart().startsWith('|')) return NO_COMMANDS;
  return [...line.matchAll(/`([^`\n]+)`/g)].map((m) => normalizeCommand(m[1]!)).filter((c) => /\s/.test(c) || commandTool(c) !== null);
}

/**
 * The setup and run steps of a code block: every command line of a shell fence, or of an unmarked
 * fence whose lines start with a tool a topic knows. Offsets are into `lines`.
 */
export function codeCommands(lines: string[]): { offset: number; command: string }[] {
  const out: { offset: number; command: string }[] = [];
  let fence: { marker: string; lang: string; start: number } | null = null;
  let block: { offset: number; command: string }[] = [];
  let continued: { text: string } | null = null;
  lines.forEach((l, i) => {
    const m = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(l);
    if (fence === null && m) {
      fence = { marker: m[1]!, lang: m[2]!.toLowerCase(), start: i };
      block = [];
      continued = null;
    } else if (fence !== null && m && l.trim() === m[1] && m[1]!.length >= fence.marker.length && m[1]![0] === fence.marker[0]) {
      const shell =
        SHELL_FENCES.has(fence.lang) ||
        (fence.lang === '' &&
          block.length > 0 &&
          block.every((c) => commandTool(c.command) !== null || /^(?:nvm|pyenv|cd|export|git)\b/.test(c.command)));
      if (shell) out.push(...block);
      fence = null;
    } else if (fence !== null) {
      let text = l.trim();
      if (text === '' || text.startsWith('#') || text.startsWith('//')) return;
      // A line continued from the one before (`tool run -- \`) is that command's arguments, not a command.
      if (continued !== null) [text, continued] = [`${continued.text} ${text}`, null];
      if (text.endsWith('\\')) {
        continued = { text: text.slice(0, -1).trim() };
        return;
      }
      for (const part of text.split(/\s*(?:&&|;|\|\|)\s*/)) if (part !== '') block.push({ offset: i, command: normalizeCommand(part) });
    }
  });
  return out;
}
