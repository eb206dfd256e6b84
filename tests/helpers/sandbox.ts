import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A real `git init` repository in a temp dir, with the given files (path → content). */
export function makeRepo(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'co-test-'));
  execFileSync('git', ['init', '-q', dir]);
  for (const [rel, content] of Object.entries(files)) writeFile(dir, rel, content);
  return dir;
}

export function writeFile(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

export function removeRepo(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** sha256 of every file outside .git and .copilot-state, by path: a tree fingerprint. */
export function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (dir === root && (entry.name === '.git' || entry.name === '.copilot-state')) continue;
      const abs = path.join(dir, entry.name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (entry.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(abs)}`;
      else if (entry.isDirectory()) walk(abs);
      else out[rel] = createHash('sha256').update(fs.readFileSync(abs)).digest('hex');
    }
  };
  walk(root);
  return out;
}

export type TraceKind = 'elicitation' | 'sampling';

/** Trace files of one kind, parsed, oldest first, with their file names. */
export function readTraces(root: string, kind: TraceKind): Array<Record<string, any> & { _file: string }> {
  const dir = path.join(root, '.copilot-state', `${kind}-traces`);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => ({ ...JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')), _file: n }));
}

export function readState(root: string): Record<string, any> | null {
  const file = path.join(root, '.copilot-state', 'onboarding.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

/** An unstructured copilot-instructions.md with one exact duplicate and one contradiction. */
export const MESSY_INSTRUCTIONS = `# Project guidelines

This is a TypeScript service for invoices.

- Use pnpm for all package management.
- Run tests with vitest before every commit.
- Indent with 2 spaces.
- Use single quotes for strings.
- Never commit secrets or API keys.
- Use npm to install dependencies.
- Indent with 2 spaces.
- Document public functions with JSDoc.
- Target Node 20.
`;

/** A flat file with no problems: only structuring to do. */
export const FLAT_INSTRUCTIONS = `# Guidelines

- Use pnpm for all package management.
- Run tests with vitest before every commit.
- Indent with 2 spaces.
- Document public functions with JSDoc.
- Never commit secrets or API keys.
`;

export const STRUCTURED_INSTRUCTIONS = `# Guidelines

## Build

- Use pnpm for all package management.

## Testing

- Run tests with vitest before every commit.
`;
