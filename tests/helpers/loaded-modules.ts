import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A module hook for a child node process (`--import`): it writes the URL of every module the process
 * resolves, ES modules through the loader's resolve hook and CommonJS through `require` (the
 * read-only file of the build is CommonJS: its schemas, YAML parser and packages are required), to
 * the file named by the environment variable LOADED_LOG.
 */
const ESM_LOG =
  "import fs from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); fs.appendFileSync(process.env.LOADED_LOG, r.url + '\\n'); return r; }\n";
const CJS_LOG = `import Module from 'node:module';\nimport { pathToFileURL } from 'node:url';\nimport fsLog from 'node:fs';\nconst resolveFilename = Module._resolveFilename;\nModule._resolveFilename = function (...args) { const r = resolveFilename.apply(this, args); if (r.startsWith('/')) fsLog.appendFileSync(process.env.LOADED_LOG, pathToFileURL(r).href + '\\n'); return r; };\n`;

/** Writes the hook into `tmp`: the `--import` argument, the log it writes (emptied now), and how to read that log (unique URLs, in order). */
export function moduleLogHook(tmp: string): { importArg: string; log: string; read: () => string[] } {
  const hook = path.join(tmp, 'hook.mjs');
  const log = path.join(tmp, 'loaded.txt');
  fs.rmSync(log, { force: true });
  fs.writeFileSync(
    hook,
    `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(ESM_LOG)}));\n${CJS_LOG}`,
  );
  const read = () => (fs.existsSync(log) ? [...new Set(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean))] : []);
  return { importArg: pathToFileURL(hook).href, log, read };
}
