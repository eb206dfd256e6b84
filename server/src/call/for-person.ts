import path from 'node:path';

/** How to run this CLI again, as typed: the installed command, npx, or node with the script's path. */
export function cliCommand(argv = process.argv, env = process.env): string {
  const script = argv[1] ?? '';
  if (path.basename(script) === 'cli.js') return `node ${shellQuote(path.resolve(script))}`;
  return env.npm_command === 'exec' ? 'npx copilot-onboard' : 'copilot-onboard';
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
