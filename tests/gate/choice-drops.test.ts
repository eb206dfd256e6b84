import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isChoicesRound, openSession, outcomeOf, textOf, yesToAll, type ElicitAnswer } from '../helpers/mcp.js';
import { readState, sandbox } from '../helpers/sandbox.js';

/**
 * A choice drops exactly what it names: the sides of a contradiction are the lines that make the
 * claim, not a line that only runs a command of the tool; the form quotes every line it drops, in
 * full, with its place; and no heading is left with nothing under it.
 */
const FILES = {
  'AGENTS.md': '# Agent guide\n\n### Setup\n\n- Use pnpm for all package management.\n- Run `pnpm test` before every commit.\n',
  '.cursorrules': '- Use npm to install dependencies.\n',
};
const COPILOT = '.github/copilot-instructions.md';

/** Headings with nothing under them before the next heading of their level or above (or the end). */
function emptyHeadings(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const h = /^(#{1,6})\s/.exec(line);
    if (!h) return;
    for (const next of lines.slice(i + 1)) {
      const n = /^(#{1,6})\s/.exec(next);
      if (n && n[1]!.length <= h[1]!.length) break;
      if (!n && next.trim() !== '') return;
    }
    out.push(line);
  });
  return out;
}

/** Round one: keep the npm side, and the fate given for AGENTS.md; yes to the rest. */
function npmWins(agents: 'keep' | 'remove'): ElicitAnswer {
  return (req) => {
    if (!isChoicesRound(req)) return yesToAll(req);
    const props = (req as { requestedSchema: { properties: Record<string, any> } }).requestedSchema.properties;
    const conflict = Object.keys(props).find((k) => String(props[k].title).startsWith('Which rule stands?'))!;
    const npm = props[conflict].oneOf.find((o: { title: string }) => o.title.startsWith('Keep only "- Use npm')).const;
    const file = Object.keys(props).find((k) => String(props[k].title).startsWith('AGENTS.md'))!;
    return { action: 'accept', content: { [conflict]: npm, [file]: agents } };
  };
}

test('a line that only runs the tool is not a side: choosing npm drops "Use pnpm", keeps "Run `pnpm test`", quotes what it drops', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: npmWins('remove') });
  const analyzed = await s.call('onboarding_analyze');
  const contradiction = (analyzed.structuredContent!.problems as { type: string; locations: { path: string; line: number }[] }[]).find(
    (p) => p.type === 'contradiction',
  )!;
  assert.deepEqual(
    contradiction.locations.map((l) => `${l.path}:${l.line}`),
    ['.cursorrules:1', 'AGENTS.md:5'],
  );
  // The line that only runs pnpm is named with the conflict, on pnpm's side, as a mention (never a side to drop).
  assert.deepEqual((contradiction as { mentions?: unknown }).mentions, [{ path: 'AGENTS.md', line: 6, side: 1 }]);
  assert.match(textOf(analyzed), /also used, not a rule of its own \(kept whatever you choose\): AGENTS\.md:6/);
  await s.call('onboarding_propose');
  const a = await s.call('onboarding_approve');
  assert.equal(outcomeOf(a), 'approved', textOf(a));
  const props = (s.elicitations[0] as any).requestedSchema.properties;
  const titles = props[Object.keys(props).find((k) => String(props[k].title).startsWith('Which rule stands?'))!].oneOf.map(
    (o: { title: string }) => o.title,
  );
  assert.ok(
    titles.includes(
      'Keep only "- Use npm to install dependencies." (.cursorrules:1); drop "- Use pnpm for all package management." (AGENTS.md:5)',
    ),
    titles.join('\n'),
  );
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(fs.existsSync(path.join(repo, 'AGENTS.md')), false);
  const out = fs.readFileSync(path.join(repo, COPILOT), 'utf8');
  assert.ok(out.includes('- Run `pnpm test` before every commit.\n'), 'the testing rule stays in the repository');
  assert.doesNotMatch(out, /Use pnpm for all package management/);
  assert.deepEqual(emptyHeadings(out), []);
  assert.equal(readState(repo)!.step, 'migrated');
});

test('a heading whose every rule a choice drops goes with them: no empty heading is left behind', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agent guide\n\n### Setup\n\n- Use pnpm for all package management.\n\n### Style\n\n- Indent with 2 spaces.\n',
    '.cursorrules': '- Use npm to install dependencies.\n',
  });
  const s = await openSession(t, { repo, elicit: npmWins('keep') });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  const out = fs.readFileSync(path.join(repo, COPILOT), 'utf8');
  assert.doesNotMatch(out, /Use pnpm/);
  assert.doesNotMatch(out, /### Setup/, 'the heading of the dropped rule goes with it');
  assert.match(out, /### Style\n\n- Indent with 2 spaces\./);
  assert.deepEqual(emptyHeadings(out), []);
});
