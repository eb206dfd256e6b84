import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, outcomeOf, textOf, type ElicitAnswer } from '../helpers/mcp.js';
import { hashTree, MESSY_INSTRUCTIONS, readTraces, sandbox, tempDir, writeFile, type Cleanup } from '../helpers/sandbox.js';

const FILE = '.github/copilot-instructions.md';
const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

function committedRepo(t: Cleanup): string {
  const repo = sandbox(t, { [FILE]: MESSY_INSTRUCTIONS });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'initial instructions');
  return repo;
}

const answers =
  (migrateExtra: Record<string, unknown> = {}): ElicitAnswer =>
  (req: any) => {
    const props = req.requestedSchema.properties;
    if ('approved' in props) return { action: 'accept', content: { approved: true } };
    if ('understood_risks' in props) return { action: 'accept', content: { confirmed: true, understood_risks: true, ...migrateExtra } };
    return { action: 'accept', content: { confirmed: true } };
  };

test('propose and the forms show HEAD and uncommitted changes in the files the plan touches', async (t) => {
  const repo = committedRepo(t);
  fs.appendFileSync(path.join(repo, FILE), '- Keep functions short.\n');
  const s = await openSession(t, { repo, elicit: answers({ allow_uncommitted: true }) });
  const proposed = await s.call('onboarding_propose');
  assert.match(textOf(proposed), /HEAD [0-9a-f]{7,} initial instructions/);
  assert.match(textOf(proposed), /Uncommitted changes in files the plan touches: \.github\/copilot-instructions\.md/);
  assert.deepEqual((proposed.structuredContent as any).git.modified, [FILE]);
  await s.call('onboarding_approve');
  // The approval round (after the round of choices) shows the git facts with the plan.
  assert.match((s.elicitations.find((e: any) => 'approved' in e.requestedSchema.properties) as any).message, /initial instructions/);
});

test('migrate refuses to overwrite uncommitted changes unless the person allows it in the form', async (t) => {
  const repo = committedRepo(t);
  fs.appendFileSync(path.join(repo, FILE), '- Keep functions short.\n');
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: answers() });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const refused = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(refused), 'precondition_failed');
  assert.match(textOf(refused), /uncommitted changes/);
  const field = (s.elicitations.at(-1) as any).requestedSchema.properties.allow_uncommitted;
  assert.equal(field.type, 'boolean');
  assert.equal(field.default, false);
  assert.deepEqual(hashTree(repo), before);

  const s2 = await openSession(t, { repo, elicit: answers({ allow_uncommitted: true }) });
  await s2.call('onboarding_approve');
  assert.equal(outcomeOf(await s2.call('onboarding_migrate')), 'migrated');
});

test('--branch and --commit migrate on a new branch and commit with a message naming the trace', async (t) => {
  const repo = committedRepo(t);
  const s = await openSession(t, { repo, elicit: answers(), args: ['--branch', 'copilot-onboarding', '--commit'] });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', textOf(migrated));
  assert.match(textOf(migrated), /Committed as [0-9a-f]+/);
  assert.equal(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD'), 'copilot-onboarding');
  const message = git(repo, 'log', '-1', '--format=%B');
  const trace = readTraces(repo, 'elicitation').find((x) => x.action === 'migrate')!;
  assert.ok(message.includes(trace._file), message);
  assert.equal(git(repo, 'status', '--porcelain', '--', FILE), '', 'the migrated file is committed');
});

test("--commit commits the decisions check reads: a fresh clone checks as the person's machine does, and nothing is left untracked (issue 41)", async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agents\n\n- Keep commits small.\n- Write a test for every bug fix.\n',
    'CLAUDE.md': '# Claude\n\n- Keep commits small.\n',
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'initial instructions');
  const s = await openSession(t, { repo, elicit: answers(), args: ['--commit'] });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const migrated = await s.call('onboarding_migrate');
  assert.match(textOf(migrated), /Committed as [0-9a-f]+/, textOf(migrated));
  assert.equal(git(repo, 'status', '--porcelain'), '', 'nothing the migration wrote is left out of the commit');
  const clone = path.join(tempDir(t), 'clone');
  execFileSync('git', ['clone', '-q', repo, clone]);
  const check = (dir: string) => {
    const r = spawnSync(process.execPath, [CLI, 'check', '--repo', dir, '--format', 'json'], { encoding: 'utf8' });
    return { status: r.status, findings: JSON.parse(r.stdout).findings.map((p: { message: string }) => p.message) };
  };
  const here = check(repo);
  assert.deepEqual(check(clone), here, "the fresh clone reports what the person's machine reports");
  assert.equal(here.status, 0, JSON.stringify(here));
});

test('a branch that exists is refused before anything changes', async (t) => {
  const repo = committedRepo(t);
  git(repo, 'branch', 'taken');
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: answers(), args: ['--branch', 'taken'] });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const r = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(r), 'precondition_failed');
  assert.match(textOf(r), /branch taken exists/);
  assert.deepEqual(hashTree(repo), before);
});

test('without git everything works the same', async (t) => {
  const repo = tempDir(t, 'co-nogit-');
  writeFile(repo, FILE, MESSY_INSTRUCTIONS);
  const before = hashTree(repo);
  const s = await openSession(t, { repo, elicit: answers(), args: ['--commit'] });
  assert.match(textOf(await s.call('onboarding_propose')), /not a git work tree/);
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
});

const withChoices =
  (legacy: string): ElicitAnswer =>
  (req: any) => {
    const props = req.requestedSchema.properties;
    if (!('approved' in props) && !('confirmed' in props)) {
      return {
        action: 'accept',
        content: Object.fromEntries(
          Object.keys(props)
            .filter((k) => k.startsWith('legacy'))
            .map((k) => [k, legacy]),
        ),
      };
    }
    return answers()(req);
  };

test('--commit commits the trace it names with the migrated files; nothing it names is left untracked', async (t) => {
  const repo = committedRepo(t);
  const s = await openSession(t, { repo, elicit: answers(), args: ['--commit'] });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', textOf(migrated));
  const trace = readTraces(repo, 'elicitation').find((x) => x.action === 'migrate')!;
  const rel = `.copilot-state/elicitation-traces/${trace._file}`;
  assert.match(textOf(migrated), new RegExp(`Committed as [0-9a-f]+, with its trace ${rel.replace(/\./g, '\\.')}\\.`));
  assert.ok(git(repo, 'log', '-1', '--format=%B').includes(`Trace ${rel}`));
  assert.equal(git(repo, 'ls-files', '--', rel), rel, 'the named trace is in the commit');
  assert.equal(git(repo, 'status', '--porcelain', '--', rel, FILE), '');
  // Backups and the plan stay out of it.
  assert.equal(git(repo, 'ls-files', '--', '.copilot-state/backups', '.copilot-state/plan.json'), '');
  // The migrate form said so before anything was written.
  assert.match(
    (s.elicitations.at(-1) as any).message,
    /With --commit: the migrated files and the traces under \.copilot-state\/ \(this migrate's trace included\) are committed on branch/,
  );
});

test('--commit when git ignores .copilot-state/ commits the files and names no trace', async (t) => {
  const repo = committedRepo(t);
  fs.writeFileSync(path.join(repo, '.gitignore'), '.copilot-state/\n');
  git(repo, 'add', '.gitignore');
  git(repo, 'commit', '-qm', 'ignore state');
  const s = await openSession(t, { repo, elicit: answers(), args: ['--commit'] });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const migrated = await s.call('onboarding_migrate');
  assert.match(textOf(migrated), /Committed as [0-9a-f]+ \(git ignores the traces, so the commit holds none\)\./);
  assert.doesNotMatch(git(repo, 'log', '-1', '--format=%B'), /Trace /);
  assert.equal(git(repo, 'status', '--porcelain', '--', FILE), '');
});

test('--commit on a detached HEAD is refused before anything is written; with --branch it commits on the new branch', async (t) => {
  const repo = committedRepo(t);
  git(repo, 'checkout', '-q', '--detach');
  const s = await openSession(t, { repo, elicit: answers(), args: ['--commit'] });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const before = hashTree(repo);
  const asked = s.elicitations.length;
  const refused = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(refused), 'precondition_failed');
  assert.match(
    textOf(refused),
    /--commit on a detached HEAD \([0-9a-f]+ initial instructions\) would make a commit that belongs to no branch/,
  );
  assert.equal(s.elicitations.length, asked, 'nothing was asked');
  assert.deepEqual(hashTree(repo), before);
  const s2 = await openSession(t, { repo, elicit: answers(), args: ['--commit', '--branch', 'onboarding'] });
  const migrated = await s2.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', textOf(migrated));
  assert.equal(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD'), 'onboarding');
  assert.equal(git(repo, 'log', '-1', '--format=%s'), "copilot-onboard: migrate instructions to Copilot's layout");
});

test('--commit with a removed legacy file git does not track: said before, and the rest is committed', async (t) => {
  const repo = committedRepo(t);
  writeFile(repo, 'AGENTS.md', '# Agents\n\n- Use npm to install dependencies.\n');
  const s = await openSession(t, { repo, elicit: withChoices('remove'), args: ['--commit'] });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', textOf(migrated));
  assert.match(
    (s.elicitations.at(-1) as any).message,
    /Not in the commit: AGENTS\.md: git does not track it, so its removal is no change a commit can hold/,
  );
  assert.match(textOf(migrated), /Committed as [0-9a-f]+/);
  assert.ok(!fs.existsSync(path.join(repo, 'AGENTS.md')));
  assert.equal(git(repo, 'status', '--porcelain', '--', FILE), '', 'the Copilot file is committed');
  assert.match(git(repo, 'show', '--stat', '--format=', 'HEAD'), /copilot-instructions\.md/);
});

test('rollback after --commit says, before it asks, that the commit and branch stay; history is not rewritten', async (t) => {
  const repo = committedRepo(t);
  const s = await openSession(t, { repo, elicit: answers(), args: ['--commit', '--branch', 'onboarding'] });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  await s.call('onboarding_migrate');
  const head = git(repo, 'rev-parse', '--short', 'HEAD');
  const rolled = await s.call('onboarding_rollback');
  assert.equal(outcomeOf(rolled), 'rolled_back', textOf(rolled));
  const said = new RegExp(
    `The migration was committed by --commit as ${head} \\(on onboarding\\)\\. Rollback restores the files in the work tree only: it does not rewrite git history`,
  );
  assert.match((s.elicitations.at(-1) as any).message, said, 'said in the rollback form');
  assert.match(textOf(rolled), said);
  assert.equal(git(repo, 'rev-parse', '--short', 'HEAD'), head, 'the commit stays');
  assert.equal(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD'), 'onboarding', 'the branch stays');
  assert.notEqual(git(repo, 'status', '--porcelain', '--', FILE), '', 'the restored file shows as an uncommitted change');
});
