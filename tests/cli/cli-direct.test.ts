import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, openSession } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, sandbox, tempDir, writeFile } from '../helpers/sandbox.js';

/**
 * The CLI calls its steps directly (cli/direct.ts), without an MCP client: the same --json as the
 * tool's structuredContent, the same text as the MCP server gives with the CLI's options, and a
 * process that never loads the MCP SDK (only `serve` does).
 */

const FILES = {
  'AGENTS.md': MESSY_INSTRUCTIONS,
  'CLAUDE.md': '# Claude\n\n- Use pnpm to install dependencies.\n- Keep functions small.\n',
  '.cursor/rules/api.mdc':
    '---\ndescription: API handlers\nglobs: src/api/**/*.ts\nalwaysApply: false\n---\n- Validate every request body.\n',
};

function cli(args: string[], env: Record<string, string> = {}) {
  const e: Record<string, string | undefined> = { ...process.env, ...env };
  delete e.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, args, { encoding: 'utf8', input: '', env: e });
}

test("the CLI's --json is the tool's structuredContent for the same repository (analyze, propose, status)", async (t) => {
  const repo = sandbox(t, FILES);
  const mcp = await openSession(t, { repo });
  // The first call creates .copilot-state/ and says so once: both faces are compared after it.
  await mcp.call('onboarding_analyze');
  for (const [command, tool] of [
    ['analyze', 'onboarding_analyze'],
    ['propose', 'onboarding_propose'],
    ['status', 'onboarding_status'],
  ] as const) {
    const viaMcp = await mcp.call(tool);
    const r = cli([CLI, command, '--json', '--repo', repo]);
    assert.equal(r.status, 0, r.stderr);
    const atCli = JSON.parse(r.stdout);
    const overMcp = JSON.parse(JSON.stringify(viaMcp.structuredContent));
    if (command === 'status') {
      // Status's next step is a sentence: a tool's name for a model, a command for a person (call/words.ts).
      assert.match(overMcp.next, /run onboarding_approve\.$/);
      assert.match(atCli.next, / approve --repo /);
      atCli.next = overMcp.next;
    }
    assert.deepEqual(atCli, overMcp, command);
  }
});

test('the direct call says what the MCP server says with the same options, word for word, and cuts a long reply the same way', async (t) => {
  const { callDirect } = await import('../../server/src/cli/direct.js');
  const { callOverMcp } = await import('../helpers/in-process.js');
  const files: Record<string, string> = { ...FILES };
  // Enough rules for the plan's text to be cut (narrate/bounded.ts).
  for (let i = 0; i < 120; i++) {
    const body = Array.from({ length: 12 }, (_, j) => `- Rule ${j} of area ${i}: keep module ${i} handler ${j} small and typed.`).join(
      '\n',
    );
    files[`.cursor/rules/area-${i}.mdc`] =
      `---\ndescription: Area ${i}\nglobs: src/area-${i}/**/*.ts\nalwaysApply: false\n---\n# Area ${i}\n\n${body}\n`;
  }
  const a = sandbox(t, files);
  const b = sandbox(t, files);
  const options = { cliCommand: 'copilot-onboard' };
  for (const tool of ['onboarding_status', 'onboarding_analyze', 'onboarding_propose', 'onboarding_status'] as const) {
    const direct = await callDirect({ explicit: a, cwd: a, root: a }, tool, { ...options, repoArg: 'REPO' });
    const inProcess = await callOverMcp({ explicit: b, cwd: b }, tool, { ...options, repoArg: 'REPO' });
    // The repositories differ only in their folder, which status names.
    const same = (r: typeof direct, dir: string) => JSON.parse(JSON.stringify(r).replaceAll(dir, 'DIR'));
    assert.deepEqual(same(direct, a), same(inProcess, b), tool);
  }
  const cut = await callDirect({ explicit: a, cwd: a, root: a }, 'onboarding_propose', options);
  assert.ok((cut.structuredContent as { truncated?: unknown }).truncated, 'the reply was cut, as it is over MCP');
});

test('analyze takes the listing git made before it began, unless a journal says files may move first', async (t) => {
  const { callDirect } = await import('../../server/src/cli/direct.js');
  const repo = sandbox(t, { 'AGENTS.md': '# Agents\n\n- Use pnpm.\n' });
  const analyzed = async () => {
    // A made-up early listing, which names no file: a scan that takes it finds nothing.
    const r = await callDirect(
      { explicit: repo, cwd: repo, root: repo },
      'onboarding_analyze',
      {},
      { root: repo, files: Promise.resolve([]) },
    );
    return (r.structuredContent as { sources: Array<{ path: string }> }).sources.map((s) => s.path);
  };
  assert.deepEqual(await analyzed(), [], 'the early listing was not taken');
  // The journal of an interrupted migrate (a damaged one here, which recovery reports and leaves as it is).
  writeFile(repo, '.copilot-state/journal.json', '{}');
  assert.deepEqual(await analyzed(), ['AGENTS.md'], 'the early listing was taken, though recovery may move files first');
});

/** Runs the CLI with a loader hook that writes every module URL it resolves, and returns them with their text. */
function loadedBy(args: string[], cwd: string): { urls: string[]; status: number | null; texts: Map<string, string> } {
  const log = path.join(cwd, 'loaded.txt');
  const hook = path.join(cwd, 'hook.mjs');
  fs.writeFileSync(
    hook,
    `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(
      "import fs from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); fs.appendFileSync(process.env.LOADED_LOG, r.url + '\\n'); return r; }\n",
    )}));\n`,
  );
  const r = cli(['--import', pathToFileURL(hook).href, CLI, ...args], { LOADED_LOG: log });
  const resolved = [...new Set(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  // A file of the build that runs a CommonJS file beside it through node:vm (code-cache.ts: the
  // read-only commands' and serve's), which no module hook sees: that file is counted as loaded too.
  const besides = resolved
    .map((u) => u.replace(/\.js$/, '.cjs'))
    .filter((u) => u.startsWith('file:') && u.endsWith('.cjs') && fs.existsSync(new URL(u)));
  const urls = [...new Set([...resolved, ...besides])];
  const texts = new Map(urls.filter((u) => u.startsWith('file:')).map((u) => [u, fs.readFileSync(new URL(u), 'utf8')]));
  return { urls, status: r.status, texts };
}

/** The SDK (the 1.x package or the v2 ones), by its URL (an unbundled build) or by esbuild's comment naming each bundled module's path. */
const SDK = /@modelcontextprotocol\/(sdk|server|client|core|node)\//;
function sdkModules(run: ReturnType<typeof loadedBy>): string[] {
  return run.urls.filter((u) => SDK.test(u) || SDK.test(run.texts.get(u) ?? ''));
}

test('analyze, propose, status, traces and the gated commands do not load the MCP SDK; serve does', (t) => {
  const repo = sandbox(t, FILES);
  const tmp = tempDir(t, 'co-loaded-');
  for (const command of [['analyze'], ['propose'], ['status'], ['traces', 'list']]) {
    const run = loadedBy([...command, '--json', '--repo', repo], tmp);
    assert.equal(run.status, 0, command.join(' '));
    assert.ok(
      run.urls.some((u) => u.endsWith('/cli.js')),
      'the hook saw the CLI load',
    );
    assert.deepEqual(sdkModules(run), [], `${command.join(' ')} loaded the MCP SDK`);
    fs.rmSync(path.join(tmp, 'loaded.txt'));
  }
  // approve, migrate and rollback ask the person at the terminal through their own port (cli/terminal-person.ts).
  for (const command of ['approve', 'migrate', 'rollback']) {
    const run = loadedBy([command, '--json', '--repo', repo], tmp);
    assert.ok([3, 4].includes(run.status ?? -1), `${command} exited ${run.status}`);
    assert.deepEqual(sdkModules(run), [], `${command} loaded the MCP SDK`);
    fs.rmSync(path.join(tmp, 'loaded.txt'));
  }
  // The check sees the SDK where it is loaded: serve (on stdio, which ends with its empty input).
  const serve = loadedBy(['serve', '--repo', repo], tmp);
  assert.notDeepEqual(sdkModules(serve), [], 'the check found the SDK in serve');
});
