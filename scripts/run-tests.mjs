// Runs every tests/**/*.test.ts with Node's own test runner (Node 20 has no --test globs).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('..', import.meta.url).pathname);
const only = process.argv.slice(2);
function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'helpers' || name === 'fixtures' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}
const files = (only.length ? only.map((f) => path.resolve(f)) : find(path.join(root, 'tests'))).sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(result.status ?? 1);
