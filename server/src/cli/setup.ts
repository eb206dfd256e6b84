import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import { BadInputError } from '../core/errors.js';
import { writeAtomic } from '../state/atomic.js';

export const SERVER_NAME = 'copilot-onboard';
const VSCODE_ENTRY = { type: 'stdio', command: 'npx', args: ['copilot-onboard', 'serve'], cwd: '${workspaceFolder}' };

/** The snippet for each client, as `setup print` shows it. */
export function snippets(): string {
  const std = { command: 'npx', args: ['copilot-onboard', 'serve'] };
  return [
    'VS Code (.vscode/mcp.json in the repository; or run: copilot-onboard setup vscode):',
    JSON.stringify({ servers: { [SERVER_NAME]: VSCODE_ENTRY } }, null, 2),
    '',
    'Claude Code (run in the repository):',
    `claude mcp add ${SERVER_NAME} -- npx copilot-onboard serve`,
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
  file: string;
  before: string | null;
  after: string;
  diff: string;
}

/**
 * The new `.vscode/mcp.json`: the copilot-onboard entry set, every other server, input and comment
 * kept (jsonc-parser edits the text in place). Null when the file already has that entry.
 */
export function planVscodeSetup(repo: string): VscodeChange | null {
  const file = path.join(repo, '.vscode', 'mcp.json');
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  const text = before ?? '{}\n';
  const errors: ParseError[] = [];
  const current = parse(text, errors, { allowTrailingComma: true }) as { servers?: Record<string, unknown> } | undefined;
  if (errors.length > 0 || (current !== undefined && (typeof current !== 'object' || current === null || Array.isArray(current)))) {
    throw new BadInputError(`${file} is not valid JSON with comments; fix it first, nothing was written`);
  }
  if (JSON.stringify(current?.servers?.[SERVER_NAME]) === JSON.stringify(VSCODE_ENTRY)) return null;
  const after = applyEdits(text, modify(text, ['servers', SERVER_NAME], VSCODE_ENTRY, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  return { file, before, after, diff: createTwoFilesPatch(before === null ? '/dev/null' : 'a/.vscode/mcp.json', 'b/.vscode/mcp.json', before ?? '', after) };
}

export async function applyVscodeSetup(change: VscodeChange): Promise<void> {
  await writeAtomic(change.file, change.after);
}
