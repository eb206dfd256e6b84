/**
 * Commands and tools, as data: how a command is written the same way twice (`npm i` is
 * `npm install`), which tools a command runs, and which settings a setup step states (`nvm use 18`).
 */

/** Spellings of one command, rewritten to one form. Applied word-wise to the command's start. */
const COMMAND_ALIASES: readonly [RegExp, string][] = [
  [/^(npm|pnpm) (?:i|add|isntall)\b/, '$1 install'],
  [/^npm (?:t|tst)\b/, 'npm test'],
  [/^npm run (test|start)\b/, 'npm $1'],
  [/^pnpm run (?!build\b)/, 'pnpm '],
  [/^yarn run /, 'yarn '],
  [/^yarn install\b/, 'yarn'],
  [/^(?:python3?(?:\.\d+)?|py) -m (pip|pytest|black|ruff|mypy|unittest|poetry)\b/, '$1'],
  [/^pip3\b/, 'pip'],
  [/^python3(?:\.\d+)?\b/, 'python'],
  [/^npx (?:--yes |-y )?/, ''],
  [/^pnpm (?:exec|dlx) /, ''],
  [/^yarn dlx /, ''],
  [/^bunx /, ''],
  [/^(?:\.\/)?node_modules\/\.bin\//, ''],
  [/^(?:\.\/)?vendor\/bin\//, ''],
];

/** One command in one spelling: no prompt, no trailing comment, single spaces, aliases resolved. */
export function normalizeCommand(raw: string): string {
  let c = raw
    .trim()
    .replace(/^[$>#%]\s+/, '')
    .replace(/\s+#.*$/, '')
    .replace(/\s+/g, ' ');
  for (const [re, to] of COMMAND_ALIASES) c = c.replace(re, to);
  return c;
}

/**
 * Tools a person chooses one of, by topic (claims.ts reads the prose for the same topics through
 * topics.ts): the first word of a setup command that names one of them is a use of it.
 */
export const COMMAND_TOOLS: Readonly<Record<string, { topic: string; value: string }>> = {
  npm: { topic: 'package-manager', value: 'npm' },
  yarn: { topic: 'package-manager', value: 'yarn' },
  pnpm: { topic: 'package-manager', value: 'pnpm' },
  bun: { topic: 'package-manager', value: 'bun' },
  pip: { topic: 'python-package-manager', value: 'pip' },
  uv: { topic: 'python-package-manager', value: 'uv' },
  poetry: { topic: 'python-package-manager', value: 'Poetry' },
  pipenv: { topic: 'python-package-manager', value: 'Pipenv' },
  jest: { topic: 'test-framework', value: 'Jest' },
  vitest: { topic: 'test-framework', value: 'Vitest' },
  mocha: { topic: 'test-framework', value: 'Mocha' },
  pytest: { topic: 'python-test-framework', value: 'pytest' },
  prettier: { topic: 'js-formatter', value: 'Prettier' },
  biome: { topic: 'js-formatter', value: 'Biome' },
  eslint: { topic: 'js-linter', value: 'ESLint' },
  nx: { topic: 'task-runner', value: 'Nx' },
  turbo: { topic: 'task-runner', value: 'Turborepo' },
  black: { topic: 'python-formatter', value: 'Black' },
};

/** Commands that only fetch or run a tool once (a global install, a scaffold) say nothing about the project's choice. */
const ONE_OFF =
  /(?:\s-g\b|\s--global\b|^npm (?:create|init|exec)\b|^(?:npm|pnpm|yarn|bun) (?:install|add) -g\b|^corepack\b|\binstall (?:pnpm|yarn|bun|uv|poetry)\b)/;

/** The tool a package manager runs for a command (`pnpm turbo run build`, `npx nx affected`): its binary, when a topic knows it. */
export function runnerTool(command: string): { topic: string; value: string } | null {
  const words = command.split(' ');
  if (words.length < 3 || !/^(?:npm|pnpm|yarn|bun)$/.test(words[0]!)) return null;
  const tool = COMMAND_TOOLS[words[1]!.toLowerCase()];
  return tool && tool.topic === 'task-runner' ? tool : null;
}

/** The tool of choice a command runs, or null (a one-off, or a tool no topic knows). */
export function commandTool(command: string): { topic: string; value: string } | null {
  if (ONE_OFF.test(command) || addsAPackage(command)) return null;
  const first = command.split(' ')[0]!.toLowerCase();
  return COMMAND_TOOLS[first] ?? null;
}

/** A command that fetches or runs something once, or adds one named package: it says nothing about the project's tools. */
export function oneOffCommand(command: string): boolean {
  return ONE_OFF.test(command) || addsAPackage(command);
}

/**
 * `npm add left-pad`, `pip install requests`: adding one named package is a snippet for whoever reads
 * it (often a user of the library), not the project's setup. `npm install`, `pip install -r x.txt`,
 * `pip install -e .` and `pnpm add <pkg>` (a slot, not a package) set the project up.
 */
function addsAPackage(command: string): boolean {
  const m = /^\S+ (?:install|add|i)\b(.*)$/.exec(command);
  if (!m) return false;
  const args = m[1]!
    .replace(/\s(?:-r|--requirement|-e|--editable|-c)\s+\S+/g, ' ')
    .split(' ')
    .filter((a) => a !== '' && !a.startsWith('-') && a !== '.');
  // `pnpm add <pkg>` is how the project adds any package: its package manager's command, not a snippet.
  return args.length > 0 && !args.every((a) => PLACEHOLDER.test(a));
}

/** An argument written as a slot to fill: `<pkg>`, `[package]`, `{name}`, `PACKAGE`, `...`. */
const PLACEHOLDER = /^(?:<[^>]+>|\[[^\]]+\]|\{[^}]+\}|[A-Z][A-Z_]{2,}|\.\.\.|\u2026)$/;

/** Versions a setup command pins: `nvm use 18`, `pyenv install 3.10`, `uv python install 3.12`. */
const VERSION_COMMANDS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'Node.js', pattern: /^(?:nvm|fnm|n|volta)\s+(?:use|install|default|pin)?\s*(?:node@)?v?(\d+(?:\.\d+){0,2})\b/ },
  { name: 'Node.js', pattern: /^nvm alias default v?(\d+(?:\.\d+){0,2})\b/ },
  {
    name: 'Python',
    pattern:
      /^(?:pyenv (?:install|local|global|shell)|uv python (?:install|pin)|uv venv --python|conda create .*python=)\s*(\d+(?:\.\d+){0,2})\b/,
  },
  { name: 'Python', pattern: /^python(\d\.\d+)\b/ },
];

export function commandVersions(command: string): { key: string; name: string; value: string }[] {
  const out: { key: string; name: string; value: string }[] = [];
  for (const v of VERSION_COMMANDS) {
    const m = v.pattern.exec(command);
    if (m) out.push({ key: v.name, name: v.name, value: m[1]! });
  }
  return out;
}

/** Fence languages of shell steps; an unmarked fence counts when its lines are commands a topic knows. */
export const SHELL_FENCES = new Set([
  'bash',
  'sh',
  'shell',
  'console',
  'zsh',
  'terminal',
  'shellscript',
  'cmd',
  'powershell',
  'ps1',
  'pwsh',
]);

/**
 * Words a command runs for: the role a labelled line or a strict rule gives it
 * ("**Build**: `bun run compile`", "To run all tests: `php artisan test`").
 */
export const COMMAND_ROLES: Readonly<Record<string, string>> = {
  build: 'build',
  builds: 'build',
  building: 'build',
  compile: 'build',
  test: 'test',
  tests: 'test',
  testing: 'test',
  lint: 'lint',
  linting: 'lint',
  linter: 'lint',
  format: 'format',
  formatting: 'format',
  formatter: 'format',
  typecheck: 'typecheck',
  'type-check': 'typecheck',
  typechecking: 'typecheck',
  dev: 'dev',
  develop: 'dev',
  serve: 'dev',
  install: 'install',
  setup: 'install',
};
