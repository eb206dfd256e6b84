import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { choosing, openSession, outcomeOf, textOf } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * A managed block (any tool's paired markers) is byte for byte, whatever the person chooses (issue 40):
 * settling a contradiction, leaving out or rewriting lines for another assistant, or a line that only
 * points at the target never drops or edits a line inside one. The choices round says the line stays
 * because a tool manages it. A legacy file's block stays in that file (managed-stays.test.ts), under
 * every choice.
 */
const COPILOT = '.github/copilot-instructions.md';
const BLOCK = '<!-- BEGIN PKG RULES -->\n## Packages\n\n- Use pnpm to install dependencies.\n<!-- END PKG RULES -->\n';
const NAMED =
  '<!-- usage-rules-start -->\n<!-- claude:rules-start -->\n## Claude rules\n\n- Claude Code should run `mix test` before it commits.\n<!-- claude:rules-end -->\n<!-- usage-rules-end -->\n';
const read = (repo: string, p: string) => fs.readFileSync(path.join(repo, p), 'utf8');
const fieldFor = (props: Record<string, any>, prefix: string) => Object.keys(props).find((k) => k.startsWith(prefix))!;

test('settling a contradiction for the side outside a managed block keeps the side inside it: the round says so, the block stays in its file byte for byte', async (t) => {
  const repo = sandbox(t, {
    '.cursorrules': '- Use npm to install dependencies.\n',
    'CLAUDE.md': `# Claude\n\n- Write tests first.\n\n${BLOCK}`,
  });
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) => {
      const id = fieldFor(props, 'conflict_');
      // The side that keeps .cursorrules' npm line: the other side is inside the block.
      const npm = props[id].oneOf.find((o: any) => String(o.title).startsWith('Keep only "- Use npm'));
      return { [id]: npm.const };
    }),
  });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  const props = (s.elicitations[0] as any).requestedSchema.properties;
  const npm = props[fieldFor(props, 'conflict_')].oneOf.find((o: any) => String(o.title).startsWith('Keep only "- Use npm'));
  assert.match(npm.title, /drops nothing: "- Use pnpm to install dependencies\." \(CLAUDE\.md:8\) stays, inside a block a tool manages/);
  assert.doesNotMatch(npm.title, /; drop /);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  const written = read(repo, COPILOT);
  assert.ok(!written.includes('PKG RULES'), written);
  assert.ok(written.includes('- Use npm to install dependencies.'), written);
  assert.equal(read(repo, 'CLAUDE.md'), `# Claude\n\n- Write tests first.\n\n${BLOCK}`);
});

test('a plan under every choice that leaves lines out copies no managed block, and names each line of one as staying in its file', async (t) => {
  const repo = sandbox(t, {
    '.cursorrules': '- Use npm to install dependencies.\n',
    'CLAUDE.md': `# Claude\n\n- Write tests first.\n- Claude Code should keep functions short.\n\n${BLOCK}\n${NAMED}`,
  });
  const scan = await scanRepository(repo);
  const base = buildPlan(scan);
  assert.equal(base.conflicts.length, 1);
  const claudeSide = base.conflicts[0]!.locations.find((l) => l.path === 'CLAUDE.md')!;
  assert.equal(claudeSide.managed, true, 'the location inside the block says so');
  const options = base.assistants.find((a) => a.path === 'CLAUDE.md')!;
  assert.deepEqual(options.fates, ['keep', 'rewrite', 'leave_out']);
  assert.ok(
    options.lines.some((l) => l.line === 16 && l.rewrite === null && l.managed === true),
    'a managed line has no rewrite',
  );
  assert.ok(options.leftOut.length === 1 && !options.leftOut.some((l) => l.line >= 6), 'no managed line is among those leave_out drops');
  for (const fate of ['leave_out', 'rewrite'] as const) {
    const npmSide = base.conflicts[0]!.locations.findIndex((l) => l.path === '.cursorrules') + 1;
    const plan = buildPlan(scan, undefined, {
      legacy: {},
      conflicts: { [base.conflicts[0]!.id]: `keep_${npmSide}` },
      assistants: Object.fromEntries(base.assistants.map((a) => [a.path, fate])),
    });
    const content = plan.operations.find((o) => o.path === COPILOT)!.content!;
    assert.ok(!content.includes('PKG RULES') && !content.includes('usage-rules'), content);
    assert.ok(!content.includes('- Claude Code should keep functions short.'), content);
    assert.equal(content.includes('- GitHub Copilot should keep functions short.'), fate === 'rewrite', content);
    const blockLines = plan.dropped.filter((d) => d.path === 'CLAUDE.md' && d.line >= 6);
    assert.deepEqual(
      blockLines.map((d) => d.line),
      [6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18],
    );
    assert.ok(blockLines.every((d) => /a block a tool writes and rewrites in CLAUDE\.md: it stays there/.test(d.reason!)));
    assert.ok(!plan.notes.some((n) => n.includes('a tool manages')), plan.notes.join('\n'));
    assert.ok(
      ['CLAUDE.md:6-10', 'CLAUDE.md:12-18'].every((at) => plan.notes.some((n) => n.startsWith(`${at} (from`))),
      plan.notes.join('\n'),
    );
  }
});
