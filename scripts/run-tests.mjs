// Runs the tests with Node's own test runner (Node 20 has no --test globs): the unit tests first,
// then the end-to-end ones. `--group unit` or `--group e2e` runs one group; file arguments run those
// files (of the group, when one is named); `--list` prints each file with its group instead.
//
// The rule (docs/verification.md): a test file is end-to-end when it needs the build, that is when
// it, a test helper it imports (directly or through another helper) or a script of scripts/ it runs
// names `server/dist`: it starts the built server or CLI, or reads what the build wrote. Every
// other file is a unit test: it calls the sources in process.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const { values, positionals } = parseArgs({ options: { group: { type: 'string' }, list: { type: 'boolean' } }, allowPositionals: true });
if (values.group !== undefined && values.group !== 'unit' && values.group !== 'e2e') {
  console.error(`--group is unit or e2e, not ${values.group}`);
  process.exit(2);
}

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'helpers' || name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const BUILD = /server\/dist\b/;
const helpers = path.join(root, 'tests', 'helpers') + path.sep;
const needsBuild = new Map();

/** Whether this test or helper needs the build: it, a helper it imports or a script it runs names server/dist. */
function isEndToEnd(file, seen = new Set()) {
  if (needsBuild.has(file)) return needsBuild.get(file);
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const imported = [...text.matchAll(/(?:from\s+|import\(\s*)'(\.{1,2}\/[^']+)'/g)]
    .map((m) => path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.ts')))
    .filter((f) => f.startsWith(helpers));
  const scripts = [...text.matchAll(/scripts\/([\w.-]+\.m?[jt]s)\b/g)].map((m) => path.join(root, 'scripts', m[1]));
  const answer =
    BUILD.test(text) ||
    imported.some((f) => isEndToEnd(f, seen)) ||
    scripts.some((s) => {
      try {
        return BUILD.test(readFileSync(s, 'utf8'));
      } catch {
        return false;
      }
    });
  needsBuild.set(file, answer);
  return answer;
}

const files = (positionals.length ? positionals.map((f) => path.resolve(f)) : find(path.join(root, 'tests'))).sort();
const groups = [
  ['unit', files.filter((f) => !isEndToEnd(f))],
  ['e2e', files.filter((f) => isEndToEnd(f))],
].filter(([name, list]) => list.length > 0 && (values.group === undefined || values.group === name));

if (values.list) {
  for (const [name, list] of groups) for (const f of list) console.log(`${name} ${path.relative(root, f)}`);
  process.exit(0);
}
if (groups.length === 0) console.log('# no test file in that group');
let status = 0;
for (const [name, list] of groups) {
  if (groups.length > 1 || values.group) console.log(`# ${name}: ${list.length} file${list.length === 1 ? '' : 's'}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...list], {
    stdio: 'inherit',
    cwd: root,
  });
  status ||= result.status ?? 1;
}
process.exit(status);
