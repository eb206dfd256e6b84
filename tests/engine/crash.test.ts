import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { connect, openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { hashTree, readState, readTraces, round, sandbox, type Cleanup } from '../helpers/sandbox.js';

const FILES = {
  '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n- Run tests with vitest before every commit.\n',
  'AGENTS.md': '- Write a test for every bug fix.\n',
  '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n- Validate request bodies.\n',
  'pkg/CLAUDE.md': '- Keep the package free of cycles.\n',
};

async function approved(t: Cleanup): Promise<string> {
  const repo = sandbox(t, FILES);
  const s = await connect({ repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  await s.close();
  return repo;
}

/** Call a tool on a server that kills itself after the n-th file operation; true when it died. */
async function crashAt(repo: string, tool: string, n: number): Promise<boolean> {
  const s = await connect({ repo, elicit: yesToAll, env: { COPILOT_ONBOARD_CRASH_AFTER: String(n) } });
  try {
    const r = await s.call(tool);
    assert.equal(outcomeOf(r), tool === 'onboarding_migrate' ? 'migrated' : 'rolled_back');
    return false;
  } catch {
    return true;
  } finally {
    await s.close().catch(() => {});
  }
}

async function restart(repo: string) {
  const s = await connect({ repo, elicit: yesToAll });
  const status = (await s.call('onboarding_status')).structuredContent as any;
  return { s, status };
}

test('a migrate killed after any file operation is recovered to one side, and rollback still restores bytes', async (t) => {
  const reference = await approved(t);
  const before = hashTree(reference);
  const s = await openSession(t, { repo: reference, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  await s.close();
  const after = hashTree(reference);

  let crashes = 0;
  for (let n = 1; n < 50; n++) {
    const cleanup = round();
    const repo = await approved(cleanup);
    try {
      if (!(await crashAt(repo, 'onboarding_migrate', n))) break;
      crashes++;
      const { s: again, status } = await restart(repo);
      try {
        const tree = hashTree(repo);
        const side =
          JSON.stringify(tree) === JSON.stringify(before) ? 'before' : JSON.stringify(tree) === JSON.stringify(after) ? 'after' : 'between';
        assert.notEqual(side, 'between', `crash after file operation ${n} left the repository in between`);
        const traces = readTraces(repo, 'elicitation').filter((x) => x.recovery);
        // A crash after the very last operation (clearing the journal) leaves nothing to recover.
        assert.equal(traces.length, status.lastRecovery ? 1 : 0, 'one recovery trace when something was recovered');
        assert.ok(status.lastRecovery || side === 'after', `status reports the recovery after crash ${n}`);
        assert.equal(fs.existsSync(path.join(repo, '.copilot-state/journal.json')), false);
        const all = readTraces(repo, 'elicitation');
        assert.ok(
          traces.length > 0 || all.some((x) => x.action === 'migrate' && x.outcome === 'migrated'),
          `crash after file operation ${n}: the migrate or its recovery is traced`,
        );
        if (side === 'before') {
          assert.equal(status.step, 'proposed', `crash after file operation ${n}: the spent approval is not offered to migrate`);
          assert.match(status.next, /run onboarding_approve/);
        }
        if (side === 'after') {
          assert.equal(outcomeOf(await again.call('onboarding_rollback')), 'rolled_back');
          assert.deepEqual(hashTree(repo), before, `rollback after crash ${n} restores bytes`);
        } else {
          assert.equal(readState(repo)!.migrations.length, 0);
        }
      } finally {
        await again.close();
      }
    } finally {
      await cleanup.done();
    }
  }
  t.diagnostic(`migrate crash points tested and recovered: ${crashes}`);
  assert.ok(crashes >= 6, `crashes tested: ${crashes}`);
});

test('a rollback killed after any file operation is finished at the next start', async (t) => {
  const probe = await approved(t);
  const before = hashTree(probe);
  let crashes = 0;
  for (let n = 1; n < 50; n++) {
    const cleanup = round();
    const repo = await approved(cleanup);
    try {
      const s = await connect({ repo, elicit: yesToAll });
      assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
      await s.close();
      if (!(await crashAt(repo, 'onboarding_rollback', n))) break;
      crashes++;
      const { s: again, status } = await restart(repo);
      await again.close();
      assert.deepEqual(hashTree(repo), before, `crash after rollback file operation ${n}: the rollback is finished`);
      if (status.lastRecovery) assert.equal(status.lastRecovery.operation, 'rollback');
      const all = readTraces(repo, 'elicitation');
      assert.ok(
        all.some((x) => x.recovery) || all.some((x) => x.action === 'rollback' && x.outcome === 'rolled_back'),
        `crash after rollback file operation ${n}: traced`,
      );
      assert.ok(readState(repo)!.migrations[0].rolledBackAt);
    } finally {
      await cleanup.done();
    }
  }
  t.diagnostic(`rollback crash points tested and recovered: ${crashes}`);
  assert.ok(crashes >= 3, `crashes tested: ${crashes}`);
});
