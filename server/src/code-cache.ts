import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs';
import type * as NodeModule from 'node:module';
import type * as Path from 'node:path';
import type * as V8 from 'node:v8';
import type * as Vm from 'node:vm';

/**
 * Runs a CommonJS file of the build with the V8 code cache the build made for it
 * (scripts/bundle.mjs, scripts/warm-code-cache.mjs): the bytecode of what an analyze runs, so a
 * read-only command compiles almost none of the file. Node 20 keeps no compile cache of its own
 * (`module.enableCompileCache` is Node 22 and later: there, the file is required and Node's cache
 * serves it). Compiling the read-only file's code cost an analyze of 500 rules about 5 % of its
 * CPU and one small analyze about 13 % (docs/performance.md, issue 38).
 *
 * V8 takes a cache only when its version and flags are the ones it was made with, and it checks the
 * source by its length alone: the cache file starts with the SHA-256 of the source it was made
 * from, and is used only for that source. A cache refused, damaged or missing is compiled over: it
 * only ever saves time.
 */

/** The builtins, taken rather than imported: an ES import of node:fs reads every export of it (its streams). */
const builtin = <T>(name: string): T => process.getBuiltinModule(name) as T;

/** Bytes of the source's digest at the head of a cache file. */
export const DIGEST_BYTES = 32;

export type CacheUse = 'accepted' | 'rejected' | 'none' | 'node';

export interface Loaded {
  exports: Record<string, unknown>;
  /** What became of the cache: taken, refused by V8 (or made for another source), absent, or Node's own compile cache. */
  cache: CacheUse;
  /** The compiled script (null when Node required the file): the build's warm-up makes the cache from it. */
  script: Vm.Script | null;
}

/** CommonJS's own wrapper, so that the file runs as `require` would run it. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/** The SHA-256 of a source, as the head of its cache file. */
export function sourceDigest(source: Buffer): Buffer {
  return builtin<typeof Crypto>('node:crypto').createHash('sha256').update(source).digest();
}

/**
 * V8's flags for a one-shot command, by the Node line they were measured on (V8 writes an error line
 * for a flag it does not know). A read-only command lives a few hundred milliseconds:
 *
 * - `--semi-space-growth-factor=1` keeps the young generation at its first size: an analysis of 500
 *   rules grew it to 16 MB (79 MB at the peak against 68), and the pages it touched cost system time.
 * - `--interrupt-budget` ten times V8's: a function is optimised by TurboFan after about ten times
 *   the work. Most of what TurboFan compiled for an analyze (on its own threads, counted in the
 *   process's CPU) was done before the code ran much; what runs long is still optimised: 500 rules
 *   0.79x CPU, propose of them 0.71x, 3,000 rules 0.98x (docs/performance.md, issue 38).
 * - `--regexp-tier-up-ticks=20`: a regular expression is compiled to machine code after 20 runs in
 *   V8's interpreter instead of after one. Most of our patterns run a few times in a command, and
 *   compiling each (about 0.1 ms for a case-blind one) cost more than interpreting it: one small
 *   analyze 5 % of its CPU; the patterns that run on every line are still compiled.
 * - `--no-regexp-peephole-optimization`: the interpreter's code of a pattern is made without V8's
 *   peephole pass, which took about half of a pattern's first run (0.1 to 0.3 ms for a case-blind
 *   list of words; an analyze meets a few hundred patterns). What runs often is compiled to machine
 *   code, without that pass either way: one small analyze and the monorepo about 3 % less wall.
 *
 * V8 keeps the flags in the code cache and refuses a cache made under others: they are set here,
 * before the file is compiled, by the CLI and by the build's warm-up alike. `serve` keeps V8's
 * defaults.
 */
export function oneShotFlags(): string[] {
  const major = Number(process.versions.node.split('.')[0]);
  return [
    ...(major >= 20 && major <= 24
      ? ['--semi-space-growth-factor=1', '--regexp-tier-up-ticks=20', '--no-regexp-peephole-optimization']
      : []),
    ...(major === 20 ? ['--interrupt-budget=675840'] : []),
  ];
}

/**
 * Runs `file` (CommonJS) with the code cache `cacheFile` (null: none), under V8 `flags`: a read-only
 * command's {@link oneShotFlags} by default; `serve`, which runs for long, passes none.
 */
export function loadWithCodeCache(file: string, cacheFile: string | null, flags: readonly string[] = oneShotFlags()): Loaded {
  if (flags.length > 0) builtin<typeof V8>('node:v8').setFlagsFromString(flags.join(' '));
  const { createRequire, enableCompileCache } = builtin<typeof NodeModule & { enableCompileCache?: unknown }>('node:module');
  const require = createRequire(file);
  if (enableCompileCache !== undefined && cacheFile !== null) return { exports: require(file), cache: 'node', script: null };
  // The build's own files, in the folder it is installed in: nothing a repository brings.
  const fs = process.getBuiltinModule('node:fs') as typeof Fs;
  const bytes = fs.readFileSync(file);
  const stored = cacheFile === null ? null : readOrNull(fs, cacheFile);
  const cachedData = stored === null ? undefined : cacheFor(bytes, stored);
  const vm = builtin<typeof Vm>('node:vm');
  const script = new vm.Script(wrap(bytes.toString('utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, require, module, file, builtin<typeof Path>('node:path').dirname(file));
  const cache = stored === null ? 'none' : cachedData === undefined || script.cachedDataRejected ? 'rejected' : 'accepted';
  return { exports: module.exports, cache, script };
}

/** The V8 data of a cache file made from exactly these bytes; undefined when there is none or it was made from other bytes. */
function cacheFor(source: Buffer, cache: Buffer): Buffer | undefined {
  if (cache.length <= DIGEST_BYTES) return undefined;
  return cache.subarray(0, DIGEST_BYTES).equals(sourceDigest(source)) ? cache.subarray(DIGEST_BYTES) : undefined;
}

function readOrNull(fs: typeof Fs, file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}
