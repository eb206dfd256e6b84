import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI } from '../helpers/mcp.js';
import { sandbox, tempDir } from '../helpers/sandbox.js';
import { moduleLogHook } from '../helpers/loaded-modules.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';

/**
 * The YAML parser is a file of its own beside the read-only file (chunks/read-only-yaml.cjs,
 * scripts/bundle.mjs): analyze loads it when a front matter block needs it, before the files are
 * parsed, and never the yaml package from node_modules (the synchronous fallback of
 * model/frontmatter.ts); the common flat front matter loads neither.
 */

const DIST = path.dirname(CLI);
const FLAT = { '.cursor/rules/a.mdc': '---\ndescription: Area a\nglobs: src/a/**\nalwaysApply: false\n---\n\n- Use pnpm.\n' };
const LISTED = { ...FLAT, '.cursor/rules/b.mdc': '---\nglobs:\n  - "src/b/**/*.ts"\n  - "test/b/**"\n---\n\n- Use yarn.\n' };

/** Runs a read-only command with module hooks that write every module URL it resolves (ES modules and CommonJS); returns them and the output. */
function loading(command: string, repo: string, tmp: string): { urls: string[]; stdout: string } {
  const hook = moduleLogHook(tmp);
  const r = spawnSync(process.execPath, ['--import', hook.importArg, CLI, command, '--json', '--repo', repo], {
    encoding: 'utf8',
    cwd: tmp,
    env: { ...process.env, LOADED_LOG: hook.log },
  });
  assert.equal(r.status, 0, r.stderr);
  return { urls: hook.read(), stdout: r.stdout };
}

const loads = (urls: string[], rel: string) => urls.includes(pathToFileURL(path.join(DIST, rel)).href);
const loadsYamlPackage = (urls: string[]) => urls.some((u) => u.includes('/node_modules/yaml/'));

test('analyze of flat front matter loads no YAML parser', (t) => {
  const { urls } = loading('analyze', sandbox(t, FLAT), tempDir(t, 'co-yaml-'));
  assert.ok(loads(urls, 'cli.js'), 'the hook saw the CLI load');
  assert.ok(!loads(urls, 'chunks/read-only-yaml.cjs') && !loadsYamlPackage(urls), 'a YAML parser was loaded');
});

test('propose of front matter that needs YAML loads the parser file beside the read-only file, not the package, and reads the list', (t) => {
  const { urls, stdout } = loading('propose', sandbox(t, LISTED), tempDir(t, 'co-yaml-'));
  assert.ok(loads(urls, 'chunks/read-only-yaml.cjs'), 'the YAML parser file was not loaded');
  assert.ok(!loadsYamlPackage(urls), 'the yaml package was loaded: the parser was not loaded before the files were parsed');
  assert.ok(stdout.includes('applyTo: \\"src/b/**/*.ts,test/b/**\\"'), stdout);
});

test('a scan reads front matter that needs YAML as YAML', async (t) => {
  const scan = await scanRepository(sandbox(t, LISTED));
  const b = scan.docs.find((d) => d.path === '.cursor/rules/b.mdc');
  assert.deepEqual(b?.scope, { kind: 'globs', globs: ['src/b/**/*.ts', 'test/b/**'] });
  assert.deepEqual(b?.frontMatterKeys, ['globs']);
});

test('a file CLAUDE.md imports whose front matter needs YAML loads the parser file, not the package, and its body is migrated without the block', (t) => {
  const repo = sandbox(t, {
    'CLAUDE.md': '# Claude\n\n- Use pnpm.\n\n@docs/style.md\n',
    'docs/style.md': '---\ntags:\n  - style\n---\n- Indent with tabs.\n',
  });
  const { urls, stdout } = loading('propose', repo, tempDir(t, 'co-yaml-'));
  assert.ok(loads(urls, 'chunks/read-only-yaml.cjs'), 'the YAML parser file was not loaded');
  assert.ok(!loadsYamlPackage(urls), 'the yaml package was loaded: the parser was not loaded before the imported file was parsed');
  assert.ok(stdout.includes('- Indent with tabs.') && !stdout.includes('tags:'), stdout);
});
