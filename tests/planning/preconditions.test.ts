import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll, type Session } from '../helpers/mcp.js';
import { hashTree, readState, sandbox, writeFile } from '../helpers/sandbox.js';

const RULES = '# Rules\n\n- Use pnpm for all package management.\n';
const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-C', repo, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

async function session(t: { after: (fn: () => unknown) => void }, repo: string): Promise<Session> {
  const s = await openSession(t, { repo, elicit: yesToAll });
  return s;
}

/** propose, approve, migrate: every step's outcome, in order. */
async function fullRun(s: Session): Promise<string[]> {
  const out: string[] = [];
  for (const step of ['propose', 'approve', 'migrate']) {
    const r = await s.call(`onboarding_${step}`);
    out.push(outcomeOf(r));
    if (r.isError) {
      out.push(textOf(r));
      break;
    }
  }
  return out;
}

test('a file over the read limit is left out with its size and the limit, and the plan still applies', async (t) => {
  const big = `# Big\n\n${'- a rule that repeats\n'.repeat(60_000)}`;
  const repo = sandbox(t, { 'AGENTS.md': RULES, 'docs/AGENTS.md': big });
  const s = await session(t, repo);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'proposed');
  const notes = (p.structuredContent as { notes: string[] }).notes.join('\n');
  assert.match(notes, new RegExp(`docs/AGENTS\\.md is ${Buffer.byteLength(big)} bytes, over the 1048576-byte limit`));
  assert.deepEqual(await fullRun(s), ['proposed', 'approved', 'migrated']);
  assert.equal(fs.readFileSync(path.join(repo, 'docs/AGENTS.md'), 'utf8'), big);
});

test('a nested AGENTS.md under a very long folder name gets a bounded target name, its full folder in applyTo, and migrates', async (t) => {
  const long = 'a'.repeat(235);
  const deep = Array.from({ length: 30 }, (_, i) => `folder-number-${i}`).join('/');
  const repo = sandbox(t, {
    'AGENTS.md': RULES,
    [`${long}/AGENTS.md`]: '- Long folder rule.\n',
    [`${deep}/AGENTS.md`]: '- Deep folder rule.\n',
  });
  const s = await session(t, repo);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'proposed', textOf(p));
  const ops = (p.structuredContent as { operations: { path: string }[] }).operations;
  for (const op of ops) assert.ok(path.posix.basename(op.path).length <= 100, op.path);
  assert.deepEqual(await fullRun(s), ['proposed', 'approved', 'migrated']);
  const written = fs.readdirSync(path.join(repo, '.github/instructions'));
  const texts = written.map((n) => fs.readFileSync(path.join(repo, '.github/instructions', n), 'utf8'));
  assert.ok(texts.some((x) => x.includes(`applyTo: "${long}/**"`) && x.includes('- Long folder rule.')));
  assert.ok(texts.some((x) => x.includes(`applyTo: "${deep}/**"`) && x.includes('- Deep folder rule.')));
});

for (const [what, files, blocker] of [
  ['.github is a file', { '.github': 'not a folder\n' }, '.github'],
  ['.github/instructions is a file', { '.github/instructions': 'not a folder\n' }, '.github/instructions'],
] as const) {
  test(`propose refuses up front, with what to do, when ${what}`, async (t) => {
    const repo = sandbox(t, { 'AGENTS.md': RULES, 'src/AGENTS.md': '- Source rule.\n', ...files });
    const s = await session(t, repo);
    const before = hashTree(repo);
    const p = await s.call('onboarding_propose');
    assert.equal(outcomeOf(p), 'precondition_failed', textOf(p));
    assert.match(textOf(p), new RegExp(`${blocker.replace('.', '\\.')} is a file`));
    assert.match(textOf(p), /propose again/);
    assert.deepEqual(hashTree(repo), before);
    assert.equal(readState(repo)?.plan ?? null, null);
  });
}

test('a Copilot file that is a folder refuses propose up front, with what to do', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': RULES, '.github/copilot-instructions.md/README': 'a folder\n' });
  const s = await session(t, repo);
  const before = hashTree(repo);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'precondition_failed', textOf(p));
  assert.match(textOf(p), /\.github\/copilot-instructions\.md is a folder, where Copilot reads a file: move it aside/);
  assert.deepEqual(hashTree(repo), before);
});

test('an existing Copilot file that git ignores refuses propose with the reason, never a stale plan', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': RULES, '.gitignore': '.github/\n', '.github/copilot-instructions.md': '# Mine\n' });
  const s = await session(t, repo);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'precondition_failed', textOf(p));
  assert.match(textOf(p), /\.github\/copilot-instructions\.md exists but git ignores it/);
});

test('a merge in progress refuses propose with the reason, and no conflict marker is copied', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': RULES });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'one');
  git(repo, 'checkout', '-qb', 'other');
  writeFile(repo, 'AGENTS.md', `${RULES}- Use yarn.\n`);
  git(repo, 'commit', '-qam', 'two');
  git(repo, 'checkout', '-q', '-');
  writeFile(repo, 'AGENTS.md', `${RULES}- Use npm.\n`);
  git(repo, 'commit', '-qam', 'three');
  assert.throws(() => git(repo, 'merge', 'other'));
  assert.match(fs.readFileSync(path.join(repo, 'AGENTS.md'), 'utf8'), /^<<<<<<< /m);
  const s = await session(t, repo);
  const before = hashTree(repo);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'precondition_failed', textOf(p));
  assert.match(textOf(p), /a merge is in progress/);
  assert.deepEqual(hashTree(repo), before);
});

test('a bare repository is refused and gets no .copilot-state', async (t) => {
  const repo = sandbox(t);
  const bare = `${repo}/bare.git`;
  execFileSync('git', ['init', '-q', '--bare', bare]);
  const s = await session(t, bare);
  for (const step of ['analyze', 'propose', 'status']) {
    const r = await s.call(`onboarding_${step}`);
    assert.equal(outcomeOf(r), 'precondition_failed', `${step}: ${textOf(r)}`);
    assert.match(textOf(r), /bare repository/);
  }
  assert.equal(fs.existsSync(path.join(bare, '.copilot-state')), false);
});

test('a tracked file missing from the work tree (sparse checkout) is named as such, not as a broken symlink', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': RULES, 'far/AGENTS.md': '- Far rule.\n' });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'one');
  git(repo, 'sparse-checkout', 'set', '--no-cone', '/AGENTS.md');
  assert.equal(fs.existsSync(path.join(repo, 'far/AGENTS.md')), false);
  const s = await session(t, repo);
  const a = await s.call('onboarding_analyze');
  assert.equal(outcomeOf(a), 'analyzed');
  assert.doesNotMatch(JSON.stringify(a.structuredContent), /broken symlink/);
  assert.deepEqual(await fullRun(s), ['proposed', 'approved', 'migrated']);
});

test('a source that still holds conflict markers (committed so) refuses propose, and nothing is copied', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': `${RULES}<<<<<<< HEAD\n- Use npm.\n=======\n- Use yarn.\n>>>>>>> other\n` });
  const s = await session(t, repo);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'precondition_failed', textOf(p));
  assert.match(textOf(p), /AGENTS\.md \(line 4\) still holds merge conflict markers/);
  assert.equal(fs.existsSync(path.join(repo, '.github')), false);
});
