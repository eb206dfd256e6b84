// Bundles the CLI after tsc: server/dist/cli.js becomes one module plus lazily loaded chunks in
// server/dist/chunks/. A process then loads a few files instead of hundreds (the MCP SDK and zod
// are many small modules), which is most of a cold start. yargs (its locale files), the terminal
// prompts and simple-git stay ordinary dependencies.
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
  // jsonc-parser's UMD build requires its parts at run time.
  external: ['yargs', 'yargs/*', '@inquirer/prompts', 'simple-git', 'jsonc-parser'],
  // CommonJS dependencies inside the bundle still call require and read __filename.
  banner: {
    js: [
      "import { createRequire as __coCreateRequire } from 'node:module';",
      "import { fileURLToPath as __coFileURLToPath } from 'node:url';",
      'const require = __coCreateRequire(import.meta.url);',
      'const __filename = __coFileURLToPath(import.meta.url);',
      "const __dirname = __coFileURLToPath(new URL('.', import.meta.url));",
    ].join('\n'),
  },
  logLevel: 'warning',
});
