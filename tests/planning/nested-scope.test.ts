import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { nestedScope } from '../../server/src/analysis/scope/nested-scope.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { CORPUS } from '../helpers/corpus.js';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * A nested AGENTS.md that speaks for the whole repository is planned repo-wide; one in a package
 * folder keeps its folder scope. Approve's first round offers the other choice for each, the tool's
 * decision the default, and the plan written is the one chosen.
 */
const FILES = {
  'AGENTS.md': '# Project\n\n- Use pnpm.\n',
  'docs/AGENTS.md': '# Overview\n\nAlways read this first.\n\n- Write a test for every bug fix.\n',
  'packages/api/AGENTS.md': '# API\n\n- Validate request bodies.\n',
};

const COPILOT_DEFAULT =
  '# Copilot instructions\n\n## Project\n\n- Use pnpm.\n\n## Overview\n\nAlways read this first.\n\n- Write a test for every bug fix.\n';
const API_SCOPED = '---\napplyTo: "packages/api/**"\n---\n\n# API\n\n- Validate request bodies.\n';

const scopeField = (props: Record<string, any>, file: string) =>
  Object.keys(props).find((k) => k.startsWith('scope_') && String(props[k].title).includes(file))!;

const read = (repo: string, p: string) => fs.readFileSync(path.join(repo, p), 'utf8');

test('the decision: read-first or whole-project and silent about its folder is repo-wide; a package folder or a file naming its folder keeps the folder', () => {
  const doc = (p: string, lines: string[]) => ({
    path: p,
    kind: 'agents-md' as const,
    role: 'legacy' as const,
    scope: { kind: 'globs' as const, globs: [`${p.slice(0, p.lastIndexOf('/'))}/**`] },
    units: lines.map((l, i) => ({ kind: 'paragraph' as const, path: p, line: i + 1, lines: [l], blankBefore: i > 0 })),
  });
  assert.equal(nestedScope(doc('docs/AGENTS.md', ['Always read this first.']))?.decided, 'repo');
  assert.equal(nestedScope(doc('docs/AGENTS.md', ['Conventions for this repository.']))?.decided, 'repo');
  assert.equal(
    nestedScope(doc('docs/AGENTS.md', ['Always read this first.', 'Pages live in `docs/pages/`.']))?.reason.kind,
    'names-folder',
  );
  assert.equal(nestedScope(doc('packages/api/AGENTS.md', ['Conventions for this repository.']))?.reason.kind, 'package-folder');
  assert.equal(nestedScope(doc('tools/AGENTS.md', ['Keep scripts short.']))?.reason.kind, 'convention');
  // `dist/docs/` is another folder (hatchet frontend/docs/AGENTS.md, a generated Next.js block).
  assert.equal(
    nestedScope(doc('frontend/docs/AGENTS.md', ['Always read this first: the guide is in `node_modules/next/dist/docs/`.']))?.reason.kind,
    'read-first',
  );
  assert.equal(nestedScope(doc('frontend/docs/AGENTS.md', ['Guides live in `node_modules/next/dist/docs/`.']))?.reason.kind, 'convention');
  assert.equal(nestedScope({ ...doc('AGENTS.md', ['x']), scope: { kind: 'repo' } }), null);
  assert.equal(nestedScope({ ...doc('docs/CLAUDE.md', ['Always read this first.']), kind: 'claude-md' }), null);
});

test('by default docs/AGENTS.md (read this first) is repo-wide and packages/api/AGENTS.md keeps its folder; the note gives the reason; written byte for byte', async (t) => {
  const repo = sandbox(t, FILES);
  const plan = buildPlan(await scanRepository(repo));
  assert.deepEqual(
    plan.scopes.map((o) => [o.path, o.decided]),
    [
      ['docs/AGENTS.md', 'repo'],
      ['packages/api/AGENTS.md', 'folder'],
    ],
  );
  assert.ok(
    plan.notes.some(
      (n) => n.startsWith('docs/AGENTS.md applies to the whole repository') && n.includes('line 3: "Always read this first."'),
    ),
    plan.notes.join('\n'),
  );
  assert.ok(plan.notes.some((n) => n.includes('packages/api/AGENTS.md (it sits in a package or source folder, under packages/)')));

  const s = await openSession(t, { repo, elicit: choosing(() => ({})) });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  const props = (s.elicitations[0] as any).requestedSchema.properties;
  assert.equal(props[scopeField(props, 'docs/AGENTS.md')].default, 'repo');
  assert.equal(props[scopeField(props, 'packages/api/AGENTS.md')].default, 'folder');
  assert.deepEqual(
    props[scopeField(props, 'docs/AGENTS.md')].oneOf.map((o: any) => o.const),
    ['repo', 'folder'],
  );
  assert.match((s.elicitations[0] as any).message, /docs\/AGENTS\.md: the whole repository, because it says to read it first/);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(read(repo, '.github/copilot-instructions.md'), COPILOT_DEFAULT);
  assert.equal(read(repo, '.github/instructions/packages-api.instructions.md'), API_SCOPED);
  assert.equal(fs.existsSync(path.join(repo, '.github/instructions/docs.instructions.md')), false);
});

test('choosing the other scope for each: docs/AGENTS.md goes to docs/**, packages/api/AGENTS.md repo-wide; the approval records it and migrate writes exactly that', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) => ({
      [scopeField(props, 'docs/AGENTS.md')]: 'folder',
      [scopeField(props, 'packages/api/AGENTS.md')]: 'repo',
    })),
  });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  assert.match((s.elicitations[1] as any).message, /\+applyTo: "docs\/\*\*"/, 'round two shows the chosen plan');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(
    read(repo, '.github/copilot-instructions.md'),
    '# Copilot instructions\n\n## Project\n\n- Use pnpm.\n\n## API\n\n- Validate request bodies.\n',
  );
  assert.equal(
    read(repo, '.github/instructions/docs.instructions.md'),
    '---\napplyTo: "docs/**"\n---\n\n# Overview\n\nAlways read this first.\n\n- Write a test for every bug fix.\n',
  );
  assert.equal(fs.existsSync(path.join(repo, '.github/instructions/packages-api.instructions.md')), false);
});

test('corpus: the nested AGENTS.md files of a monorepo keep their folders (PrefectHQ docs/AGENTS.md names docs/)', async (t) => {
  const root = path.join(CORPUS, 'PrefectHQ__prefect');
  if (!fs.existsSync(root)) return t.skip('corpus absent');
  const plan = buildPlan(await scanRepository(root));
  const docs = plan.scopes.find((o) => o.path === 'docs/AGENTS.md');
  assert.equal(docs?.decided, 'folder');
  assert.match(docs!.reason, /names its own folder \(line 3/);
  assert.ok(plan.scopes.length > 30 && plan.scopes.every((o) => o.decided === 'folder'));
});

test('an indented heading of a nested AGENTS.md chosen repo-wide moves down after its indentation (PrefectHQ tests/fixtures/AGENTS.md)', async (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Project\n\n- Use uv.\n',
    'tools/AGENTS.md': '# Tools\n\n- Keep scripts short.\n \n ## Fixtures\n\n- Reset logs between tests.\n',
  });
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, undefined, { legacy: {}, conflicts: {}, scopes: { 'tools/AGENTS.md': 'repo' } });
  assert.equal(
    plan.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content,
    '# Copilot instructions\n\n## Project\n\n- Use uv.\n\n## Tools\n\n- Keep scripts short.\n\n ### Fixtures\n\n- Reset logs between tests.\n',
  );
  assert.ok(
    plan.notes.some((n) => n.startsWith('tools/AGENTS.md: 2 headings move down a level')),
    plan.notes.join('\n'),
  );
});

test('scope by evidence, both ways (issue 40): a line saying it applies to the whole project wins over naming the folder; an app saying "in this repo" keeps its folder', () => {
  const doc = (p: string, lines: string[]) => ({
    path: p,
    kind: 'agents-md' as const,
    role: 'legacy' as const,
    scope: { kind: 'globs' as const, globs: [`${p.slice(0, p.lastIndexOf('/'))}/**`] },
    units: lines.map((l, i) => ({
      kind: (l.startsWith('#') ? 'heading' : 'paragraph') as 'heading' | 'paragraph',
      path: p,
      line: i + 1,
      lines: [l],
      level: l.startsWith('#') ? 1 : undefined,
      blankBefore: i > 0,
    })),
  });
  const whole = nestedScope(doc('tooling/AGENTS.md', ['# Tooling', 'These rules apply to the whole project, not only to tooling/.']));
  assert.equal(whole?.decided, 'repo');
  assert.equal(whole?.reason.kind, 'whole-project');
  const app = nestedScope(
    doc('demo-app/AGENTS.md', ['# Demo app', 'This example app shows the SDK. In this repo, run pnpm dev to start it.']),
  );
  assert.equal(app?.decided, 'folder');
  assert.equal(app?.reason.kind, 'own-part');
  // An overview that describes the whole repository and no part of it is still repo-wide.
  assert.equal(nestedScope(doc('docs/AGENTS.md', ['# Docs', 'Conventions for this repository.']))?.decided, 'repo');
});
