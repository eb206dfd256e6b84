import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';
import { openSession, outcomeOf, textOf, choosing } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * Text about a piece of work is no rule for Copilot (issue 40): a section told in the past tense
 * (what was tried, found, done), dated log entries, a checklist with ticked items, a "Status:" line,
 * and a whole file that says it holds working notes. Each is offered in approve's first round to
 * leave out with its lines, kept by default; a rule written in the past tense, a checklist to follow
 * and a "Learnings" list of orders stay rules.
 */
const AGENTS = [
  '# Orders service',
  '',
  '## Build',
  '',
  '- Build with `make build`; the binary lands in `bin/`.',
  '- The v1 API was removed in 2024; never call `/v1/` endpoints.',
  '- Run `make test` before you push.',
  '',
  '## What happened with the cache',
  '',
  "We first tried an LRU cache in memory, but it grew past the container's limit within a day.",
  'Then we moved it to Redis, which fixed the restarts.',
  'The hit rate was lower than we expected, so we added a warm-up job at start.',
  '',
  '## Session log',
  '',
  '- 2025-03-02: Moved the queue to Redis; the old worker was removed.',
  '- 2025-03-09: Batching writes doubled the latency, so it is off again.',
  '',
  '## Migration progress',
  '',
  '**Status:** in progress',
  '',
  '- [x] Port the billing module',
  '- [x] Drop the v1 endpoints',
  '- [ ] Remove the feature flag',
  '',
  '## Before a release',
  '',
  '- [ ] Tag the release in git.',
  '- [ ] Update the changelog.',
  '',
  '## Learnings',
  '',
  '- Use `sinon.useFakeTimers()` for timeouts; sleeping made tests flaky.',
  '- Keep fixtures small.',
  '',
].join('\n');

const STAGING = [
  '---',
  'description: Staging deploy',
  'globs: deploy/**',
  'alwaysApply: false',
  '---',
  '# Staging deploy notes',
  '',
  'This file keeps the working notes and findings from getting the staging deploy to run.',
  '',
  '## Attempts',
  '',
  '- The first deploy was rejected because the health check hit `/` instead of `/healthz`.',
  '- We raised the timeout to 90 seconds, which was not enough either.',
  '- The breakthrough came when the readiness probe was moved after the migrations.',
  '',
  '## Current script',
  '',
  '```sh',
  'make deploy ENV=staging',
  '```',
  '',
  'The script above worked on the last three runs.',
  '',
].join('\n');

const API = [
  '---',
  'description: API handlers',
  'globs: api/**',
  'alwaysApply: false',
  '---',
  '# API',
  '',
  '- The v2 client was generated from `openapi.yaml`; regenerate it with `make client`, never edit it by hand.',
  '- Endpoints moved to `/api/v3` last year. Use `/api/v3` for every new call.',
  '- Keep handlers under 50 lines.',
  '',
].join('\n');

const FILES = { 'AGENTS.md': AGENTS, '.cursor/rules/staging.mdc': STAGING, '.cursor/rules/api.mdc': API };

const WHY = {
  narrative: 'an account of past work (what was tried, found or done), not a rule',
  notes: 'working notes (the file says it holds notes on a piece of work), not a rule',
  dated: 'a dated entry of a log, not a rule',
  ticked: "a checklist of a piece of work's progress, not a rule",
  status: 'the status of a piece of work, not a rule',
};

test('notes on a piece of work are offered to leave out, with why; rules in the past tense, a checklist to follow and a list of learnings are not', async (t) => {
  const plan = buildPlan(await scanRepository(sandbox(t, FILES)));
  const offered = (p: string) => plan.assistants.find((o) => o.path === p);
  assert.deepEqual(
    offered('AGENTS.md')?.lines.map((l) => [l.line, l.names]),
    [
      [9, WHY.narrative],
      [17, WHY.dated],
      [18, WHY.dated],
      [22, WHY.status],
      [24, WHY.ticked],
    ],
  );
  // Leaving them out takes the section's text and the headings left with nothing under them.
  assert.deepEqual(
    offered('AGENTS.md')?.leftOut.map((l) => l.line),
    [9, 11, 12, 13, 15, 17, 18, 20, 22, 24, 25, 26],
  );
  // The notes file whole: one entry, every line of its text (its line about itself is named too).
  assert.deepEqual(
    offered('.cursor/rules/staging.mdc')?.lines.map((l) => [l.line, l.names]),
    [
      [6, WHY.notes],
      [8, 'the file describing itself, not a rule'],
    ],
  );
  assert.deepEqual(
    offered('.cursor/rules/staging.mdc')?.leftOut.map((l) => l.line),
    [6, 8, 10, 12, 13, 14, 16, 18, 19, 20, 22],
  );
  assert.equal(offered('.cursor/rules/api.mdc'), undefined);
  // Kept by default.
  assert.match(plan.operations.find((o) => o.path === '.github/copilot-instructions.md')!.content!, /We first tried an LRU cache/);
});

test("approve's first round lists the notes with why; leave out writes Copilot's file without them, byte for byte, and no file for the notes", async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, {
    repo,
    elicit: choosing((props) =>
      Object.fromEntries(Object.keys(props).flatMap((k) => (k.startsWith('assistant_') ? [[k, 'leave_out']] : []))),
    ),
  });
  await s.call('onboarding_propose');
  const approved = await s.call('onboarding_approve');
  assert.equal(outcomeOf(approved), 'approved', textOf(approved));
  const message = (s.elicitations[0] as any).message as string;
  assert.match(
    message,
    /^ {2}AGENTS\.md:17: - 2025-03-02: Moved the queue to Redis; the old worker was removed\. \(a dated entry of a log, not a rule\)$/m,
  );
  assert.match(
    message,
    /^ {2}\.cursor\/rules\/staging\.mdc:6: # Staging deploy notes \(working notes \(the file says it holds notes on a piece of work\), not a rule\)$/m,
  );
  assert.match(
    message,
    /also leaves out the 9 line\(s\) of the sections named above: \.cursor\/rules\/staging\.mdc lines 10, 12-14, 16, 18-20, 22\.$/m,
  );
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  assert.equal(
    fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8'),
    [
      '# Copilot instructions',
      '',
      '## Orders service',
      '',
      '### Build',
      '',
      '- Build with `make build`; the binary lands in `bin/`.',
      '- The v1 API was removed in 2024; never call `/v1/` endpoints.',
      '- Run `make test` before you push.',
      '',
      '### Before a release',
      '',
      '- [ ] Tag the release in git.',
      '- [ ] Update the changelog.',
      '',
      '### Learnings',
      '',
      '- Use `sinon.useFakeTimers()` for timeouts; sleeping made tests flaky.',
      '- Keep fixtures small.',
      '',
    ].join('\n'),
  );
  assert.ok(!fs.existsSync(path.join(repo, '.github/instructions/staging.instructions.md')));
  assert.ok(fs.existsSync(path.join(repo, '.github/instructions/api.instructions.md')));
  // The notes stay where they were written.
  assert.equal(fs.readFileSync(path.join(repo, '.cursor/rules/staging.mdc'), 'utf8'), STAGING);
});

test('other shapes of notes: dated headings with their text, a heading-less account; past-tense orders stay rules', async (t) => {
  const journal = [
    '# Search rewrite',
    '',
    '## 12 March 2025',
    '',
    'Swapped the tokenizer; recall went up.',
    '',
    '## 19 March 2025',
    '',
    'Index build takes 4 minutes now.',
    '',
    '## Conventions',
    '',
    '- Name every index after its table.',
    '',
  ].join('\n');
  const account = [
    'I ported the importer to streams last week. It was slow at first because every row hit the database.',
    'We batched the inserts and the run dropped from an hour to six minutes.',
    '',
  ].join('\n');
  const orders = [
    '# History that still binds',
    '',
    'The old queue was dropped in 2023, so never import `legacy_queue`.',
    'Payments were moved to their own service; always call it through `PaymentsClient`.',
    'The cache had a bug with empty keys; you must pass a key of one character or more.',
    '',
  ].join('\n');
  const plan = buildPlan(await scanRepository(sandbox(t, { 'AGENTS.md': journal, '.cursorrules': account, 'docs/CLAUDE.md': orders })));
  const offered = (p: string) => plan.assistants.find((o) => o.path === p);
  assert.deepEqual(
    offered('AGENTS.md')?.lines.map((l) => [l.line, l.names]),
    [
      [3, WHY.dated],
      [7, WHY.dated],
    ],
  );
  assert.deepEqual(
    offered('AGENTS.md')?.leftOut.map((l) => l.line),
    [3, 5, 7, 9],
  );
  assert.deepEqual(
    offered('.cursorrules')?.lines.map((l) => [l.line, l.names]),
    [[1, WHY.narrative]],
  );
  assert.equal(offered('docs/CLAUDE.md'), undefined);
});
