import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Issue 37: a folder name with glob characters never widens a scope. A nested `x,**\/AGENTS.md` was
 * planned as `applyTo: "x,**\/**"` (two globs for Copilot, the second matching every file), and
 * `*\/AGENTS.md` as `*\/**`. The folder part of applyTo is escaped (each of `*?[],()|` as a
 * one-character class), and a folder that cannot be written so (a leading `!`, a brace, a
 * backslash) is left out with a note; the form never says a narrower scope than the glob gives.
 */

const RULE = '# Rules\n\n- Validate request bodies.\n';

/** The applyTo of each scoped file the plan creates, by the file's path. */
async function applyTos(repo: string): Promise<Map<string, string>> {
  const plan = buildPlan(await scanRepository(repo));
  const out = new Map<string, string>();
  for (const op of plan.operations) {
    const m = op.op === 'create' && typeof op.content === 'string' ? /^applyTo: (".*")$/m.exec(op.content) : null;
    if (m) out.set(op.path, JSON.parse(m[1]!) as string);
  }
  return out;
}

/** VS Code's split of a glob list (splitGlobAware): at commas outside `{}` and `[]`. */
function splitGlobAware(pattern: string): string[] {
  const out: string[] = [];
  let inBraces = false;
  let inBrackets = false;
  let cur = '';
  for (const c of pattern) {
    if (c === ',' && !inBraces && !inBrackets) {
      out.push(cur);
      cur = '';
      continue;
    }
    if (c === '{') inBraces = true;
    else if (c === '}') inBraces = false;
    else if (c === '[') inBrackets = true;
    else if (c === ']') inBrackets = false;
    cur += c;
  }
  out.push(cur);
  return out;
}

// Two glob libraries many tools match with, where this checkout has them (they come with the dev tools).
const require = createRequire(import.meta.url);
const load = (name: string): any => {
  try {
    return require(name);
  } catch {
    return null;
  }
};
const minimatch = load('minimatch')?.minimatch as ((p: string, g: string, o?: object) => boolean) | undefined;
const picomatch = load('picomatch') as ((g: string, o?: object) => (p: string) => boolean) | null;

/** Each glob of an applyTo, as every reader splits it, matches the folder's files and nothing else. */
function assertOnlyUnder(applyTo: string, folder: string): void {
  const naive = applyTo.split(',');
  const aware = splitGlobAware(applyTo);
  const inside = [`${folder}/a.ts`, `${folder}/deep/b.md`];
  const outside = ['a.ts', 'src/auth.ts', 'other/x.ts', `${folder}x/a.ts`, `x${folder}/a.ts`];
  for (const [who, match] of [
    ['minimatch', minimatch ? (p: string, g: string) => minimatch(p, g, { dot: true }) : null],
    ['picomatch', picomatch ? (p: string, g: string) => picomatch(g, { dot: true })(p) : null],
  ] as const) {
    if (!match) continue;
    // Split at every comma (the crudest reader) or only at those outside brackets and braces: no glob matches outside the folder.
    for (const globs of [naive, aware])
      for (const p of outside)
        assert.ok(!globs.some((g) => match(p, g)), `${who}: ${JSON.stringify(applyTo)} matches ${JSON.stringify(p)}`);
    // Read as VS Code reads it, it matches the folder's files.
    for (const p of inside)
      assert.ok(
        aware.some((g) => match(p, g)),
        `${who}: ${JSON.stringify(applyTo)} misses ${JSON.stringify(p)}`,
      );
  }
  assert.equal(aware.length, 1, `one glob: ${JSON.stringify(applyTo)}`);
}

const ESCAPED: Record<string, string> = {
  'x,**': 'x[,][*][*]/**',
  '*': '[*]/**',
  '[x]': '[[]x[]]/**',
  '?': '[?]/**',
  'app/[locale]': 'app/[[]locale[]]/**',
  'a(b|c)': 'a[(]b[|]c[)]/**',
  'not!first': 'not!first/**',
};

test('a nested AGENTS.md in a folder named with glob characters is scoped to that folder alone: each character escaped in applyTo', async (t) => {
  const files: Record<string, string> = { 'AGENTS.md': '# Project\n\n- Use pnpm.\n' };
  for (const folder of Object.keys(ESCAPED)) files[`${folder}/AGENTS.md`] = RULE;
  const repo = sandbox(t, files);
  const planned = [...(await applyTos(repo)).values()].sort();
  assert.deepEqual(planned, Object.values(ESCAPED).sort());
  for (const [folder, glob] of Object.entries(ESCAPED)) assertOnlyUnder(glob, folder);
});

test('a Cursor rule with globs in a folder named "x,**" keeps every glob under that folder', async (t) => {
  const repo = sandbox(t, {
    'x,**/.cursor/rules/api.mdc': '---\ndescription: API\nglobs: "*.ts, src/**"\nalwaysApply: false\n---\n- Validate request bodies.\n',
  });
  const planned = [...(await applyTos(repo)).values()];
  assert.deepEqual(planned, ['x[,][*][*]/**/*.ts,x[,][*][*]/src/**']);
  assert.deepEqual(splitGlobAware(planned[0]!), ['x[,][*][*]/**/*.ts', 'x[,][*][*]/src/**']);
});

test('a folder whose name cannot be written in applyTo (a leading "!", a brace, a backslash) is left out with a note, never made wider', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Project\n\n- Use pnpm.\n',
    '!neg/AGENTS.md': RULE,
    'a{b,c}/AGENTS.md': RULE,
    'back\\slash/AGENTS.md': RULE,
  });
  const plan = buildPlan(await scanRepository(repo));
  const written = plan.operations.map((o) => o.content ?? '').join('\n');
  assert.doesNotMatch(written, /Validate request bodies/);
  for (const p of ['!neg/AGENTS.md', 'a{b,c}/AGENTS.md', 'back\\slash/AGENTS.md'])
    assert.ok(
      plan.notes.some((n) => n.includes(p) && /applyTo cannot say/.test(n)),
      `${p}: ${plan.notes.join('\n')}`,
    );
});

test('the approve form says exactly the glob it writes: "Only files under x,**/" names the escaped applyTo', async (t) => {
  const repo = sandbox(t, { 'AGENTS.md': '# Project\n\n- Use pnpm.\n', 'x,**/AGENTS.md': RULE });
  const s = await openSession(t, { repo, elicit: choosing(() => ({})) });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  const props = (s.elicitations[0] as any).requestedSchema.properties;
  const key = Object.keys(props).find((k) => k.startsWith('scope_'))!;
  const folder = props[key].oneOf.find((o: any) => o.const === 'folder').title as string;
  assert.match(folder, /applyTo x\[,\]\[\*\]\[\*\]\/\*\*/);
  assert.doesNotMatch(`${props[key].title} ${folder}`, /x,\*\*\/\*\*/);
  assert.match((s.elicitations[1] as any).message, /\+applyTo: "x\[,\]\[\*\]\[\*\]\/\*\*"/);
});
