import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { parse, type ParseError } from 'jsonc-parser';
import { BadInputError } from '../common/errors.js';
import { readFile, writeFile } from '../repo/safe-fs.js';
import { insertProperty } from '../common/jsonc-insert.js';
import { CLI_PATH } from '../package-root.js';
import { cliCommand } from '../call/for-person.js';

export const SERVER_NAME = 'copilot-onboard';
const VSCODE_REL = '.vscode/mcp.json';

/** This build's entry point: a command that works without installing the package. */
const THIS_CLI = CLI_PATH ?? '/path/to/copilot-onboard/server/dist/cli.js';

/**
 * The command that starts the server, as the snippets write it. copilot-onboard is not on the npm
 * registry, so a bare `npx copilot-onboard` would fetch whatever someone publishes under that name
 * (or fail with a 404): never write it. Installed as a package (this build sits in a node_modules
 * folder), `npx --no-install copilot-onboard` runs the installed one and never fetches; from a
 * checkout, node runs this build by its path.
 */
export function serveCommand(cliPath: string | null = CLI_PATH): { command: string; args: string[] } {
  if (cliPath !== null && cliPath.split(/[\\/]/).includes('node_modules'))
    return { command: 'npx', args: ['--no-install', 'copilot-onboard', 'serve'] };
  return { command: 'node', args: [cliPath ?? THIS_CLI, 'serve'] };
}

const vscodeEntry = () => ({ type: 'stdio', ...serveCommand(), cwd: '${workspaceFolder}' });

/** The command line form of serveCommand, for `claude mcp add`. */
const commandLine = ({ command, args }: { command: string; args: string[] }) =>
  [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');

/** The package is not on the npm registry: `npx --no-install copilot-onboard` finds it only once it is installed. */
export function installNote(): string {
  return [
    'copilot-onboard is not on the npm registry, so `npx --no-install copilot-onboard` works only where it is installed',
    '(a bare `npx copilot-onboard` would fetch whatever someone publishes under that name).',
    'From a checkout (after npm ci && npm run build): npm install -g /path/to/copilot-onboard,',
    'or run npm pack there and install the .tgz it makes (npm install -g, or npm install -D in the repository to onboard).',
    `Without installing, use node and this build instead of npx: "command": "node", "args": [${JSON.stringify(THIS_CLI)}, "serve"].`,
  ].join('\n');
}

/**
 * Said before `setup vscode` writes an entry holding this machine's path to the build: the file is
 * usually committed, and the path works on no other machine. Offers the portable entry, which works
 * wherever the package is installed. Null when the entry is the portable one already.
 */
export function machineSpecificNote(cliPath: string | null = CLI_PATH): string | null {
  const std = serveCommand(cliPath);
  if (std.command !== 'node') return null;
  const portable = { type: 'stdio', command: 'npx', args: ['--no-install', 'copilot-onboard', 'serve'], cwd: '${workspaceFolder}' };
  return [
    `This entry runs node with this machine's path to the build (${std.args[0]}). .vscode/mcp.json is usually committed,`,
    'and that path works on no other machine. To keep the entry to yourself, add .vscode/mcp.json to .git/info/exclude.',
    'The portable form, for everyone who installs the package (npm install -D /path/to/copilot-onboard, or its .tgz from npm pack),',
    `is this entry instead:\n${JSON.stringify({ servers: { [SERVER_NAME]: portable } }, null, 2)}`,
  ].join('\n');
}

/** The password prompt VS Code shows for the HTTP token; its answer is kept by VS Code, not in mcp.json. */
const TOKEN_INPUT = {
  type: 'promptString',
  id: 'copilot-onboard-token',
  description: 'copilot-onboard HTTP token (COPILOT_ONBOARD_HTTP_TOKEN, or the one serve --http printed)',
  password: true,
};

/**
 * The VS Code form for `serve --http`, shown beside the stdio one (which stays the default): the
 * Authorization header is filled from a password prompt, so no token is ever written to the file.
 */
export function vscodeHttpSnippet(): string {
  const entry = { type: 'http', url: 'http://127.0.0.1:3333/mcp', headers: { Authorization: `Bearer \${input:${TOKEN_INPUT.id}}` } };
  return [
    `VS Code over HTTP instead: start \`${cliCommand()} serve --http\` yourself (it prints its URL and a token), and use`,
    'this entry and input; VS Code asks for the token once and keeps it, so start the server with',
    'COPILOT_ONBOARD_HTTP_TOKEN set to a secret of your own (never in a committed file) for a token that',
    'stays the same across restarts:',
    JSON.stringify({ inputs: [TOKEN_INPUT], servers: { [SERVER_NAME]: entry } }, null, 2),
  ].join('\n');
}

/** The snippet for each client, as `setup print` shows it. */
export function snippets(): string {
  const std = serveCommand();
  return [
    installNote(),
    '',
    `VS Code (.vscode/mcp.json in the repository; or run: ${cliCommand()} setup vscode):`,
    JSON.stringify({ servers: { [SERVER_NAME]: vscodeEntry() } }, null, 2),
    '',
    vscodeHttpSnippet(),
    '',
    'Claude Code (run in the repository):',
    `claude mcp add ${SERVER_NAME} -- ${commandLine(std)}`,
    '',
    'Cursor (.cursor/mcp.json in the repository):',
    JSON.stringify({ mcpServers: { [SERVER_NAME]: std } }, null, 2),
    '',
    'GitHub Copilot CLI (~/.copilot/mcp-config.json):',
    JSON.stringify({ mcpServers: { [SERVER_NAME]: { type: 'local', ...std, tools: ['*'] } } }, null, 2),
    '',
    'Forms (elicitation) are needed for approve, migrate and rollback; see docs/clients.md for which clients show them.',
  ].join('\n');
}

export interface VscodeChange {
  /** The repository, and the file as a repository path (what is written, through no link). */
  root: string;
  rel: string;
  /** The file's absolute path, for messages. */
  file: string;
  before: string | null;
  after: string;
  diff: string;
}

/**
 * The new `.vscode/mcp.json`: the copilot-onboard entry added, and every other byte as it was
 * (other servers keep their layout; inputs and comments stay). Null when the file already has a
 * copilot-onboard entry, whatever it holds: a custom one (such as `node …/cli.js`) is left alone.
 */
export async function planVscodeSetup(repo: string): Promise<VscodeChange | null> {
  const file = path.join(repo, '.vscode', 'mcp.json');
  // Read through no link: a .vscode that leads out of the repository is refused, never shown.
  const before = (await readFile(repo, VSCODE_REL))?.toString('utf8') ?? null;
  const text = before ?? '{}\n';
  const errors: ParseError[] = [];
  const current = parse(text, errors, { allowTrailingComma: true }) as { servers?: unknown } | undefined;
  if (errors.length > 0 || !isObject(current) || (current.servers !== undefined && !isObject(current.servers))) {
    throw new BadInputError(
      `${file} is not valid JSON with comments, or its "servers" is not an object; fix it first, nothing was written`,
    );
  }
  if (isObject(current.servers) && Object.hasOwn(current.servers, SERVER_NAME)) return null;
  const after = insertProperty(text, ['servers', SERVER_NAME], vscodeEntry());
  return {
    root: repo,
    rel: VSCODE_REL,
    file,
    before,
    after,
    diff: createTwoFilesPatch(before === null ? '/dev/null' : 'a/.vscode/mcp.json', 'b/.vscode/mcp.json', before ?? '', after),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function applyVscodeSetup(change: VscodeChange): Promise<void> {
  await writeFile(change.root, change.rel, change.after);
}
