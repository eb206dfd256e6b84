// Makes the code cache of the read-only file (scripts/bundle.mjs runs it at the end of the build):
// runs analyze and propose once, as `copilot-onboard analyze --json` would, on a small repository of
// instruction files in several formats, then writes the SHA-256 of the file and the bytecode V8
// compiled for it (server/src/code-cache.ts reads it). The repository is general on purpose, not the
// bench's: the cache should hold what any analyze runs. It runs with the flags the CLI runs with
// (none): V8 refuses a cache made under other flags.
// Usage: node scripts/warm-code-cache.mjs CJS_FILE CACHE_FILE [--serve] (the commands' output goes to stdout).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [file, cacheFile, mode] = process.argv.slice(2);
const dist = path.resolve(path.dirname(file), '..');
const { loadWithCodeCache, sourceDigest } = await import(path.join(dist, 'code-cache.js'));

// `--serve`: serve's file, started as a client starts it (the messages come on stdin), under V8's
// default flags as serve runs.
if (mode === '--serve') {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'copilot-onboard-warm-'));
  try {
    const loaded = loadWithCodeCache(file, null, []);
    await loaded.exports.serveStdio({ explicit: repo, cwd: repo }, {});
    fs.writeFileSync(cacheFile, Buffer.concat([sourceDigest(fs.readFileSync(file)), loaded.script.createCachedData()]));
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
  process.exit(0);
}

const FILES = {
  'AGENTS.md':
    '# Agents\n\n## Build\n\n- Use pnpm for all package management.\n- Run tests with `pnpm test` before you commit.\n- Node 20 or later.\n\n## Style\n\nFollow these:\n\n1. Use 2 spaces.\n2. Always use semicolons.\n\n```sh\npnpm install\n```\n\nSee [the guide](docs/guide.md).\n',
  'CLAUDE.md':
    '# Claude\n\nUse npm, not pnpm.\nNever use semicolons.\n**Testing:** run jest with coverage.\nSee @AGENTS.md for the rest.\n',
  '.github/copilot-instructions.md':
    '# Copilot\n\n- Use pnpm for all package management.\n- Prefer small, typed functions.\n- Write tests with vitest.\n- Requires Node >= 18.\n',
  '.github/instructions/api.instructions.md':
    '---\napplyTo: "src/api/**/*.ts"\n---\n# API\n\n- Validate every request body with zod.\n- Return errors as JSON.\n',
  '.cursor/rules/react.mdc':
    '---\ndescription: React components\nglobs: src/**/*.tsx\nalwaysApply: false\n---\n# React\n\n- Use function components and hooks.\n- Keep components small, typed and covered by a focused test.\n',
  '.cursor/rules/general.mdc':
    '---\ndescription: General\nglobs: src/**/*.ts, test/**\nalwaysApply: true\n---\n- Use pnpm for all package management.\n- Always use semicolons.\n- Keep module handlers small, typed and covered by a focused test.\n',
  'packages/web/AGENTS.md': '# Web\n\n- Keep components small, typed and covered by a focused test.\n- Run `pnpm lint` in src/web.\n',
  '.windsurfrules': '- Use yarn.\n- Prefer double quotes.\n',
  'GEMINI.md': '# Gemini\n\nRun `npm test` before each commit.\n',
  'src/api/index.ts': 'export {};\n',
};

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'copilot-onboard-warm-'));
try {
  execFileSync('git', ['init', '-q', repo]);
  for (const [rel, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  }
  const loaded = loadWithCodeCache(file, null);
  for (const tool of ['onboarding_analyze', 'onboarding_propose']) {
    const code = await loaded.exports.runReadOnly(tool, { repo, json: true });
    if (code !== 0) throw new Error(`${tool} of the warm-up repository exited with ${code}`);
  }
  fs.writeFileSync(cacheFile, Buffer.concat([sourceDigest(fs.readFileSync(file)), loaded.script.createCachedData()]));
} finally {
  fs.rmSync(repo, { recursive: true, force: true });
}
