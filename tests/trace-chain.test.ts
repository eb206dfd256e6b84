import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { connect, outcomeOf, textOf, yesToAll } from './helpers/mcp.js';
import { hashTree, makeRepo, MESSY_INSTRUCTIONS, removeRepo } from './helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';

for (const [what, name] of [
  ['the chain head', 'trace-chain.json'],
  ["the traces lock's owner file", 'traces.lock-owner.json'],
] as const) {
  test(`migrate does not start when ${what} cannot be written (a folder in its place), and nothing changes`, async (t) => {
    const repo = makeRepo({ [FILE]: MESSY_INSTRUCTIONS });
    t.after(() => removeRepo(repo));
    const first = await connect({ repo, elicit: yesToAll });
    await first.call('onboarding_propose');
    assert.equal(outcomeOf(await first.call('onboarding_approve')), 'approved');
    await first.close();
    const file = path.join(repo, '.copilot-state', name);
    fs.rmSync(file, { force: true });
    fs.mkdirSync(file);
    const tree = hashTree(repo);
    const s = await connect({ repo, elicit: yesToAll });
    t.after(() => s.close());
    const r = await s.call('onboarding_migrate');
    assert.equal(outcomeOf(r), 'error', textOf(r));
    assert.match(textOf(r), new RegExp(`trace cannot be written.*${name.replace(/\./g, '\\.')}`));
    assert.equal(s.elicitations.length, 0, 'the person is not asked');
    assert.deepEqual(hashTree(repo), tree);
    assert.equal(fs.existsSync(path.join(repo, '.copilot-state/backups')), false, 'no backup was made');
  });
}

