// Bundles the CLI after tsc: server/dist/cli.js becomes one module plus lazily loaded chunks in
// server/dist/chunks/. A process then loads a few files instead of hundreds (the MCP SDK and zod
// are many small modules), which is most of a cold start. Every dependency is bundled, so the
// packed tarball installs no other package: yargs's locale files are left out (its messages are
// the English ones it holds in code), and jsonc-parser is taken from its ES module build (its UMD
// build requires its parts at run time).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const dist = path.join(root, 'server/dist');
fs.rmSync(path.join(dist, 'chunks'), { recursive: true, force: true });
await build({
  entryPoints: [path.join(dist, 'cli.js')],
  outdir: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // CommonJS dependencies inside the bundle still call require and read __filename.
  banner: {
    js: [
      "import { createRequire as __coCreateRequire } from 'node:module';",
      "import { fileURLToPath as __coFileURLToPath } from 'node:url';",
      'const require = __coCreateRequire(import.meta.url);',
      'const __coFilename = __coFileURLToPath(import.meta.url);',
      "const __coDirname = __coFileURLToPath(new URL('.', import.meta.url));",
    ].join('\n'),
  },
  // Under other names: bundled ES modules (yargs) declare their own __dirname at the top level.
  define: { __filename: '__coFilename', __dirname: '__coDirname' },
  logLevel: 'warning',
});
