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
const result = await build({
  metafile: true,
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

// The bundle carries other people's code: their licenses go with it, one file listing each package
// whose code is in server/dist, its version, its license and the text of its license file.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) continue;
  const dir = parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join('/');
  if (!packages.has(dir)) packages.set(dir, path.resolve(root, dir));
}
const notices = [...new Set(packages.values())]
  .map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = fs.readdirSync(dir).find((n) => /^(licen[cs]e|copying)(\.|$)/i.test(n));
    const text = file ? fs.readFileSync(path.join(dir, file), 'utf8').trim() : `(no license file in the package; package.json says ${pkg.license ?? 'nothing'})`;
    return { id: `${pkg.name}@${pkg.version}`, license: typeof pkg.license === 'string' ? pkg.license : JSON.stringify(pkg.license ?? null), text };
  })
  .filter((n, i, all) => all.findIndex((m) => m.id === n.id) === i)
  .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const FENCE = '`'.repeat(4);
fs.writeFileSync(
  path.join(dist, 'THIRD-PARTY-NOTICES.md'),
  `# Third-party notices\n\nserver/dist bundles the code of these packages (${notices.length}), under their own licenses.\n\n${notices.map((n) => `## ${n.id} (${n.license})\n\n${FENCE}text\n${n.text}\n${FENCE}\n`).join('\n')}`,
);
