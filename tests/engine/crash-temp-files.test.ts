import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { connect, openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, sandbox } from '../helpers/sandbox.js';

test('temporary files a kill -9 left mid-write are removed by recovery, and the repository is back on one side', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': MESSY_INSTRUCTIONS, 'src/AGENTS.md': '- Keep handlers small.\n' });
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  await s.close();
  // Killed after its first file operation; then, as if a write had been cut between its temp file and the rename:
  const k = await connect({ repo, elicit: yesToAll, env: { COPILOT_ONBOARD_CRASH_AFTER: '1' } });
  await assert.rejects(k.call('onboarding_migrate'));
  await k.close().catch(() => {});
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  const temp = `.github/.copilot-tmp-${dead}-0123456789ab`;
  fs.mkdirSync(path.join(repo, '.github'), { recursive: true });
  fs.writeFileSync(path.join(repo, temp), 'half of a file');
  const r = await openSession(t, { repo, elicit: yesToAll });
  const status = await r.call('onboarding_status');
  assert.match(JSON.stringify(status.structuredContent), /temporary file left by the interrupted write was removed/);
  assert.equal(fs.existsSync(path.join(repo, temp)), false);
  assert.deepEqual(hashTree(repo), before);
});
