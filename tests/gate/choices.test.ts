import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { hashTree, readState, readTraces, sandbox } from '../helpers/sandbox.js';

const FILES = {
  '.github/copilot-instructions.md': '# Rules\n\n- Use pnpm for all package management.\n',
  'AGENTS.md': '- Use npm to install dependencies.\n- Write a test for every bug fix.\n',
  'CLAUDE.md': '- Explain shell commands before running them.\n',
  '.cursor/rules/api.mdc': '---\nglobs: src/api/**\n---\n- Validate request bodies.\n',
};

const fieldFor = (props: Record<string, any>, needle: string) => Object.keys(props).find((k) => String(props[k].title).includes(needle))!;

test('the approve form offers keep, remove or pointer per legacy file and which rule stands, all with safe defaults', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: choosing(() => ({})) });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  const form = s.elicitations[0] as any;
  const props = form.requestedSchema.properties;
  const agents = props[fieldFor(props, 'AGENTS.md')];
  assert.equal(agents.default, 'keep');
  assert.deepEqual(
    agents.oneOf.map((o: any) => o.const),
    ['keep', 'remove'],
  );
  const claude = props[fieldFor(props, 'CLAUDE.md')];
  assert.deepEqual(
    claude.oneOf.map((o: any) => o.const),
    ['keep', 'remove', 'pointer'],
  );
  const conflict = props[fieldFor(props, 'Which rule stands?')];
  assert.equal(conflict.default, 'keep_all');
  assert.deepEqual(form.requestedSchema.required, [], 'the first round asks only the choices');
  assert.deepEqual((s.elicitations[1] as any).requestedSchema.required, ['approved'], 'the second round asks for the approval');
  assert.match(form.message, /AGENTS\.md: its rules go to \.github\/copilot-instructions\.md/);
  assert.match(form.message, /load twice/);
});

test('default choices keep every legacy file and mark the contradiction in the file', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: choosing(() => ({})) });
  await s.call('onboarding_propose');
  const a = await s.call('onboarding_approve');
  assert.equal(outcomeOf(a), 'approved', textOf(a));
  const m = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(m), 'migrated', textOf(m));
  for (const p of ['AGENTS.md', 'CLAUDE.md', '.cursor/rules/api.mdc']) {
    assert.equal(fs.readFileSync(path.join(repo, p), 'utf8'), FILES[p as keyof typeof FILES], `${p} kept`);
  }
  const out = fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8');
  // Both sides stand together under the one mark (issue 31).
  assert.equal(out.match(/<!-- copilot-onboard: conflicting rules about package manager/g)?.length, 2, out); // one above each side: the person's stays in their text, the other goes after it
  // The person's line stays where it was; the other side comes right after it (issue 40).
  // The person's file is fixed ground (issue 40): their line stays in place (a mark above it), the side brought in goes after their text.
  assert.ok(
    out.replace(/^<!-- copilot-onboard: conflicting rules about [^\n]*\n/gm, '').startsWith(FILES['.github/copilot-instructions.md']),
    out,
  );
  assert.match(out, /decide which one stands -->\n- Use npm to install dependencies\.\n/, out);
  assert.match(fs.readFileSync(path.join(repo, '.github/instructions/api.instructions.md'), 'utf8'), /^applyTo: "src\/api\/\*\*"$/m);
});

test('chosen fates and a chosen rule are applied, traced, and rolled back byte for byte', async (t) => {
  const repo = sandbox(t, FILES);
  const before = hashTree(repo);
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) => {
      const conflict = fieldFor(props, 'Which rule stands?');
      const pnpm = props[conflict].oneOf.find((o: any) => /pnpm/.test(o.title)).const;
      return { [fieldFor(props, 'AGENTS.md')]: 'remove', [fieldFor(props, 'CLAUDE.md')]: 'pointer', [conflict]: pnpm };
    }),
  });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved');
  assert.match(textOf(approved), /AGENTS\.md: remove/);
  assert.deepEqual(readState(repo)!.approval.choices.legacy, { 'AGENTS.md': 'remove', 'CLAUDE.md': 'pointer' });
  const trace = readTraces(repo, 'elicitation')[0]!;
  assert.equal(trace.response.content[Object.keys(trace.response.content).find((k) => k.startsWith('legacy_'))!], 'remove');

  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', textOf(migrated));
  assert.match((s.elicitations[1] as any).message, /Remove AGENTS\.md/, 'the approval round shows the removal');
  assert.match((s.elicitations[2] as any).message, /Remove AGENTS\.md/);
  assert.match(
    (s.elicitations[2] as any).message,
    /With your choices, the changes are:[\s\S]*-- a\/CLAUDE\.md/,
    'the migrate form shows the diff the choices lead to',
  );
  assert.equal(fs.existsSync(path.join(repo, 'AGENTS.md')), false);
  assert.equal(fs.readFileSync(path.join(repo, 'CLAUDE.md'), 'utf8'), '@.github/copilot-instructions.md\n');
  const out = fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8');
  assert.match(out, /- Use pnpm for all package management\./);
  assert.doesNotMatch(out, /Use npm to install/, 'the rule the person did not keep is dropped');
  assert.match(out, /- Write a test for every bug fix\./);
  assert.match(out, /- Explain shell commands before running them\./);
  assert.doesNotMatch(out, /copilot-onboard: conflicting/);

  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
});
