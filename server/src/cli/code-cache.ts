import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';

/**
 * Taken, not imported: cli.js is an ES module, and an import of node:fs there reads every export of
 * fs, whose stream classes then load fs's streams, which a read-only command never uses.
 */
const fs = process.getBuiltinModule('node:fs');

/**
 * Loading a CommonJS file of the build with V8's code cache: the bytecode of the functions a
 * command ran, written at build time (scripts/warm-code-cache.mjs), so that a cold process neither
 * parses nor compiles them again (docs/performance-history.md, "One-byte text and the code cache"). Node 20 has no code cache
 * for ES modules, hence the CommonJS file. V8 refuses a cache made by another V8 or with other
 * flags, and the file is then compiled as usual: the cache only ever saves time.
 */

export type CodeCacheUse = 'accepted' | 'rejected' | 'none';

export interface LoadedScript<T> {
  exports: T;
  cache: CodeCacheUse;
  script: vm.Script;
}

/** CommonJS's own wrapper, so that the file runs as `require` would run it. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/** Run the CommonJS file `file` with the code cache `cacheFile` when there is one. */
export function loadCommonJs<T>(file: string, cacheFile: string | null): LoadedScript<T> {
  const source = fs.readFileSync(file, 'utf8');
  const cachedData = cacheFile === null ? undefined : readOrUndefined(cacheFile);
  const script = new vm.Script(wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const cache: CodeCacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (e: T, r: NodeJS.Require, m: { exports: T }, f: string, d: string) => void;
  run(module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, cache, script };
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}
