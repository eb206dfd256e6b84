import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI } from '../helpers/mcp.js';
import { sandbox, tempDir } from '../helpers/sandbox.js';

/**
 * The read-only file of the build is CommonJS run with the V8 code cache the build made for it
 * (server/src/code-cache.ts, scripts/warm-code-cache.mjs): on Node 20 the CLI takes it, and a cache
 * made from other bytes, a damaged one or none is compiled over, with the same output. On Node 22
 * and later Node's own compile cache serves the file instead.
 */

const DIST = path.dirname(CLI);
const CJS = path.join(DIST, 'chunks/read-only-cli.cjs');
const CACHE = path.join(DIST, 'chunks/read-only-cli.cache');
const NODE_COMPILE_CACHE = 'enableCompileCache' in (await import('node:module'));
const FILES = {
  'AGENTS.md': '# Agents\n\n- Use pnpm.\n- Run tests with vitest.\n',
  '.cursor/rules/api.mdc': '---\ndescription: API\nglobs: src/api/**\n---\n- Use npm.\n',
};

/** A child node process that runs `code` as an ES module; its stdout, stderr and status. */
function node(code: string, cwd: string) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', cwd });
}

/** analyze --json of `repo` through the build's CommonJS file, run with the cache file `cache` (null: none). */
function analyzeWith(cache: string | null, repo: string, cwd: string) {
  const r = node(
    `const { loadWithCodeCache } = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'code-cache.js')).href)});
const loaded = loadWithCodeCache(${JSON.stringify(CJS)}, ${JSON.stringify(cache)});
process.exitCode = await loaded.exports.runReadOnly('onboarding_analyze', { repo: ${JSON.stringify(repo)}, json: true });
process.stderr.write('cache:' + loaded.cache);`,
    cwd,
  );
  assert.equal(r.status, 0, r.stderr);
  return { stdout: r.stdout, cache: /cache:(\w+)$/.exec(r.stderr)?.[1] };
}

test(
  'the CLI runs the read-only file with the code cache the build made for it',
  { skip: NODE_COMPILE_CACHE && 'Node has its own compile cache' },
  (t) => {
    const cwd = tempDir(t, 'co-cache-');
    const r = node(
      `const m = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'chunks/read-only-cli.js')).href)}); process.stdout.write(m.codeCache);`,
      cwd,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'accepted');
  },
);

test(
  "serve's file runs with the code cache the build made for its start",
  { skip: NODE_COMPILE_CACHE && 'Node has its own compile cache' },
  (t) => {
    const cwd = tempDir(t, 'co-cache-');
    const r = node(
      `const m = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'chunks/serve-stdio.js')).href)}); process.stdout.write(m.codeCache + ' ' + typeof m.serveStdio);`,
      cwd,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'accepted function');
  },
);

test(
  'a code cache made from other bytes, a damaged one or none is compiled over, and analyze says the same',
  { skip: NODE_COMPILE_CACHE && 'Node has its own compile cache' },
  (t) => {
    const repo = sandbox(t, FILES);
    const cwd = tempDir(t, 'co-cache-');
    // The first analyze creates .copilot-state/ and says so once: the runs compared come after it.
    analyzeWith(null, repo, cwd);
    const built = fs.readFileSync(CACHE);
    const otherBytes = path.join(cwd, 'other.cache');
    // The same V8 data, said to be made from a source one byte different (V8 itself checks only the length).
    const digest = Buffer.from(built.subarray(0, 32));
    digest[0] = digest[0]! ^ 1;
    fs.writeFileSync(otherBytes, Buffer.concat([digest, built.subarray(32)]));
    const damaged = path.join(cwd, 'damaged.cache');
    fs.writeFileSync(damaged, Buffer.concat([built.subarray(0, 32), Buffer.alloc(4096, 7)]));
    const runs = {
      built: analyzeWith(CACHE, repo, cwd),
      otherBytes: analyzeWith(otherBytes, repo, cwd),
      damaged: analyzeWith(damaged, repo, cwd),
      missing: analyzeWith(path.join(cwd, 'no.cache'), repo, cwd),
      none: analyzeWith(null, repo, cwd),
    };
    assert.deepEqual(Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, r.cache])), {
      built: 'accepted',
      otherBytes: 'rejected',
      damaged: 'rejected',
      missing: 'none',
      none: 'none',
    });
    assert.match(runs.built.stdout, /"outcome": "analyzed"/);
    for (const [k, r] of Object.entries(runs)) assert.equal(r.stdout, runs.built.stdout, k);
  },
);

test('analyze and propose keep the young generation at its first size (code-cache.ts, oneShotFlags), and write nothing to stderr', (t) => {
  const files = Object.fromEntries(
    Array.from({ length: 300 }, (_, i) => [
      `.cursor/rules/area-${i}.mdc`,
      `---\nglobs: src/area-${i}/**\n---\n# Area ${i}\n\n${Array.from({ length: 12 }, (_, j) => `- Rule ${j} of area ${i}: keep handler ${j} small and tested.`).join('\n')}\n`,
    ]),
  );
  const repo = sandbox(t, files);
  const cwd = tempDir(t, 'co-young-');
  // Writes the young generation's size when the process ends (the CLI ends with process.exit).
  const hook = path.join(cwd, 'young.mjs');
  const out = path.join(cwd, 'young.txt');
  fs.writeFileSync(
    hook,
    `import v8 from 'node:v8'; import fs from 'node:fs';\nprocess.on('exit', () => fs.writeFileSync(${JSON.stringify(out)}, String(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)));\n`,
  );
  const youngAfter = (args: string[]) => {
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, ...args], { encoding: 'utf8', cwd, input: '' });
    assert.equal(r.stderr, '', args.join(' '));
    return Number(fs.readFileSync(out, 'utf8'));
  };
  // Loading the CLI may take it from its first size to the next; left alone, an analysis of these rules takes it to 16 MB.
  const first = youngAfter(['-e', '0']);
  for (const command of ['analyze', 'propose']) {
    const young = youngAfter([CLI, command, '--json', '--repo', repo]);
    assert.ok(young <= 2 * first, `${command}: the young generation grew to ${young} bytes (${first} at start)`);
  }
});
