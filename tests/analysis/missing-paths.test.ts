import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { analyze } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { namedPath } from '../../server/src/analysis/discovery/missing-paths.js';
import { CORPUS, corpusRepos, requireCorpus } from '../helpers/corpus.js';
import { sandbox, tempDir } from '../helpers/sandbox.js';

/** The missing paths analysis reports in a repository: `path at file:line, ...`. */
async function missing(repo: string): Promise<string[]> {
  const analysis = analyze(await scanRepository(repo));
  return analysis.problems
    .filter((p) => p.kind === 'missing-path')
    .map((p) => {
      assert.equal(p.type, 'ambiguity');
      assert.equal(p.certainty, 'low', 'not measured on the judged set: low');
      const named = /^A rule names (\S+), which/.exec(p.description)![1];
      return `${named} at ${p.locations.map((l) => `${l.path}:${l.line}`).join(', ')}`;
    });
}

/** A repository with some code, so that its folders hold more than instruction files. */
const CODE = {
  'package.json': '{}\n',
  'src/index.ts': 'export {};\n',
  'src/utils/strings.ts': 'export {};\n',
  'docs/setup.md': '# Setup\n',
  'packages/web/src/app.ts': 'export {};\n',
  '.github/workflows/ci.yml': 'on: push\n',
};

test('a rule naming a file the repository does not have is reported, once per path, at every line naming it', async (t) => {
  const repo = sandbox(t, {
    ...CODE,
    'AGENTS.md': [
      '# Agents',
      '',
      '- Read `docs/setup-guide.md` before you start.',
      '- String helpers live in `src/utils/text.ts`.',
      '- See [the guide](docs/setup-guide.md#install) for the details.',
      '- Run `./scripts/check.sh` before pushing.',
      '- The CI workflow is `.github/workflows/release.yml`.',
      '',
    ].join('\n'),
  });
  assert.deepEqual(await missing(repo), [
    'docs/setup-guide.md at AGENTS.md:3, AGENTS.md:5',
    'src/utils/text.ts at AGENTS.md:4',
    '.github/workflows/release.yml at AGENTS.md:7',
  ]);
});

test('files that are there are not reported: from the root, from the file’s folder, as the end of a listed path, or a folder', async (t) => {
  const repo = sandbox(t, {
    ...CODE,
    'AGENTS.md': [
      '# Agents',
      '',
      '- Read `docs/setup.md` and `./package.json`.',
      '- The entry point is `src/index.ts` (`src/index.ts:1`).',
      '- The app starts in `src/app.ts`.',
      '- The workflow is [ci](.github/workflows/ci.yml).',
      '',
    ].join('\n'),
    'packages/web/AGENTS.md': '# Web\n\n- Start at `src/app.ts` and `../../src/index.ts`.\n',
  });
  assert.deepEqual(await missing(repo), []);
});

test('what is not clearly a repository path, or not a claim that it is there, is never reported', async (t) => {
  const repo = sandbox(t, {
    ...CODE,
    'AGENTS.md': [
      '# Agents',
      '',
      '- Docs are at https://example.com/docs/setup-guide.md and `https://x.dev/a/b.md`.',
      '- Tests match `src/**/*.test.ts` and `src/{a,b}/c.ts`.',
      '- Name files `src/<feature>/index.ts` or `src/$NAME/main.ts`.',
      '- For example, `src/utils/dates.ts` holds date helpers.',
      '- Create `src/utils/new-helper.ts` for a new helper.',
      '- Put secrets in `src/.env.local` and `config/.env`; builds go to `dist/bundle.js`.',
      '- Editor settings are in `.vscode/settings.json`.',
      '- Use `/etc/hosts`, `~/notes/todo.md` and `github.com/acme/x.go`.',
      '- Version `1.2/3.4` and a word `and/or`.',
      '',
      '```sh',
      'cat src/utils/missing.ts',
      '```',
      '',
    ].join('\n'),
  });
  assert.deepEqual(await missing(repo), []);
});

test('a path whose folder holds no code, only instruction files, is not reported: a copy of the rules alone says nothing of the code', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agents\n\n- Run `./build.sh`; the guide is `docs/guide.md`.\n',
    'docs/AGENTS.md': '# Docs\n\n- Keep it short.\n',
  });
  assert.deepEqual(await missing(repo), []);
});

test('namedPath reads only what clearly is a repository path', () => {
  const cases: [string, string | null][] = [
    ['src/a.ts', 'src/a.ts'],
    ['./build.sh', './build.sh'],
    ['../README.md', '../README.md'],
    ['src/a.ts:12', 'src/a.ts'],
    ['docs/a.md#part', 'docs/a.md'],
    ['README.md', null],
    ['src/', null],
    ['src/a', null],
    ['v1.2/3.4', null],
    ['https://a.dev/x.md', null],
    ['src/*.ts', null],
    ['a.com/x.js', null],
    ['.github/workflows/ci.yml', '.github/workflows/ci.yml'],
    ['.cursor/mcp.json', null],
    ['build/out.js', null],
    ['src//a.ts', null],
  ];
  for (const [raw, want] of cases) assert.equal(namedPath(raw), want, raw);
});

test('the corpus: its repositories hold their instruction files alone, and nothing is reported in them', async (t) => {
  if (!requireCorpus(t)) return;
  const found: string[] = [];
  for (const name of corpusRepos()) {
    const repo = path.join(tempDir(t), name);
    fs.cpSync(path.join(CORPUS, name), repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    for (const m of await missing(repo)) found.push(`${name}: ${m}`);
  }
  assert.deepEqual(found, []);
});
