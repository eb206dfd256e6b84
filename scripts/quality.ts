// npm run quality: how good the plans and the findings are, measured against judged sets of our own
// (tests/fixtures/judged-*) and listed for the corpus (../shared/corpus). Each part is its own script;
// this runs them in turn and fails when one fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const parts = ['quality-structure.ts', 'quality-debris.ts', 'quality-fidelity.ts', 'quality-detection.ts', 'quality-real.ts'].filter((p) =>
  existsSync(path.join(here, p)),
);
let failed = false;
for (const part of parts) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, part), ...process.argv.slice(2)], { stdio: 'inherit' });
  failed ||= r.status !== 0;
}
if (parts.length === 0) console.log('quality: no measures yet');
process.exit(failed ? 1 : 0);
