/**
 * Commands a prose line gives as steps (issue 29, commands are objects too): "Add dependencies with
 * `pnpm add <pkg>`" uses pnpm as surely as a setup block does, and meets "Never use pnpm; Yarn only".
 */
import { commandTool, normalizeCommand, oneOffCommand } from './tools.js';

const NONE: readonly string[] = [];

/** Words that make a code span an example of what not to do, or one option among others. */
const NOT_A_STEP =
  /\b(?:not|never|don'?t|do not|avoid|instead of|rather than|wrong|bad|incorrect|deprecated|or|vs\.?|versus|e\.g|i\.e|for (?:example|instance)|such as)\b|[\u274C\u2717\u2718\u26D4]/i;
/** Package managers: how a step adds or runs things names the project's one (a test run on a folder names no choice). */
const MANAGERS = new Set(['package-manager', 'python-package-manager']);
/** A sentence that tells the reader to do something: it starts with the verb (after a list marker or a bold label). */
const DIRECTS =
  /^(?:[-*+]\s+|\d+[.)]\s+)?(?:(?:\*\*|__)[^*_]{1,40}(?:\*\*|__):?\s*)?(?:to\s+[^,]{1,40},\s*)?(?:please\s+)?(?:always\s+)?(?:add|install|use|run|execute|start|build|test|lint|format|create|generate|set up|deploy|publish|upgrade|update|bump|check|compile|serve|launch)\b/i;

/**
 * The commands a prose line gives as the way to do something ("Add dependencies with `pnpm add
 * <pkg>`"): a code span running a package manager with a subcommand, in a sentence that starts with
 * its verb and a clause that neither forbids nor contrasts it, and not a one-off. Like a setup step,
 * it uses the tool without choosing it (a weak claim: it meets a rule, never another step).
 */
export function proseCommands(line: string): readonly string[] {
  if (!line.includes('`') || line.trimStart().startsWith('|')) return NONE;
  const out: string[] = [];
  for (const m of line.matchAll(/`([^`\n]+)`/g)) {
    const command = normalizeCommand(m[1]!);
    if (!/^\S+ [a-z][\w:-]*/.test(command) || !MANAGERS.has(commandTool(command)?.topic ?? '') || oneOffCommand(command)) continue;
    // The sentence must start on this line with its verb: a wrapped line of a description ("is
    // installed lazily via `npm install`") gives no step.
    const sentence = line
      .slice(0, m.index)
      .split(/[.;!?](?:\s|$)/)
      .pop()!;
    const clause =
      sentence.split(/[:\u2014](?:\s|$)|\s[-\u2013]\s/).pop()! + line.slice(m.index + m[0].length).split(/[.;!?](?:\s|$)|[,)]/)[0]!;
    if (DIRECTS.test(sentence.trimStart()) && !NOT_A_STEP.test(clause)) out.push(command);
  }
  return out.length === 0 ? NONE : out;
}
