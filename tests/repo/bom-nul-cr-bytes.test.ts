import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, yesToAll, type Session } from '../helpers/mcp.js';
import { hashTree, sandbox } from '../helpers/sandbox.js';

async function session(t: { after: (fn: () => unknown) => void }, repo: string): Promise<Session> {
  const s = await openSession(t, { repo, elicit: yesToAll });
  return s;
}

async function migrate(s: Session): Promise<void> {
  for (const step of ['propose', 'approve', 'migrate']) {
    const r = await s.call(`onboarding_${step}`);
    assert.equal(r.isError, false, `${step}: ${textOf(r)}`);
  }
}

const notesOf = (r: { structuredContent?: unknown }) => ((r.structuredContent as { notes?: string[] }).notes ?? []).join('\n');

test('a BOM on a nested source never lands before the generated front matter', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '\uFEFF# Rules\n\n- Use pnpm.\n', 'src/AGENTS.md': '\uFEFF- Keep handlers small.\n' });
  const s = await session(t, repo);
  await migrate(s);
  const scoped = fs.readFileSync(path.join(repo, '.github/instructions/src.instructions.md'), 'utf8');
  assert.ok(scoped.startsWith('---\napplyTo: "src/**"\n---\n'), JSON.stringify(scoped.slice(0, 40)));
  assert.ok(!scoped.includes('\uFEFF'));
});

test('a NUL byte after the first 8 KB leaves the file out as binary: no NUL reaches a Copilot file', async (t) => {
  const text = `# Rules\n\n${'- A rule that is long enough to fill the first block.\n'.repeat(200)}- Tail\u0000rule.\n`;
  assert.ok(text.indexOf('\u0000') > 8192);
  const repo = sandbox(t, { 'AGENTS.md': text, 'CLAUDE.md': '- Use pnpm.\n' });
  const s = await session(t, repo);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'proposed');
  assert.match(notesOf(p), /AGENTS\.md looks binary \(a NUL byte at offset \d+\)/);
  await migrate(s);
  assert.ok(!fs.readFileSync(path.join(repo, '.github/copilot-instructions.md')).includes(0));
});

test('front-matter values that are dropped get a note: a yes-or-no that is neither, a key given twice', async (t) => {
  const repo = sandbox(t, {
    '.cursor/rules/api.mdc':
      '---\ndescription: API rules\nglobs: src/old/**\nglobs: src/api/**\nalwaysApply: maybe\n---\n- Validate request bodies.\n',
  });
  const s = await session(t, repo);
  const p = await s.call('onboarding_propose');
  assert.equal(outcomeOf(p), 'proposed', textOf(p));
  const notes = notesOf(p);
  assert.match(
    notes,
    /\.cursor\/rules\/api\.mdc: its front matter sets "globs" 2 times \(lines 3, 4\); only the last one \(line 4: "src\/api\/\*\*"\) is read/,
  );
  assert.match(
    notes,
    /\.cursor\/rules\/api\.mdc: its front matter says alwaysApply: "maybe", which is neither true nor false, so it is read as false/,
  );
});

test('a file with lone-CR line ends (classic Mac) is read as lines and written back with them', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Rules\r\r- Use pnpm.\r- Run tests with vitest.\r',
    'src/AGENTS.md': '- Keep handlers small.\r- Name files in kebab-case.\r',
  });
  const s = await session(t, repo);
  const a = await s.call('onboarding_analyze');
  assert.equal(outcomeOf(a), 'analyzed');
  const before = hashTree(repo);
  await migrate(s);
  const scoped = fs.readFileSync(path.join(repo, '.github/instructions/src.instructions.md'), 'utf8');
  assert.equal(scoped, '---\r' + 'applyTo: "src/**"\r---\r\r- Keep handlers small.\r- Name files in kebab-case.\r');
  const copilot = fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8');
  assert.match(copilot, /\r- Use pnpm\.\r- Run tests with vitest\.\r$/);
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
});
