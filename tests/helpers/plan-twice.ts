import fs from 'node:fs';
import path from 'node:path';
import { buildPlan } from '../../server/src/planning/plan.js';
import { scanRepository } from '../../server/src/analysis/scan.js';
import { sandbox, writeFile, type Cleanup } from './sandbox.js';

/** Plan a sandbox of these files, write every operation's content as migrate would, and plan again (a migrated repository's plan should be a no-op). */
export async function planTwice(t: Cleanup, files: Record<string, string>) {
  const repo = sandbox(t, files);
  const first = buildPlan(await scanRepository(repo));
  for (const op of first.operations) {
    if (op.content === null) fs.rmSync(path.join(repo, op.path));
    else writeFile(repo, op.path, op.content);
  }
  const second = buildPlan(await scanRepository(repo));
  const read = (p: string) => fs.readFileSync(path.join(repo, p), 'utf8');
  return { repo, first, second, read };
}
