import path from 'node:path';

/**
 * Tool results are written for a model first. Shown in a terminal, tool names become the commands
 * that do the same, and sentences meant only for a model are left out. The MCP text stays whole.
 */

/** `onboarding_migrate`, and `copilot-onboard migrate` in text the CLI did not write, become the command as typed here. */
const TOOL_NAME = /(?<![\w-]|npx )(?:onboarding_|copilot-onboard )(analyze|propose|approve|migrate|rollback|status|traces)\b/g;
const FOR_MODELS = [/ ?Do not ask again unless the person asks for it\./g];

export function forPerson(text: string, command = cliCommand()): string {
  let out = text.replace(TOOL_NAME, (_, step: string) => `${command} ${step}`);
  for (const sentence of FOR_MODELS) out = out.replace(sentence, '');
  return out;
}

/** How to run this CLI again, as typed: the installed command, npx, or node with the script's path. */
export function cliCommand(argv = process.argv, env = process.env): string {
  const script = argv[1] ?? '';
  if (path.basename(script) === 'cli.js') return `node ${shellQuote(path.resolve(script))}`;
  return env.npm_command === 'exec' ? 'npx copilot-onboard' : 'copilot-onboard';
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
