import path from 'node:path';
import { CLI_PATH } from '../package-root.js';

/**
 * How to run this CLI again, as typed, from the person's own repository: the installed command, or
 * node with this build's path. Never a bare `npx copilot-onboard`: the package is not on the npm
 * registry, so that would fetch whatever someone publishes under the name (today: a 404). Run by
 * npx, the command is `npx --no-install copilot-onboard` where the package is installed (this build
 * sits in a node_modules folder), and node with this build's path from a checkout.
 */
export function cliCommand(argv = process.argv, env = process.env, cliPath: string | null = CLI_PATH): string {
  const script = argv[1] ?? '';
  if (path.basename(script) === 'cli.js') return `node ${shellQuote(path.resolve(script))}`;
  if (env.npm_command !== 'exec') return 'copilot-onboard';
  if (cliPath === null || cliPath.split(/[\\/]/).includes('node_modules')) return 'npx --no-install copilot-onboard';
  return `node ${shellQuote(cliPath)}`;
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
