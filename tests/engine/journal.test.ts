/**
 * engine/journal.ts in process, on real folders: the write-ahead journal of a migrate or rollback is
 * written (sealed to this clone), read back and cleared; a journal this clone did not write is
 * ignored and reported; one it wrote that cannot be read is refused with a clear error and left as it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { clearJournal, JOURNAL_REL, readJournal, writeJournal } from '../../server/src/engine/journal.js';
import { StateDamagedError } from '../../server/src/state/store.js';
import { sealed } from '../../server/src/state/binding.js';
import { foreignState } from '../../server/src/state/foreign.js';
import { sandbox, writeFile } from '../helpers/sandbox.js';

const JOURNAL = {
  version: 1 as const,
  operation: 'migrate' as const,
  migrationId: 'm1',
  planHash: 'a'.repeat(64),
  startedAt: '2026-01-02T03:04:05.000Z',
  phase: 'apply' as const,
  pid: 4242,
  files: [
    { path: '.github/copilot-instructions.md', beforeSha256: null, afterSha256: 'b'.repeat(64) },
    { path: 'AGENTS.md', beforeSha256: 'c'.repeat(64), afterSha256: null, linkTarget: 'CLAUDE.md' },
  ],
  edited: [],
};

test('no journal reads as null: nothing was interrupted', async (t) => {
  const repo = sandbox(t);
  assert.equal(await readJournal(repo), null);
});

test('a journal written is read back as it was, and clearing removes the file', async (t) => {
  const repo = sandbox(t);
  await writeJournal(repo, JOURNAL);
  const file = path.join(repo, JOURNAL_REL);
  assert.equal(JOURNAL_REL, '.copilot-state/journal.json');
  const { binding, writtenBy, ...onDisk } = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.deepEqual(onDisk, JOURNAL, 'the file on disk holds the journal');
  assert.match(binding, /^hmac-sha256:[0-9a-f]{64}$/, 'sealed to this clone');
  assert.match(writtenBy, /^\d+\.\d+\.\d+$/, 'it names the version that wrote it');
  assert.deepEqual(await readJournal(repo), { ...JOURNAL, writtenBy });
  await clearJournal(repo);
  assert.equal(fs.existsSync(file), false);
  assert.equal(await readJournal(repo), null);
});

test('writing a journal again replaces it whole (the phase moves on)', async (t) => {
  const repo = sandbox(t);
  await writeJournal(repo, { ...JOURNAL, phase: 'backup' });
  await writeJournal(repo, JOURNAL);
  assert.equal((await readJournal(repo))!.phase, 'apply');
});

for (const [what, bytes] of [
  ['cut off mid-write', '{"version": 1, "operation": "mig'],
  ['empty', ''],
  ['the right shape, not written here', JSON.stringify(JOURNAL)],
] as const) {
  test(`a journal that is ${what} is ignored (no recovery acts on it), reported as not written here, and left as it is`, async (t) => {
    const repo = sandbox(t, { [JOURNAL_REL]: bytes });
    assert.equal(await readJournal(repo), null);
    assert.deepEqual((await foreignState(repo))?.files, [JOURNAL_REL]);
    assert.equal(fs.readFileSync(path.join(repo, JOURNAL_REL), 'utf8'), bytes, 'the journal is not touched');
  });
}

for (const [what, value, problem] of [
  [
    'of another shape (an unknown phase)',
    { ...JOURNAL, phase: 'flying' },
    /journal\.json is damaged: it does not match its schema \(phase: /,
  ],
  ['missing its files', { ...JOURNAL, files: undefined }, /journal\.json is damaged: it does not match its schema \(files: /],
] as const) {
  test(`a journal this clone wrote that is ${what} is refused with what happened and what to do, and left as it is`, async (t) => {
    const repo = sandbox(t);
    const bytes = JSON.stringify(await sealed(repo, JOURNAL_REL, value));
    writeFile(repo, JOURNAL_REL, bytes);
    const err = await readJournal(repo).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof StateDamagedError, `a StateDamagedError, not ${String(err)}`);
    assert.match(err.message, /^\.copilot-state\/journal\.json is damaged/);
    assert.match(err.message, problem);
    assert.match(err.message, /A migrate or rollback was interrupted/);
    assert.match(err.message, /move journal\.json aside to go on/);
    assert.doesNotMatch(err.message, /Backups of earlier migrations/, 'no backups to point at');
    assert.equal(fs.readFileSync(path.join(repo, JOURNAL_REL), 'utf8'), bytes, 'the journal is not touched');
  });
}

test('a damaged journal points at the latest backup, where the original bytes are', async (t) => {
  const repo = sandbox(t, {
    '.copilot-state/backups/2026-01-01T00-00-00Z/manifest.json': '{}',
    '.copilot-state/backups/2026-02-01T00-00-00Z/manifest.json': '{}',
  });
  writeFile(repo, JOURNAL_REL, JSON.stringify(await sealed(repo, JOURNAL_REL, { ...JOURNAL, phase: 'flying' })));
  await assert.rejects(readJournal(repo), (err: Error) => {
    assert.match(err.message, /Backups of earlier migrations are in \.copilot-state\/backups\/ \(latest: 2026-02-01T00-00-00Z\)/);
    return true;
  });
});
