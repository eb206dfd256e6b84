import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';
import { runCheck } from '../../server/src/steps/check.js';

/**
 * `check` on a tree migrated with the default choices reports nothing the plan did on purpose (issue 40,
 * `check-disagrees`): a link the move rewrote to lead where it led (sentry-java's CLAUDE.md, agent-framework's
 * python/AGENTS.md), an `@path` line merged into the same line written as a link (spring-ai), the rules of a
 * file whose managed block stays in it (pyro, beads) are no drift, and the copies a kept file shares with the
 * Copilot file that took its rules are no duplicate.
 */
const FILES = {
  'CONTRIBUTING.md': '# Contributing\n\nBe nice.\n',
  'tools/release/README.md': '# Release\n',
  'web/docs/guide.md': '# Guide\n',
  'AGENTS.md':
    '# Agents\n\n## Contributing\n\nFollow [CONTRIBUTING.md](CONTRIBUTING.md) for code style and pull requests.\n\n' +
    '## Build\n\n- Run the [release steps](tools/release/README.md) before tagging.\n- Use npm to install dependencies.\n- Run npm test before every commit.\n',
  'CLAUDE.md': 'Follow @CONTRIBUTING.md for code style and pull requests.\n',
  'web/AGENTS.md':
    '# Web\n\n## Components\n\n- See [the web guide](docs/guide.md) for components.\n- Read `./docs/guide.md` before adding a page.\n- Run the linter before pushing.\n',
  'lib/AGENTS.md':
    '# Lib\n\n## Style\n\n- Keep lib functions pure.\n- Test every exported function.\n\n' +
    '<!-- BEGIN TK INTEGRATION -->\n## Issue Tracking with tk\n\n- Run `tk ready` to find work.\n- Close issues with `tk close`.\n<!-- END TK INTEGRATION -->\n',
};

test('after migrate with the default choices, check reports no drift and no copy the plan made on purpose', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  // Every kept file is superseded; the one holding a managed block is not offered to be replaced (remove would lose the block).
  const status = (await s.call('onboarding_status')).structuredContent as { superseded: { path: string; fates: string[] }[] };
  assert.deepEqual(
    status.superseded.map((k) => [k.path, k.fates]),
    [
      ['AGENTS.md', ['remove']],
      ['lib/AGENTS.md', []],
      ['web/AGENTS.md', ['remove']],
      ['CLAUDE.md', ['pointer', 'remove']],
    ],
  );
  const again = (await s.call('onboarding_propose')).structuredContent as { operations: unknown[] };
  assert.deepEqual(again.operations, [], 'a second plan has nothing to do');

  const report = await runCheck(repo);
  assert.deepEqual(
    report.findings.filter((f) => f.rule === 'drift' || f.rule === 'duplicate').map((f) => `${f.rule} ${f.kind}: ${f.message}`),
    [],
  );
  assert.equal(report.failed, false);

  const analyzed = (await s.call('onboarding_analyze')).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  assert.match(
    analyzed,
    /^Note: lib\/AGENTS\.md is superseded by .*; kept because you chose to\. Its 2 rule lines outside the block a tool manages are in Copilot's files, so the 2 duplicates between them are not listed as problems; the block stays in it, where its tool rewrites it\.$/m,
  );
  // Migrated: the plan changes nothing, so the label says the rules are in Copilot's files, and is not "unstructured".
  assert.match(
    analyzed,
    /^Pattern: structured: the rules of AGENTS\.md, lib\/AGENTS\.md, web\/AGENTS\.md, CLAUDE\.md are in Copilot's files already/,
  );
  assert.doesNotMatch(analyzed, /choose pointer or remove for [^\n]*lib\/AGENTS\.md/);
});

test('check still reports a kept file line that no Copilot file holds, a link that leads elsewhere included', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  assert.equal(outcomeOf(await s.call('onboarding_migrate')), 'migrated');
  // Edited since: a link now leading to another file, a rule added, and a rule added inside the managed block's file outside it.
  const fs = await import('node:fs');
  const path = await import('node:path');
  const edit = (file: string, from: string, to: string) =>
    fs.writeFileSync(path.join(repo, file), fs.readFileSync(path.join(repo, file), 'utf8').replace(from, to));
  edit('web/AGENTS.md', '(docs/guide.md)', '(docs/other.md)');
  edit('CLAUDE.md', '@CONTRIBUTING.md', '@tools/release/README.md');
  edit('lib/AGENTS.md', '- Test every exported function.\n', '- Test every exported function.\n- Log every error.\n');
  const drift = (await runCheck(repo)).findings.filter((f) => f.rule === 'drift');
  assert.deepEqual(
    drift.map((f) => f.locations.map((l) => `${l.path}:${l.line}`)),
    [['CLAUDE.md:1'], ['lib/AGENTS.md:7'], ['web/AGENTS.md:5']],
  );
});
