import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The MCP SDK stays in mcp/: the flow (steps, gate, narration, engine...) talks to the person and
 * the model through call/ports.ts, which mcp/ports.ts implements over the SDK, and the CLI's
 * terminal through a port of its own (cli/terminal-person.ts). A move to the SDK's next major
 * version then touches mcp/ alone. In cli/, only `serve` starts the server.
 */

const SRC = path.resolve(import.meta.dirname, '../../server/src');
const ALLOWED_OUTSIDE_MCP = new Set(['cli/serve-command.ts']);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The SDK's packages: the 1.x line (`sdk`) and the v2 packages (`server`, `client`, `core`, `node`). */
const SDK_IMPORT = /['"]@modelcontextprotocol\/(sdk|server|client|core|node)[/'"]/;

test('only mcp/ (and the command that starts the server) import the MCP SDK', () => {
  const offenders = sources(SRC)
    .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
    .filter((rel) => !rel.startsWith('mcp/') && !ALLOWED_OUTSIDE_MCP.has(rel))
    .filter((rel) => SDK_IMPORT.test(fs.readFileSync(path.join(SRC, rel), 'utf8')));
  assert.deepEqual(offenders, [], `these files import the MCP SDK outside mcp/: ${offenders.join(', ')}`);
});

/** An import of a module of mcp/ from a file of cli/ (or cli.ts), relative as the sources write it. */
const MCP_IMPORT = /(?:from|import)\s*\(?\s*['"](?:\.\.\/mcp|\.\/mcp)\//;

test('the CLI reaches mcp/ only to serve: every other command calls its step through steps/ (cli/direct.ts)', () => {
  const cli = sources(path.join(SRC, 'cli')).map((f) => path.relative(SRC, f).split(path.sep).join('/'));
  const offenders = [...cli, 'cli.ts'].filter(
    (rel) => !ALLOWED_OUTSIDE_MCP.has(rel) && MCP_IMPORT.test(fs.readFileSync(path.join(SRC, rel), 'utf8')),
  );
  assert.deepEqual(offenders, [], `these CLI files import mcp/: ${offenders.join(', ')}`);
  assert.match(`const http = await import('../mcp/http.js');`, MCP_IMPORT);
  assert.match(`import { repoChoice } from './mcp/repo.js';`, MCP_IMPORT);
  assert.doesNotMatch(`import { callStep } from '../steps/tool-call.js';`, MCP_IMPORT);
});

test('the scan sees an import of the SDK, in either line', () => {
  assert.match(`import type { Server } from '@modelcontextprotocol/sdk/server/index.js';`, SDK_IMPORT);
  assert.match(`import { Server } from '@modelcontextprotocol/server';`, SDK_IMPORT);
  assert.match(`import { serveStdio } from '@modelcontextprotocol/server/stdio';`, SDK_IMPORT);
  assert.match(`import { toNodeHandler } from "@modelcontextprotocol/node";`, SDK_IMPORT);
  assert.doesNotMatch(`import x from '@modelcontextprotocol/server-filesystem';`, SDK_IMPORT);
});
