import path from 'node:path';
import { durationForPerson } from '../common/outcomes.js';

/** How to run this CLI again, as typed: the installed command, npx, or node with the script's path. */
export function cliCommand(argv = process.argv, env = process.env): string {
  const script = argv[1] ?? '';
  if (path.basename(script) === 'cli.js') return `node ${shellQuote(path.resolve(script))}`;
  return env.npm_command === 'exec' ? 'npx copilot-onboard' : 'copilot-onboard';
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The gate's refusal and approval sentences in the words of the person at the terminal: "You closed
 * the form", "you answered No", "within 3 minutes", "the conflict about X: keep both". Only the
 * tool's own sentences at the start of a result are rewritten, found by their exact wording; text
 * from files, paths and diffs is never touched. `--json` and the traces keep the outcome codes.
 */
export interface ConflictWords {
  /** What the rules are about: "package manager". */
  topic: string;
  /** Each location as `path:line`, in the plan's order (`keep_K` keeps the side of the K-th). */
  locations: string[];
}

export function toPerson(text: string, outcome: string, conflicts: ReadonlyMap<string, ConflictWords> = new Map()): string {
  switch (outcome) {
    case 'cancelled':
      return text.replace(/^The person dismissed the request\./, 'You closed the form.');
    case 'declined':
      return text.replace(/^The person declined\./, 'You answered No.');
    case 'not_confirmed':
      return text.replace(/^The form was sent, but "[^"]*"(?: and "[^"]*")* (?:was|were) not confirmed\./, 'You answered No.');
    case 'timeout':
      return text.replace(/^No answer came within (\d+) ms;/, (_, ms: string) => `No answer came within ${durationForPerson(Number(ms))};`);
    case 'elicitation_unsupported':
      return text.replace(
        /^The (\w+) step needs a person's answer, and this client cannot show a form \(it did not declare MCP elicitation\)\. Nothing was changed\. Use a client with elicitation, or the terminal: /,
        (_, step: string) => `The ${step} step needs your answer, and it cannot show a form here: there is no terminal to ask you in. Nothing was changed. Run it in a terminal: `,
      );
    case 'approved':
      return text.replace(/^(Plan [0-9a-f]{12} is approved with these choices: )(.*?)(\. Next: )/s, (_, head: string, list: string, tail: string) =>
        head +
        list.replace(/\bconflict_(\d+): keep_(all|\d+)\b/g, (_m, n: string, keep: string) => {
          const c = conflicts.get(`conflict_${n}`);
          const name = c ? `the conflict about ${c.topic}` : `conflict ${n}`;
          if (keep === 'all') return `${name}: keep all its rules`;
          const at = c?.locations[Number(keep) - 1];
          return `${name}: keep the rule at ${at ?? `its location ${keep}`}`;
        }) +
        tail,
      );
    default:
      return text;
  }
}
