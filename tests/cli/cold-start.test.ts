import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI } from '../helpers/mcp.js';
import { sandbox, tempDir } from '../helpers/sandbox.js';
import { moduleLogHook } from '../helpers/loaded-modules.js';

/**
 * The fixed cost of the read-only commands (docs/performance-history.md, "Cold start of the read-only commands"): cli.js and
 * chunks/read-only-cli.js are the only modules of the build they load (scripts/bundle.mjs), never the
 * rest of the CLI, yargs, the SDK or the terminal prompts; what only some runs need is imported when
 * needed: zod and the stored-file schemas (a file of their own, chunks/read-only-schemas.cjs) when a state file or a
 * trace is checked, proper-lockfile when a lock is taken; and a command ends once its output is out.
 */

const DIST = path.dirname(CLI);
const FILES = { 'AGENTS.md': '# Agents\n\n- Use pnpm.\n' };

function run(nodeArgs: string[], cwd: string, env: Record<string, string> = {}) {
  const e: Record<string, string | undefined> = { ...process.env, ...env };
  delete e.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, nodeArgs, { encoding: 'utf8', input: '', env: e, cwd });
}

/** Runs node with module hooks that write every module URL it resolves (ES modules and CommonJS); returns them, unique, in order. */
function loadedBy(
  nodeArgs: string[],
  tmp: string,
  env: Record<string, string> = {},
): { urls: string[]; status: number | null; stdout: string; stderr: string } {
  const hook = moduleLogHook(tmp);
  const r = run(['--import', hook.importArg, ...nodeArgs], tmp, { LOADED_LOG: hook.log, ...env });
  return { urls: hook.read(), status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const distFiles = (urls: string[]) =>
  urls.filter((u) => u.startsWith(pathToFileURL(DIST).href)).map((u) => path.relative(DIST, new URL(u).pathname));
const packages = (urls: string[]) =>
  [...new Set(urls.filter((u) => u.includes('/node_modules/')).map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)![1]!))].sort();

test('the read-only commands load cli.js and the read-only file alone as modules of the build (and the stored-file schemas beside it when they check a stored file), and no yargs, SDK or prompts; --version loads no yargs', (t) => {
  const repo = sandbox(t, FILES);
  const tmp = tempDir(t, 'co-cold-');
  const version = loadedBy([CLI, '--version'], tmp);
  assert.equal(version.status, 0);
  assert.equal(version.stdout, `${JSON.parse(fs.readFileSync(path.join(DIST, '../../package.json'), 'utf8')).version}\n`);
  assert.deepEqual(packages(version.urls), [], '--version loaded a package');
  assert.deepEqual(distFiles(version.urls), ['cli.js'], '--version loaded more of the build');
  // The rest of the CLI is a file of its own, with its chunks: --help loads it with yargs, the read-only commands do not.
  const help = loadedBy([CLI, '--help'], tmp);
  assert.ok(
    distFiles(help.urls).includes('chunks/cli-main.js') && packages(help.urls).includes('yargs'),
    'the hook saw the rest of the CLI load',
  );
  const ofBuild = (r: { urls: string[] }) => distFiles(r.urls);
  for (const command of [['analyze'], ['propose'], ['status'], ['traces'], ['traces', 'list'], ['traces', 'verify'], ['analyze']]) {
    const r = loadedBy([CLI, ...command, '--json', '--repo', repo], tmp);
    assert.equal(r.status, 0, `${command.join(' ')}: ${r.stderr}`);
    const files = ofBuild(r);
    assert.ok(
      files[0] === 'cli.js' && files[1] === 'chunks/read-only-cli.js' && files.slice(2).every((f) => f === 'chunks/read-only-schemas.cjs'),
      `${command.join(' ')} loaded modules of the build beyond cli.js and the schemas: ${files.join(', ')}`,
    );
    // The first analyze reads no stored file (the chain head is checked without zod); verify checks every trace against its schema.
    if (command.join(' ') === 'traces verify')
      assert.ok(files.includes('chunks/read-only-schemas.cjs'), 'the check sees the schemas where they load');
    // Outside the bundle are the packages it leaves external: propose asks simple-git about the repository, nothing else loads one.
    const loaded = packages(r.urls);
    if (command[0] === 'propose')
      for (const p of [
        'yargs',
        '@inquirer/prompts',
        'jsonc-parser',
        '@modelcontextprotocol/sdk',
        '@modelcontextprotocol/server',
        '@modelcontextprotocol/client',
      ])
        assert.ok(!loaded.includes(p), `propose loaded ${p}`);
    else assert.deepEqual(loaded, [], `${command.join(' ')} loaded a package`);
  }
  const fresh = loadedBy([CLI, 'analyze', '--json', '--repo', sandbox(t, FILES)], tmp);
  assert.deepEqual(ofBuild(fresh), ['cli.js', 'chunks/read-only-cli.js'], 'a first analyze loaded the stored-file schemas');
  // The read-only file bundles no SDK, yargs or prompts, and none of the gated steps (esbuild names each bundled module in a comment).
  const bundled = fs.readFileSync(path.join(DIST, 'chunks/read-only-cli.cjs'), 'utf8');
  for (const name of [
    '@modelcontextprotocol/sdk',
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/client',
    '@modelcontextprotocol/core',
    'node_modules/yargs',
    '@inquirer',
    'node_modules/ajv',
    'steps/gated.js',
    'gate/fields.js',
    'gate/confirm-forms.js',
    'gate/choices-round.js',
    'node_modules/fs-extra',
  ])
    assert.ok(!bundled.includes(name), `the read-only file bundles ${name}`);
  assert.ok(!bundled.includes('node_modules/zod/'), 'the read-only file bundles zod: it belongs in the schemas file');
  // esbuild escapes what is not ASCII in strings, not in regular expressions nor in the comments it
  // keeps. One `–` written in a pattern made the whole read-only file two-byte text: Node decoded it
  // and V8 scanned it at twice the cost (about 20 ms of CPU and 2 MB per run). Write `\u2013` in a
  // pattern; scripts/bundle.mjs escapes comments.
  const scripts = fs.readdirSync(path.join(DIST, 'chunks')).filter((f) => /\.c?js$/.test(f));
  for (const file of ['cli.js', ...scripts.map((f) => `chunks/${f}`)]) {
    const text = fs.readFileSync(path.join(DIST, file), 'utf8');
    const notAscii = /[\u0080-\uffff]/.exec(text);
    assert.equal(notAscii, null, `${file} holds a character that is not ASCII: ${JSON.stringify(notAscii?.[0])} at ${notAscii?.index}`);
  }
  assert.ok(bundled.includes('steps/read-only.js'), 'the check would see a bundled module');
  assert.ok(
    fs.readFileSync(path.join(DIST, 'chunks/read-only-schemas.cjs'), 'utf8').includes('node_modules/zod/'),
    'and a bundled package',
  );
});

/** A read-only command through the compiled modules (server/dist, before bundling): one URL per module. */
function readOnlyModules(tool: string, repo: string, tmp: string) {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'cli/read-only.js')).href)}); process.exitCode = await m.runReadOnly(${JSON.stringify(tool)}, { repo: ${JSON.stringify(repo)}, json: true });`;
  return loadedBy(['--input-type=module', '-e', script], tmp);
}

const NOT_ON_A_REPO_WITHOUT_STATE = ['zod', '@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'yargs', '@inquirer/prompts'];
const distModule = (r: { urls: string[] }, rel: string) => r.urls.some((u) => u.endsWith(`/server/dist/${rel}`));

test('status and analyze on a repository without onboarding state build no zod schema (the chain head is checked without it), status takes no lock', (t) => {
  const repo = sandbox(t, FILES);
  const tmp = tempDir(t, 'co-cold-');
  for (const tool of ['onboarding_status', 'onboarding_analyze']) {
    const r = readOnlyModules(tool, repo, tmp);
    assert.equal(r.status, 0, `${tool}: ${r.stderr}`);
    assert.ok(distModule(r, 'cli/read-only.js'), 'the hook saw the modules load');
    for (const p of NOT_ON_A_REPO_WITHOUT_STATE) assert.ok(!packages(r.urls).includes(p), `${tool} loaded ${p}`);
    for (const m of ['state/schema.js', 'gate/fields.js', 'gate/choices-round.js', 'engine/migration.js', 'mcp/server.js'])
      assert.ok(!distModule(r, m), `${tool} loaded ${m}`);
    // Status takes no lock; analyze writes its trace under one.
    assert.equal(packages(r.urls).includes('proper-lockfile'), tool === 'onboarding_analyze', `${tool} and proper-lockfile`);
  }
  // The first analyze wrote a trace and the chain head: the next one checks the head, without zod.
  const again = readOnlyModules('onboarding_analyze', repo, tmp);
  assert.equal(again.status, 0, again.stderr);
  assert.ok(distModule(again, 'state/chain-head.js'), 'the chain head was checked');
  assert.ok(
    !packages(again.urls).includes('zod') && !distModule(again, 'state/chain-head-schema.js'),
    'the chain head was checked with zod',
  );
  assert.ok(packages(again.urls).includes('proper-lockfile'), 'and proper-lockfile: the trace is written under the lock');
  // Once propose has written the onboarding state, status reads it through its zod schema.
  assert.equal(run([CLI, 'propose', '--repo', repo], tmp).status, 0);
  const withState = readOnlyModules('onboarding_status', repo, tmp);
  assert.equal(withState.status, 0, withState.stderr);
  assert.ok(packages(withState.urls).includes('zod') && distModule(withState, 'state/schema.js'), 'the check sees zod where it is loaded');
});

test('traces without yargs: the same output as through yargs, and yargs still answers what it alone reads', (t) => {
  const repo = sandbox(t, FILES);
  const tmp = tempDir(t, 'co-cold-');
  assert.equal(run([CLI, 'analyze', '--repo', repo], tmp).status, 0);
  // `--json=true` is not read by the quick parser: yargs parses it, and the output is the same.
  for (const [quick, viaYargs] of [
    [
      ['traces', '--json', '--repo', repo],
      ['traces', '--json=true', '--repo', repo],
    ],
    [
      ['traces', 'list', '--repo', repo],
      ['traces', 'list', '--json=false', '--repo', repo],
    ],
    [
      ['traces', 'verify', '--json', '--repo', repo],
      ['traces', 'verify', '--json=true', '--repo', repo],
    ],
  ]) {
    const a = loadedBy([CLI, ...quick!], tmp);
    const b = loadedBy([CLI, ...viaYargs!], tmp);
    assert.ok(!packages(a.urls).includes('yargs') && packages(b.urls).includes('yargs'), quick!.join(' '));
    assert.deepEqual([a.status, a.stdout, a.stderr], [b.status, b.stdout, b.stderr], quick!.join(' '));
  }
  const bad = run([CLI, 'traces', 'nope', '--repo', repo], tmp);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /Invalid values/);
  const extra = run([CLI, 'traces', 'show', 'a', 'b', '--repo', repo], tmp);
  assert.equal(extra.status, 2);
});

test('a read-only command that ends at once still hands a slow reader its whole output, with its exit code', (t) => {
  // About 100 KB of JSON: more than a pipe holds, so the CLI's last write waits for the reader,
  // which starts reading a second later.
  const files = Object.fromEntries(
    Array.from({ length: 500 }, (_, i) => [`.cursor/rules/area-${i}.mdc`, `---\nalwaysApply: true\n---\n- Keep module ${i} small.\n`]),
  );
  const repo = sandbox(t, files);
  const tmp = tempDir(t, 'co-cold-');
  const whole = run([CLI, 'analyze', '--json', '--repo', repo], tmp).stdout.length;
  assert.ok(whole > 100_000, `${whole} bytes: the check needs more than a pipe holds`);
  const status = path.join(tmp, 'status');
  const r = spawnSync(
    'sh',
    ['-c', '{ "$0" "$1" analyze --json --repo "$2"; echo $? > "$3"; } | { sleep 1; cat; }', process.execPath, CLI, repo, status],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.endsWith('}\n') && r.stdout.length > 100_000, `the output was cut at ${r.stdout.length} bytes`);
  assert.equal((JSON.parse(r.stdout) as { sources: unknown[] }).sources.length, 500);
  assert.equal(fs.readFileSync(status, 'utf8').trim(), '0');
});

test('a reader that stops early ends the command quietly, without an EPIPE trace', (t) => {
  const files = Object.fromEntries(
    Array.from({ length: 500 }, (_, i) => [`.cursor/rules/area-${i}.mdc`, `---\nalwaysApply: true\n---\n- Keep module ${i} small.\n`]),
  );
  const repo = sandbox(t, files);
  const tmp = tempDir(t, 'co-pipe-');
  const status = path.join(tmp, 'status');
  // About 100 KB of JSON: more than a pipe holds, so the CLI is still writing when the reader leaves.
  const r = spawnSync(
    'sh',
    ['-c', '{ "$0" "$1" analyze --json --repo "$2" 2>&1; echo $? > "$3"; } | head -c 1', process.execPath, CLI, repo, status],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(r.stdout, '{');
  assert.equal(fs.readFileSync(status, 'utf8').trim(), '0');
});

/** The modules of our own a bundled file holds: esbuild names each in a `// server/dist/...` line. */
const bundledModules = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^\/\/ (server\/dist\/[\w/.-]+\.js)$/gm)].map((m) => m[1]!);
/** The modules a bundled file runs only when first imported: esbuild wraps each in `__esm({ "server/dist/..."() {...} })`. */
const lazyModules = (file: string) =>
  new Set([...fs.readFileSync(file, 'utf8').matchAll(/__esm\(\{\n\s*"(server\/dist\/[\w/.-]+\.js)"\(\)/g)].map((m) => m[1]!));

/**
 * serve's file (chunks/serve-stdio.cjs) holds all of serve, its steps too: a hook for a child process
 * (`--import`) that, when that file is compiled, makes esbuild's `__esm` write the name of each
 * module it runs to the file INIT_LOG when the process ends (the code cache is then refused: other bytes).
 */
const INIT_HOOK = `import vm from 'node:vm';
import fs from 'node:fs';
const ran = [];
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    if (options?.filename?.endsWith('serve-stdio.cjs'))
      code = code.replace('var __esm = (fn, res, err) => function __init() {', '$& if (fn) globalThis.__ranModules.push(__getOwnPropNames(fn)[0]);');
    super(code, { ...options, cachedData: undefined });
  }
};
globalThis.__ranModules = ran;
process.on('exit', () => fs.writeFileSync(process.env.INIT_LOG, ran.join('\\n')));
`;

test("serve's start (initialize, tools/list) runs no module that writes traces, narrates or judges state: they run with the first tool call", (t) => {
  const repo = sandbox(t, FILES);
  const tmp = tempDir(t, 'co-cold-serve-');
  const hook = moduleLogHook(tmp);
  const initHook = path.join(tmp, 'init-hook.mjs');
  const initLog = path.join(tmp, 'init.txt');
  fs.writeFileSync(initHook, INIT_HOOK);
  const input = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]
    .map((m) => JSON.stringify(m))
    .join('\n');
  const e: Record<string, string | undefined> = { ...process.env, LOADED_LOG: hook.log, INIT_LOG: initLog };
  delete e.COPILOT_ONBOARD_REPO;
  const r = spawnSync(
    process.execPath,
    ['--import', hook.importArg, '--import', pathToFileURL(initHook).href, CLI, 'serve', '--repo', repo],
    {
      encoding: 'utf8',
      input: `${input}\n`,
      env: e,
      cwd: tmp,
    },
  );
  assert.ok(r.stdout.includes('{"result":{"tools":[{"name":"onboarding_analyze"'), `no tools/list answer: ${r.stderr}`);
  const files = distFiles(hook.read());
  assert.ok(files.includes('chunks/serve-stdio.js'), `serve ran from its own file: ${files.join(', ')}`);
  const serveFile = path.join(DIST, 'chunks/serve-stdio.cjs');
  const lazy = lazyModules(serveFile);
  const ran = new Set(fs.readFileSync(initLog, 'utf8').split('\n'));
  const loaded = [
    ...files.filter((f) => f.endsWith('.js')).flatMap((f) => bundledModules(path.join(DIST, f))),
    ...bundledModules(serveFile).filter((m) => !lazy.has(m) || ran.has(m)),
  ];
  assert.ok(loaded.includes('server/dist/mcp/server.js'), `the check sees the bundled modules: ${loaded.join(', ')}`);
  assert.ok(lazy.has('server/dist/steps/tool-call.js') && ran.size > 1, 'the check sees which lazy modules ran');
  for (const m of [
    'narrate/narrate.js',
    'state/traces/writer.js',
    'state/foreign.js',
    'state/retention.js',
    'repo/safe-fs/writing.js',
    // The call of a step (its checks, its words, its bounds) loads with the first tool call too.
    'steps/tool-call.js',
    'steps/preflight.js',
    'steps/tool-result.js',
  ])
    assert.ok(!loaded.includes(`server/dist/${m}`), `serve's start loaded ${m}`);
});
