/**
 * How often, not whether (issue 29, the same action with another frequency): "Always start the stack
 * with `make up`" and "Run `make up` only when you must: it wipes the local database" name one command,
 * one as routine and one as a last resort. Worth a second look: the reader cannot tell alone which
 * holds.
 */
import { pushTo } from '../../common/collections.js';
import { normalizeCommand } from '../contradictions/tools.js';
import { meet, problem, type Drifted, type Line } from './drift-lines.js';

const ROUTINE = /\b(?:always|every time|each time|before (?:every|each)|after (?:every|each))\b/i;
const RARELY = /\bonly (?:when|if)\b|\bsparingly\b|\bas a last resort\b|\brarely\b|\bunless (?:you )?(?:must|have to|really)\b/i;
const NEGATED = /\b(?:never|don'?t|do not|must not|should not|avoid)\b/i;
const WORDS = /always|every time|each time|before e|after e|only when|only if|sparingly|last resort|rarely|unless/i;

/** The commands (code spans of two words or more) a line names. */
const commandsOf = (text: string) =>
  [...text.matchAll(/`([^`\n]+)`/g)].map((m) => normalizeCommand(m[1]!.trim())).filter((c) => /^\S+ \S/.test(c));

/** Whether a line may say how often to run a command it names: the only lines `frequencyPairs` reads. */
export const mayStateFrequency = (text: string): boolean => text.includes('`') && WORDS.test(text);

/** The pairs among the prose lines (drift-lines.ts linesOf) that `mayStateFrequency` keeps. */
export function frequencyPairs(lines: readonly Line[]): Drifted[] {
  const routine = new Map<string, Line[]>();
  const rarely = new Map<string, Line[]>();
  for (const l of lines) {
    if (NEGATED.test(l.text)) continue;
    const often = ROUTINE.test(l.text);
    const seldom = RARELY.test(l.text);
    if (often === seldom) continue;
    for (const c of commandsOf(l.text)) pushTo(often ? routine : rarely, c, l);
  }
  const out: Drifted[] = [];
  for (const [command, seldom] of rarely) {
    const often = (routine.get(command) ?? []).filter((x) => seldom.some((y) => (y.path !== x.path || y.unit !== x.unit) && meet(x, y)));
    if (often.length > 0) out.push(problem('frequency', command, 'routine in one rule, only when needed in the other', [often, seldom]));
  }
  return out;
}
