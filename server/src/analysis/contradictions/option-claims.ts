import { COMMAND_TOOLS, normalizeCommand } from './tools.js';
import { CONTRAST_BEFORE, NEGATION_BEFORE, type ClaimOption, type ClaimTopic } from './topics.js';

const MARKUP = `[\`*_"']*`;
const SEPARATOR = String.raw`\s*(?:,|/|&|\bor\b|\band\b|\bnor\b)\s*(?:(?:or|and|nor)\s+)?`;
const lists = new Map<ClaimTopic, { one: Map<ClaimOption, RegExp>; before: RegExp; after: RegExp }>();

/** Regular expressions for each of a topic's options anywhere, and for any of them in a list before or after. */
function listPatterns(topic: ClaimTopic) {
  let p = lists.get(topic);
  if (!p) {
    const any = topic.options.map((o) => o.pattern.source).join('|');
    p = {
      one: new Map(topic.options.map((o) => [o, new RegExp(o.pattern.source, 'i')])),
      before: new RegExp(`(?:${any})${MARKUP}${SEPARATOR}${MARKUP}$`, 'i'),
      after: new RegExp(`^${MARKUP}${SEPARATOR}${MARKUP}(?:${any})`, 'i'),
    };
    lists.set(topic, p);
  }
  return p;
}

/**
 * Whether an option mentioned at `index` is required (true), ruled out (false) or not claimed at all
 * (null). Options listed together ("npm, yarn or pnpm") are alternatives, not a choice, unless a
 * negation rules the whole list out ("do not use npm/yarn/pnpm").
 */
export function readOption(topic: ClaimTopic, option: ClaimOption, text: string, index: number, length: number): boolean | null {
  const before = text.slice(0, index);
  const after = text.slice(index + length);
  const p = listPatterns(topic);
  let lead = before;
  let listed = p.after.test(after);
  for (let m = p.before.exec(lead); m; m = p.before.exec(lead)) {
    lead = lead.slice(0, m.index);
    listed = true;
  }
  lead = lead.replace(/[`*_"'([]+$/, '');
  if (!topic.choice) {
    const negative = topic.negatable && NEGATION_BEFORE.test(lead);
    return listed && !negative ? null : !negative;
  }
  if (topic.choice.negative.test(lead)) {
    // "never run `yarn lint` with file arguments" forbids one command, not the tool.
    const command = before.endsWith('`') && /^ [^\s`]/.test(after);
    return command ? null : false;
  }
  // "pnpm, not npm" rules npm out; "`bun run compile`, not `bun run build`" contrasts two commands of one tool.
  const clause = lead
    .split(/[.;!?](?:\s|$)/)
    .pop()!
    .replace(CONTRAST_BEFORE, '');
  if (CONTRAST_BEFORE.test(lead) && [...p.one].some(([o, re]) => o !== option && re.test(clause))) return false;
  if (listed) return null;
  return topic.choice.positive.test(lead) || topic.choice.positiveAfter?.test(after) ? true : null;
}

/** The command of the code span `index` falls in (the part between `&&`, `;` or `|`), and where `index` is in it; null outside a span. */
function spanCommand(text: string, index: number): { before: string; command: string } | null {
  const open = text.lastIndexOf('`', index - 1);
  const close = text.indexOf('`', index);
  if (open < 0 || close < 0 || (text.slice(0, open).match(/`/g)?.length ?? 0) % 2 === 1) return null;
  const start = Math.max(open, ...['&&', ';', '|'].map((s) => text.lastIndexOf(s, index - 1) + s.length - 1));
  const ends = ['&&', ';', '|'].map((s) => text.indexOf(s, index)).filter((e) => e >= 0 && e < close);
  return { before: text.slice(start + 1, index), command: text.slice(start + 1, Math.min(close, ...ends)) };
}

/** Whether the name at `index` is one of options written with slashes ("npm/yarn/pnpm"), not a path. */
function optionsBySlash(topic: ClaimTopic, text: string, index: number): boolean {
  const start = text.slice(0, index).search(/[\w@/.-]*$/);
  const token = /^[\w@/.-]*/.exec(text.slice(start))![0].replace(/[./-]+$/, '');
  const parts = token.split('/');
  const one = listPatterns(topic).one;
  return parts.length > 1 && parts.every((w) => [...one.values()].some((re) => re.exec(w)?.[0] === w));
}

/** Before a tool's name, words that compare with it or describe by it ("compatible with X", "similar to X"). */
const DESCRIBES_BY = /\b(?:compatible with|similar to|inspired by|modell?ed (?:on|after)|akin to|like)\s+[`*_"']*$/i;

/**
 * Whether a tool's name at `index` names something else (issue 39): part of a longer name
 * (`x-client`, `x.toml`, `tools/x/`, a compound adjective "X-compatible"), a comparison ("similar
 * to X"), or an argument of another program's command (`other run x compile`).
 */
export function notTheTool(topic: ClaimTopic, text: string, index: number, length: number): boolean {
  if (/[\w@/.-]/.test(text[index - 1] ?? ' ') || /^(?:[-.][\w]|\/)/.test(text.slice(index + length, index + length + 2)))
    return !optionsBySlash(topic, text, index);
  if (DESCRIBES_BY.test(text.slice(0, index))) return true;
  const span = spanCommand(text, index);
  if (span === null || span.before.trim() === '') return false;
  // A package manager or launcher running the tool (`pnpm vitest`, `npx jest`, `python -m pytest`) uses it.
  const runner = normalizeCommand(span.command).split(' ')[0]!.toLowerCase();
  return !runner.startsWith(text.slice(index, index + length).toLowerCase()) && !(runner in COMMAND_TOOLS);
}
