import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, openSession, textOf } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/** What a person reads names a contradiction by its topic and sides, each location once, never by an internal id. */
const FILES = {
  'AGENTS.md': '# Agents\n\n- Use pnpm for all package management.\n',
  '.cursorrules': '- Use npm to install dependencies.\n',
};
const WORDS = 'the package manager: "npm" (.cursorrules:1) or "pnpm" (AGENTS.md:3)';

const cli = (step: string, repo: string) =>
  spawnSync(process.execPath, [CLI, step, '--repo', repo], { encoding: 'utf8', input: '' }).stdout;

test('analyze, propose and the approve form name a contradiction in the same words, each location once, no id', async (t) => {
  const repo = sandbox(t, FILES);
  const analyzed = cli('analyze', repo);
  assert.ok(analyzed.includes(`- contradiction: ${WORDS} (certainty`), analyzed);
  const proposed = cli('propose', repo);
  assert.ok(proposed.includes(`- ${WORDS}\n`), proposed);
  const s = await openSession(t, { repo, elicit: () => ({ action: 'decline' }) });
  await s.call('onboarding_approve');
  const message = (s.elicitations[0] as { message: string }).message;
  assert.ok(message.includes(`- ${WORDS}\n`) || message.endsWith(`- ${WORDS}`), message);
  for (const text of [analyzed, proposed, message, textOf(await s.call('onboarding_propose'))]) {
    assert.doesNotMatch(text, /conflict_\d/);
    for (const line of text.split('\n')) assert.ok(line.split('AGENTS.md:3').length <= 2, `each location once: ${line}`);
  }
});

test('analyze, propose and the approve form name the same Copilot surfaces for each legacy file (analysis/scope/surfaces.ts)', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agents\n\n- Run the tests before every commit.\n',
    '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n- Validate request bodies.\n',
  });
  const lists = (text: string, file: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`- ${file}`))!;
    assert.ok(line, `${file} in:\n${text}`);
    const today = /read today by ([^;.]+)|no Copilot surface reads it today/.exec(line)![1] ?? 'none';
    const later = /; ([^;]+?) will see its rules only after the migration/.exec(line)?.[1] ?? 'none';
    return { today, later };
  };
  const analyzed = cli('analyze', repo);
  const proposed = cli('propose', repo);
  const s = await openSession(t, { repo, elicit: () => ({ action: 'decline' }) });
  await s.call('onboarding_approve');
  const form = (s.elicitations[0] as { message: string }).message;
  for (const file of ['AGENTS.md', '.cursor/rules/api.mdc']) {
    const fromForm = lists(form, file);
    assert.deepEqual(lists(analyzed, file), fromForm, `analyze and the form about ${file}`);
    assert.deepEqual(lists(proposed, file), fromForm, `propose and the form about ${file}`);
  }
  assert.equal(lists(form, 'AGENTS.md').later, 'code review on GitHub.com and code review in VS Code');
});
