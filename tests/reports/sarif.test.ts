import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validSarif as valid } from '../helpers/sarif-schema.js';
import { sarifText, toSarif } from '../../server/src/reports/sarif.js';
import { CHECK_RULE_IDS as CHECK_RULES } from '../../server/src/model/findings.js';
import type { CheckFinding, CheckReport } from '../../server/src/steps/check.js';
import { VERSION } from '../../server/src/version.js';

/** reports/sarif.ts in process: a check report made by hand, its SARIF read back field by field. */

const finding = (f: Partial<CheckFinding>): CheckFinding => ({
  rule: 'contradiction',
  kind: 'tool-choice',
  certainty: 'high',
  message: 'Contradicting rules about package manager',
  locations: [{ path: 'AGENTS.md', line: 3 }],
  fingerprint: 'f'.repeat(64),
  ...f,
});

const report = (findings: CheckFinding[]): CheckReport => ({
  tool: 'copilot-onboard',
  version: VERSION,
  files: 2,
  failOn: 'contradiction',
  failed: false,
  counts: Object.fromEntries(CHECK_RULES.map((r) => [r, findings.filter((f) => f.rule === r).length])) as CheckReport['counts'],
  findings,
});

type Result = { ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: any[]; relatedLocations?: any[] };
const runOf = (s: Record<string, unknown>) => (s.runs as any[])[0];
const resultsOf = (s: Record<string, unknown>): Result[] => runOf(s).results;

/** What fails `check` by default (docs/ci.md): the only findings a ruleset blocking on code-scanning errors may block on. */
const FAILS_BY_DEFAULT = new Set(['contradiction', 'unread']);

test('only what fails check by default (a contradiction, a file not read) can be an error; any other low-certainty finding is a note', () => {
  const all = CHECK_RULES.flatMap((rule) => (['high', 'medium', 'low'] as const).map((certainty) => finding({ rule, certainty })));
  const results = resultsOf(toSarif(report(all)));
  results.forEach((r, i) => {
    const { rule, certainty } = all[i]!;
    if (r.level === 'error') assert.ok(FAILS_BY_DEFAULT.has(rule), `${rule} ${certainty} is an error`);
    if (certainty === 'low' && !FAILS_BY_DEFAULT.has(rule)) assert.equal(r.level, 'note', `${rule} low`);
  });
  assert.equal(results[0]!.level, 'error', 'a certain contradiction is an error');
});

test("each result names its rule by id and by index into the driver's rules, and the document is valid SARIF 2.1.0", () => {
  const sarif = toSarif(report(CHECK_RULES.map((rule) => finding({ rule }))), { repositoryUrl: 'https://github.com/o/n' });
  assert.ok(valid(sarif), JSON.stringify(valid.errors?.slice(0, 3)));
  const rules = runOf(sarif).tool.driver.rules as { id: string; helpUri: string }[];
  for (const r of resultsOf(sarif)) assert.equal(rules[r.ruleIndex]!.id, r.ruleId);
  assert.ok(rules.every((r) => r.helpUri.startsWith(`https://github.com/o/n/blob/v${VERSION}/docs/ci.md#`)));
});

test('the other sides are related locations linked from the message, twenty at most, the rest counted', () => {
  const locations = Array.from({ length: 23 }, (_, i) => ({ path: `docs/r${i}.md`, line: i + 1 }));
  const [r] = resultsOf(toSarif(report([finding({ rule: 'duplicate', kind: 'exact', locations })])));
  assert.equal(r!.relatedLocations!.length, 22);
  assert.deepEqual(
    r!.relatedLocations!.map((l) => l.id),
    Array.from({ length: 22 }, (_, i) => i + 1),
  );
  assert.equal(r!.message.text.match(/\]\(\d+\)/g)?.length, 20);
  assert.match(r!.message.text, / Also at: \[docs\/r1\.md:2\]\(1\), .* and 2 more\.$/);
});

test('text from the repository makes no link: brackets and backslashes are escaped; paths are URIs, line 0 is line 1', () => {
  assert.equal(sarifText('see [x](1) \\ y'), 'see \\[x\\](1) \\\\ y');
  const [r] = resultsOf(toSarif(report([finding({ message: 'Use [npm](1) or not', locations: [{ path: 'my docs/ünï.md', line: 0 }] })])));
  assert.equal(r!.message.text, 'Use \\[npm\\](1) or not.');
  assert.deepEqual(r!.locations[0].physicalLocation, {
    artifactLocation: { uri: 'my%20docs/%C3%BCn%C3%AF.md', uriBaseId: '%SRCROOT%' },
    region: { startLine: 1 },
  });
});

test('without a repository on GitHub no link is made: the help names docs/ci.md of this version instead', () => {
  const sarif = toSarif(report([finding({})]), { repositoryUrl: null });
  const driver = runOf(sarif).tool.driver;
  assert.equal(driver.informationUri, undefined);
  for (const rule of driver.rules) {
    assert.equal(rule.helpUri, undefined);
    assert.match(
      rule.help.text,
      new RegExp(`See docs/ci\\.md in copilot-onboard ${VERSION.replace(/\./g, '\\.')} \\(the package ships it\\)\\.$`),
    );
  }
  assert.ok(valid(sarif));
});

test('a finding in the baseline is marked unchanged; its fingerprint and certainty travel with it', () => {
  const [r] = resultsOf(toSarif(report([finding({ inBaseline: true, certainty: 'medium' })]))) as any[];
  assert.equal(r.baselineState, 'unchanged');
  assert.deepEqual(r.partialFingerprints, { 'copilotOnboard/v1': 'f'.repeat(64) });
  assert.equal(r.properties.certainty, 'medium');
});
