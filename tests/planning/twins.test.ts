import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { hashTree, sandbox } from '../helpers/sandbox.js';

/**
 * A legacy file that already holds the same rules as a Copilot file (a generated twin: CLAUDE.md
 * generated from .github/copilot-instructions.md, or the same body) is offered as a copy: kept as
 * it is by default, or replaced by a pointer; its rules are not appended to the Copilot file again (issue 40).
 */
const COPILOT = '.github/copilot-instructions.md';
const BODY =
  'This service is written in Go and deployed on Fly.io.\nEvery handler lives under `internal/http`.\n\n## Build\n\nUse `make build`; it runs the linters first.\nNever commit the `bin/` folder.\nPin every tool in `tools.go`.\n\n## Testing\n\n- Write a table test for every bug fix.\n- Run `make test` before committing.\n- Keep fixtures under `testdata/`.\n- Mock no database: use the test container.\n- Name tests after the behaviour they check.\n- Fail on the first error with `t.Fatalf`.\n';
const FILES = {
  [COPILOT]: `# Project rules\n\n${BODY}`,
  'CLAUDE.md': `# CLAUDE.md\n\nThis file is generated from .github/copilot-instructions.md by scripts/sync-rules; do not edit it.\n\n${BODY}`,
};

test('a twin generated from the Copilot file is left out as a copy of it: nothing is appended, keep or pointer is offered', async (t) => {
  const repo = sandbox(t, FILES);
  const plan = buildPlan(await scanRepository(repo));
  assert.deepEqual(plan.operations, [], 'the Copilot file is not changed: the twin adds nothing');
  const option = plan.legacy.find((l) => l.path === 'CLAUDE.md')!;
  assert.deepEqual(option.fates, ['keep', 'migrate', 'pointer']);
  assert.equal(option.target, COPILOT);
  assert.deepEqual(option.copyOf?.path, COPILOT);
  assert.equal(option.copyOf?.twin, true);
  assert.match(
    option.note,
    /^CLAUDE\.md is left out of the migration: it is a twin of \.github\/copilot-instructions\.md \(it says "This file is generated from/,
  );
  assert.notEqual(plan.pattern, 'messy', 'a twin of what Copilot reads is no copy to settle');
});

test('a twin with the same body but a line worded its own way and no marker (a Cursor rule) is found by its lines; a file sharing only some rules migrates as before', async (t) => {
  const repo = sandbox(t, {
    [COPILOT]: FILES[COPILOT],
    // Generated with one line worded its own way: appending it would add that line beside its twin's.
    '.cursor/rules/project.mdc': `---\nalwaysApply: true\n---\n# Rules\n\n${BODY.replace('- Run `make test` before committing.', '- Run `make test` before every commit.')}`,
    'AGENTS.md': '# Agents\n\n- Run `make test` before committing.\n- Keep handlers thin.\n- Log every error with its request id.\n',
  });
  const plan = buildPlan(await scanRepository(repo));
  const mdc = plan.legacy.find((l) => l.path === '.cursor/rules/project.mdc')!;
  assert.deepEqual(mdc.fates, ['keep', 'migrate']);
  assert.equal(mdc.copyOf?.twin, true);
  const agents = plan.legacy.find((l) => l.path === 'AGENTS.md')!;
  assert.equal(agents.copyOf, undefined, 'one shared rule does not make a twin');
  const out = plan.operations.find((o) => o.path === COPILOT)!.content!;
  assert.match(out, /^- Keep handlers thin\.$/m);
  assert.equal(out.split('Use `make build`').length, 2, 'the twin is not appended');
  assert.doesNotMatch(
    out,
    /before every commit/,
    "not even the line its generator worded its own way: the round shows it in the twin's diff",
  );
  assert.match(mdc.copyOf!.diff, /^\+- Run `make test` before every commit\.$/m);
});

test("approve's first round offers the twin's pointer; migrate writes it, the Copilot file stays byte for byte, rollback restores all", async (t) => {
  const repo = sandbox(t, FILES);
  const before = hashTree(repo);
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) => ({
      [Object.keys(props).find((k) => k.startsWith('legacy_') && String(props[k].title).startsWith('CLAUDE.md '))!]: 'pointer',
    })),
  });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  const round = s.elicitations[0] as any;
  const field = Object.values(round.requestedSchema.properties).find((p: any) => String(p.title).startsWith('CLAUDE.md ')) as any;
  assert.equal(
    field.title,
    'CLAUDE.md is left out as a twin of .github/copilot-instructions.md, which Copilot reads already (keeping it as it is)',
  );
  assert.equal(field.default, 'keep');
  assert.match(round.message, /^- CLAUDE\.md already holds the rules of \.github\/copilot-instructions\.md \(a twin\):/m);
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(fs.readFileSync(path.join(repo, 'CLAUDE.md'), 'utf8'), '@.github/copilot-instructions.md\n');
  assert.equal(fs.readFileSync(path.join(repo, COPILOT), 'utf8'), FILES[COPILOT]);
  assert.equal(outcomeOf(await s.call('onboarding_rollback')), 'rolled_back');
  assert.deepEqual(hashTree(repo), before);
});
