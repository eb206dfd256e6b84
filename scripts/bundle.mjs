// Bundles the CLI after tsc: server/dist/cli.js becomes one module plus lazily loaded chunks in
// server/dist/chunks/. A process then loads a few files instead of hundreds (the MCP SDK and zod
// are many small modules), which is most of a cold start. yargs (its locale files), the terminal
// prompts and simple-git stay ordinary dependencies. See docs/performance-history.md, "Cold start of the read-only commands".
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const dist = path.join(root, 'server/dist');

/**
 * zod's error messages in every language (`z.locales`, 64 files, 0.34 MB of the bundle and about
 * 6 MB of a process's memory) are never used: zod itself configures English from its own file. The
 * bundle gets a locales index that holds English alone.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](core|classic)$/.test(args.resolveDir)
        ? { path: path.join(args.resolveDir, '../locales/index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';\n",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * `import { z } from 'zod'` takes zod's namespace as one object, and esbuild keeps all of zod (0.39 MB
 * without the locales) for it. Our modules are read with `import * as z` from zod's own entry instead:
 * each `z.object`, `z.string`... is then a plain reference, and what no module uses is left out. A
 * module whose import has another shape is bundled as it is (the whole of zod, the same behaviour).
 */
const ZOD_CLASSIC = fileURLToPath(new URL('v4/classic/external.js', import.meta.resolve('zod')));
const zodByName = {
  name: 'zod-by-name',
  setup(b) {
    b.onLoad({ filter: /[\\/]server[\\/]dist[\\/].*\.js$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      const named = /^import \{ z \} from 'zod';$/m;
      return named.test(text)
        ? { contents: text.replace(named, `import * as z from ${JSON.stringify(ZOD_CLASSIC)};`), loader: 'js' }
        : undefined;
    });
  },
};

/**
 * In the read-only file, proper-lockfile gets node:fs for graceful-fs: safe-fs.ts hands it its own
 * fs for every call (lockFolder), so graceful-fs is never used there, but loading it cloned and
 * patched node:fs and so loaded Node's streams, readline, fs watchers and assert (about 15 ms).
 */
const noGracefulFs = {
  name: 'no-graceful-fs',
  setup(b) {
    b.onResolve({ filter: /^graceful-fs$/ }, () => ({ path: 'node:fs', external: true }));
  },
};

/**
 * The stored-file schemas (state/schema.ts) and zod, a quarter of the read-only file, are a file of
 * their own beside it: every module of the file imports them lazily (when a state file or a trace
 * is there to check), and a command that checks none, such as analyze, does not compile them.
 */
const SCHEMAS = 'chunks/read-only-schemas.cjs';
const schemasApart = {
  name: 'schemas-apart',
  setup(b) {
    b.onResolve({ filter: /(^|\/)schema\.js$/ }, (args) =>
      path.resolve(args.resolveDir, args.path) === path.join(dist, 'state/schema.js')
        ? { path: `./${path.basename(SCHEMAS)}`, external: true }
        : undefined,
    );
  },
};

/**
 * The YAML parser (the yaml package, 0.26 MB) is a file of its own beside the read-only file too: it
 * is imported when a front matter block needs it (model/frontmatter.ts), and the common flat front
 * matter never does.
 */
const YAML = 'chunks/read-only-yaml.cjs';
const yamlApart = {
  name: 'yaml-apart',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: `./${path.basename(YAML)}`, external: true }));
  },
};

/**
 * The MCP SDK's v2 server takes its JSON Schema validator (Ajv, 0.29 MB bundled) from its `_shims`
 * module, and makes it only when it validates an elicitation answer itself, which copilot-onboard
 * never asks it to (the gate checks every answer). The bundle's shim loads it on first use instead:
 * `serve` then starts without compiling it (docs/performance-history.md, "The v2 SDK and the cold start").
 */
const lazyAjvShim = {
  name: 'lazy-ajv-shim',
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: 'shim', namespace: 'lazy-ajv-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-ajv-shim' }, () => ({
      contents: `import { createRequire } from 'node:module';
import process from 'node:process';
const load = () => createRequire(import.meta.url)('@modelcontextprotocol/server/validators/ajv').AjvJsonSchemaValidator;
export class DefaultJsonSchemaValidator {
  #real;
  getValidator(schema) {
    return (this.#real ??= new (load())()).getValidator(schema);
  }
}
export { process };
`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};

// CommonJS dependencies inside the bundle still call require: a chunk that does gets it. (Creating
// a require in every chunk cost a read-only command about 10 ms.)
const REQUIRE_BANNER =
  "import { createRequire as __coCreateRequire } from 'node:module';\nconst require = __coCreateRequire(import.meta.url);\n";
const usesRequire = (text) => /\b__require\b|\brequire\.(resolve|cache)\b/.test(text) || /^(?!\s*\/\/)[^'"`\n]*\brequire\(/m.test(text);

/**
 * A file with one character that is not ASCII is two-byte text to Node and V8: decoded and scanned
 * at about twice the cost (the read-only file: about 20 ms of CPU and 2 MB per run). esbuild escapes
 * such characters in strings, not in regular expressions (written as `\u2013` in our patterns, held
 * by tests/cli/cold-start.test.ts) nor in the comments it keeps (zod's and ours): those are escaped
 * here, where they are inert text.
 */
const asciiComments = (text) =>
  text.replace(/^[ \t]*(?:\/\/|\/\*|\*).*$/gm, (line) =>
    line.replace(/[\u0080-\u{10ffff}]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`),
  );

/** Writes esbuild's output, with the require banner where a file needs it. */
function writeOutput(result) {
  for (const file of result.outputFiles) {
    let text = asciiComments(file.text);
    // The shebang stays the first line of cli.js.
    const shebang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1) : '';
    text = text.slice(shebang.length);
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const banner = !file.path.endsWith('.cjs') && usesRequire(text) ? REQUIRE_BANNER : '';
    fs.writeFileSync(file.path, shebang + banner + text);
  }
}

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // esbuild writes a `\p{…}` outside brackets as `new RegExp(…)` for node20, which V8 parses when the
  // module loads (0.1 to 0.3 ms each; 25 in the read-only file, most never run on ASCII text). Node
  // 20's V8 reads them as literals: parsed on first use.
  supported: { 'regexp-unicode-property-escapes': true },
  // jsonc-parser's UMD build requires its parts at run time.
  external: ['yargs', 'yargs/*', '@inquirer/prompts', 'simple-git', 'jsonc-parser'],
  write: false,
  logLevel: 'warning',
};

/**
 * The read-only commands (cli/read-only.ts: analyze, propose, status, traces) are one file without
 * splitting: loading and linking each of the thirty chunks they used to import cost more than
 * reading the code of the commands they do not run. Its dynamic imports stay lazy inside the file
 * (esbuild runs a module's top level on first import), so zod, yaml and diff run only when used.
 *
 * That file is CommonJS (`read-only-cli.cjs`; its schemas and YAML parser beside it are CommonJS
 * too, required when needed), run with V8's code cache (`read-only-cli.cache`, made below by
 * scripts/warm-code-cache.mjs) by a small ES module, `read-only-cli.js` (code-cache.ts), which cli.js
 * and the rest of the CLI both import: Node 20 keeps no code cache for ES modules, and compiling the
 * file cost an analyze 5 to 13 % of its CPU (docs/performance.md, issue 38).
 */
const READ_ONLY = 'chunks/read-only-cli.js';
const READ_ONLY_CJS = 'chunks/read-only-cli.cjs';
const READ_ONLY_CACHE = 'chunks/read-only-cli.cache';
/** `spec`, imported by `importer` (a file of server/dist), resolves to `result` (esbuild's: a path, external or not). */
const resolvedIn = (importer, spec, result) => ({
  name: `${importer}:${spec}`,
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => (args.importer === path.join(dist, importer) && args.path === spec ? result : undefined));
  },
});
/**
 * CommonJS has no `import.meta`: its URL is the file's own (package-root.ts finds the package from it,
 * frontmatter.ts requires yaml). A script run by node:vm cannot `import()` (only with an experimental
 * flag): esbuild makes each dynamic import of what stays outside the file a require.
 */
const commonJs = {
  format: 'cjs',
  supported: { ...common.supported, 'dynamic-import': false },
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

fs.rmSync(path.join(dist, 'chunks'), { recursive: true, force: true });
writeOutput(
  await build({
    ...common,
    ...commonJs,
    entryPoints: [path.join(dist, 'cli/read-only.js')],
    outfile: path.join(dist, READ_ONLY_CJS),
    plugins: [englishOnlyZod, zodByName, noGracefulFs, schemasApart, yamlApart],
  }),
);
writeOutput(
  await build({
    ...common,
    format: 'cjs',
    stdin: { contents: "export { parse } from 'yaml';\n", resolveDir: root, loader: 'js' },
    outfile: path.join(dist, YAML),
  }),
);
writeOutput(
  await build({
    ...common,
    format: 'cjs',
    entryPoints: [path.join(dist, 'state/schema.js')],
    outfile: path.join(dist, SCHEMAS),
    plugins: [englishOnlyZod, zodByName],
  }),
);
/**
 * The ES module that runs a CommonJS file of the build with its code cache (code-cache.ts) and
 * exports `names` from it; `flags` is the V8 flags argument as source (none: the one-shot defaults).
 */
async function cachedLoader(outfile, cjs, cache, names, flags = '') {
  return build({
    ...common,
    stdin: {
      contents: `import { loadWithCodeCache } from ${JSON.stringify(path.join(dist, 'code-cache.js'))};
const { fileURLToPath } = process.getBuiltinModule('node:url');
const file = (name) => fileURLToPath(new URL(name, import.meta.url));
const loaded = loadWithCodeCache(file('./${path.basename(cjs)}'), file('./${path.basename(cache)}')${flags ? `, ${flags}` : ''});
export const { ${names.join(', ')} } = loaded.exports;
/** What became of the code cache (the tests check that the build's is taken). */
export const codeCache = loaded.cache;
`,
      resolveDir: root,
      loader: 'js',
    },
    outfile: path.join(dist, outfile),
  });
}
/** The ES module the CLI imports for the read-only commands: it runs the CommonJS file with its code cache. */
writeOutput(await cachedLoader(READ_ONLY, READ_ONLY_CJS, READ_ONLY_CACHE, ['runReadOnly', 'runTraces']));
/**
 * `serve` on stdio (mcp/stdio.ts: the SDK, zod, the server and, loaded with the first tool call, the
 * steps) is one CommonJS file too, `serve-stdio.cjs`, run with a code cache of what a start runs
 * (initialize and tools/list, made below) by `serve-stdio.js`, which cli/serve-command.ts imports:
 * Node 20 compiled the SDK's and zod's ES modules at every start, about a tenth of a cold start's CPU
 * (docs/performance.md, issue 38). It keeps V8's default flags: a server runs for long.
 */
const SERVE = 'chunks/serve-stdio.js';
const SERVE_CJS = 'chunks/serve-stdio.cjs';
const SERVE_CACHE = 'chunks/serve-stdio.cache';
writeOutput(
  await build({
    ...common,
    ...commonJs,
    entryPoints: [path.join(dist, 'mcp/stdio.js')],
    outfile: path.join(dist, SERVE_CJS),
    plugins: [englishOnlyZod, zodByName, lazyAjvShim],
  }),
);
writeOutput(await cachedLoader(SERVE, SERVE_CJS, SERVE_CACHE, ['serveStdio'], '[]'));

/**
 * The rest of the CLI (cli/main.ts: serve over HTTP, the gated commands, yargs), split into chunks
 * that each command loads as it needs them.
 */
writeOutput(
  await build({
    ...common,
    entryPoints: { 'chunks/cli-main': path.join(dist, 'cli/main.js') },
    outdir: dist,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [
      englishOnlyZod,
      zodByName,
      lazyAjvShim,
      resolvedIn('cli/main.js', './read-only.js', { path: `./${path.basename(READ_ONLY)}`, external: true }),
      resolvedIn('cli/serve-command.js', '../mcp/stdio.js', { path: `./${path.basename(SERVE)}`, external: true }),
    ],
  }),
);

/**
 * cli.js is one file without splitting: the read-only commands start from it with no other module of
 * the build but the read-only one (each module Node loads as an ES module costs a cold start a few
 * milliseconds, about 20 for the dozen chunks cli.js used to import). The few small modules it shares
 * with the rest of the CLI are copied into it.
 */
writeOutput(
  await build({
    ...common,
    entryPoints: [path.join(dist, 'cli.js')],
    outfile: path.join(dist, 'cli.js'),
    allowOverwrite: true,
    plugins: [
      resolvedIn('cli.js', './cli/main.js', { path: './chunks/cli-main.js', external: true }),
      resolvedIn('cli.js', './cli/read-only.js', { path: `./${READ_ONLY}`, external: true }),
    ],
  }),
);

/** What a client sends when it starts serve: initialize, initialized, tools/list. */
const SERVE_START = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'warm-up', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join('');
// The code cache of the read-only file: the bytecode of what an analyze and a propose run (scripts/warm-code-cache.mjs).
const warm = spawnSync(
  process.execPath,
  [path.join(root, 'scripts/warm-code-cache.mjs'), path.join(dist, READ_ONLY_CJS), path.join(dist, READ_ONLY_CACHE)],
  { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
);
if (warm.status !== 0) throw new Error(`the code cache could not be made: ${warm.stderr}`);
// The code cache of serve's file: the bytecode of a start (initialize, tools/list on stdin).
const warmServe = spawnSync(
  process.execPath,
  [path.join(root, 'scripts/warm-code-cache.mjs'), path.join(dist, SERVE_CJS), path.join(dist, SERVE_CACHE), '--serve'],
  { encoding: 'utf8', input: SERVE_START, stdio: ['pipe', 'ignore', 'pipe'] },
);
if (warmServe.status !== 0) throw new Error(`serve's code cache could not be made: ${warmServe.stderr}`);
