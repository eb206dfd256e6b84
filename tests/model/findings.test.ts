import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CERTAINTIES,
  CHECK_RULE_IDS,
  CHECK_RULES,
  FAIL_ON,
  PROBLEM_TYPES,
  PROBLEM_TYPE_IDS,
  TYPED_KINDS,
  certaintyOf,
  kindsOf,
  ruleOfType,
  rulesFailedAt,
} from '../../server/src/model/findings.js';
import { Certainty, Problem, type Found } from '../../server/src/model/problem.js';
import { CERTAINTY } from '../../server/src/analysis/certainty.js';
import { TOOLS } from '../../server/src/mcp/tool-schemas.js';
import { toSarif } from '../../server/src/reports/sarif.js';
import { fleetMarkdown, fleetRow, mergeFleet } from '../../server/src/cli/fleet.js';
import type { CheckReport } from '../../server/src/steps/check.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('every type and kind of problem has a row with a certainty, and the zod schema takes exactly those kinds', () => {
  assert.deepEqual(PROBLEM_TYPE_IDS, ['contradiction', 'duplication', 'ambiguity']);
  assert.deepEqual(CERTAINTIES, Certainty.options);
  for (const type of PROBLEM_TYPE_IDS) {
    const kinds = kindsOf(type);
    assert.ok(kinds.length > 0, type);
    for (const kind of kinds) {
      const row = (PROBLEM_TYPES[type].kinds as Record<string, { certainty: string; what: string }>)[kind]!;
      assert.ok(CERTAINTIES.includes(row.certainty as never), `${type}/${kind}`);
      assert.ok(row.what.length > 0, `${type}/${kind} says what it is`);
      assert.equal(CERTAINTY[`${type}/${kind}`], row.certainty, 'the certainty table by type/kind is the row');
      const problem = { type, kind, description: 'd', locations: [{ path: 'a.md', line: 1 }], certainty: row.certainty };
      const contradiction = type === 'contradiction' ? { sides: [0], topic: 't', said: 's' } : {};
      assert.ok(Problem.safeParse({ ...problem, ...contradiction }).success, `${type}/${kind} is a problem`);
    }
    const stranger = { type, kind: 'no-such-kind', description: 'd', locations: [], certainty: 'high', sides: [], topic: 't', said: 's' };
    assert.equal(Problem.safeParse(stranger).success, false, `${type}: a kind with no row is not a problem`);
  }
  assert.equal(TYPED_KINDS.length, Object.keys(CERTAINTY).length);
});

test('a kind with no row, or a contradiction without its topic, is a type error, never a silent default', () => {
  // @ts-expect-error: a kind with no row in model/findings.ts does not type-check
  const unknownKind: Found = { type: 'ambiguity', kind: 'no-such-kind', description: 'd', locations: [] };
  // @ts-expect-error: a contradiction carries its topic, what it said and its sides
  const noTopic: Found = { type: 'contradiction', kind: 'tool-choice', description: 'd', locations: [] };
  assert.ok(unknownKind && noTopic);
  assert.equal(certaintyOf({ type: 'ambiguity', kind: 'missing-path' }), 'low');
  assert.equal(certaintyOf({ type: 'contradiction', kind: 'tool-choice' }), 'high');
});

test('the check rules, their order and the fail-on ladder come from the table', () => {
  assert.deepEqual(CHECK_RULE_IDS, ['contradiction', 'duplicate', 'drift', 'would-change', 'ambiguity', 'unread']);
  assert.deepEqual(Object.keys(CHECK_RULES), [...CHECK_RULE_IDS]);
  assert.deepEqual(FAIL_ON, ['contradiction', 'duplicate', 'drift', 'any', 'none']);
  // A file check could not read fails wherever a contradiction does.
  assert.deepEqual([...rulesFailedAt('contradiction')], ['contradiction', 'unread']);
  assert.deepEqual([...rulesFailedAt('duplicate')], ['contradiction', 'duplicate', 'unread']);
  assert.deepEqual([...rulesFailedAt('drift')], ['contradiction', 'duplicate', 'drift', 'unread']);
  assert.deepEqual([...rulesFailedAt('any')], [...CHECK_RULE_IDS]);
  assert.deepEqual([...rulesFailedAt('none')], []);
  // Each type of problem is reported under one rule; drift and would-change are check's own.
  assert.deepEqual(
    PROBLEM_TYPE_IDS.map((t) => ruleOfType(t)),
    ['contradiction', 'duplicate', 'ambiguity'],
  );
});

test("the check tool's schema, yargs's choices, SARIF's rules and fleet's columns are the table's", () => {
  const output = TOOLS.onboarding_check.output().shape as Record<string, any>;
  assert.deepEqual(output.failOn.unwrap().options, FAIL_ON);
  assert.deepEqual(output.findings.unwrap().element.shape.rule.options, [...CHECK_RULE_IDS]);
  // No list of rules or levels is written again by hand where they are used.
  for (const file of [
    'server/src/cli/main.ts',
    'server/src/mcp/tool-schemas.ts',
    'server/src/steps/check.ts',
    'server/src/cli/fleet.ts',
    'server/src/reports/sarif.ts',
  ]) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    assert.ok(!/\[\s*'contradiction',\s*'duplicate'/.test(text), `${file} writes the rule list again`);
    if (!file.endsWith('check.ts')) assert.ok(!text.includes("'would-change'"), `${file} names a rule by hand`);
  }
  const report: CheckReport = {
    tool: 'copilot-onboard',
    version: '0',
    files: 1,
    failOn: 'contradiction',
    failed: false,
    counts: { contradiction: 0, duplicate: 0, drift: 0, 'would-change': 0, ambiguity: 1, unread: 0 },
    findings: [
      {
        rule: 'ambiguity',
        kind: 'missing-path',
        certainty: 'low',
        message: 'm',
        locations: [{ path: 'a.md', line: 1 }],
        fingerprint: 'f',
      },
    ],
  };
  const run = (toSarif(report, { repositoryUrl: null }) as any).runs[0];
  assert.deepEqual(
    run.tool.driver.rules.map((r: any) => [r.id, r.name, r.defaultConfiguration.level]),
    CHECK_RULE_IDS.map((r) => [`copilot-onboard/${r}`, CHECK_RULES[r].sarif.name, CHECK_RULES[r].sarif.levels.high]),
  );
  assert.equal(run.results[0].level, 'note');
  assert.equal(run.results[0].ruleIndex, CHECK_RULE_IDS.indexOf('ambiguity'));
  const fleet = mergeFleet([fleetRow('a.json', JSON.stringify(report))]);
  const header = fleetMarkdown(fleet).split('\n')[4]!;
  assert.equal(header, `| repository | result | files | ${CHECK_RULE_IDS.map((r) => CHECK_RULES[r].fleet.header).join(' | ')} | tool |`);
  assert.equal(fleet.totals.ambiguity, 1);
  assert.deepEqual(fleet.totals.contradictions, { high: 0, medium: 0, low: 0 });
});

test('docs/analysis.md names every kind with its certainty', () => {
  const docs = readFileSync(path.join(ROOT, 'docs/analysis.md'), 'utf8');
  for (const k of TYPED_KINDS) {
    const [type, kind] = k.split('/');
    assert.ok(
      new RegExp(`\\| ${type} [^|]*\`${kind}\`[^|]*\\|[^|]*\\| ${CERTAINTY[k]}\\b`).test(docs),
      `docs/analysis.md: ${k}, ${CERTAINTY[k]}`,
    );
  }
});
