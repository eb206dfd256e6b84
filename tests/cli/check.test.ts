import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { createHash } from 'node:crypto';
import { CLI, openSession, textOf, yesToAll } from '../helpers/mcp.js';
import { validSarif as compiled } from '../helpers/sarif-schema.js';
import { hashTree, MESSY_INSTRUCTIONS, sandbox, STRUCTURED_INSTRUCTIONS, tempDir, writeFile } from '../helpers/sandbox.js';

/** `copilot-onboard check` (issue 15): read-only, exit codes per --fail-on, SARIF, baseline. */

function cli(args: string[], cwd?: string) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env, ...(cwd ? { cwd } : {}) });
}
const json = (repo: string, ...more: string[]) => {
  const r = cli(['check', '--repo', repo, '--format', 'json', ...more]);
  return { code: r.status, report: JSON.parse(r.stdout) };
};

const validate = (data: unknown): boolean => compiled(data) === true;

const CONTRADICTION = { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS };
const DUPLICATE = {
  '.github/copilot-instructions.md':
    '# Guidelines\n\n## Build\n\n- Use pnpm for all package management.\n- Run tests with vitest before every commit.\n\n## Style\n\n- Indent with 2 spaces.\n- Run tests with vitest before every commit.\n',
};
const CLEAN = { '.github/copilot-instructions.md': STRUCTURED_INSTRUCTIONS };
const DRIFT = {
  '.github/copilot-instructions.md': STRUCTURED_INSTRUCTIONS,
  'AGENTS.md': '# Agents\n\n## Release\n\n- Deploy only from the release branch.\n',
};

/** Every entry under root, .copilot-state/ and .git/ included: content hash, mode and mtime. */
function hashAll(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      const st = fs.lstatSync(abs);
      if (entry.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(abs)}`;
      else if (entry.isDirectory()) {
        out[`${rel}/`] = `dir:${st.mode}`;
        walk(abs);
      } else out[rel] = `${createHash('sha256').update(fs.readFileSync(abs)).digest('hex')}:${st.mode}:${st.mtimeMs}`;
    }
  };
  walk(root);
  return out;
}

test('a clean repository: no findings, exit 0 at every --fail-on, and the same bytes twice', (t) => {
  const repo = sandbox(t, CLEAN);
  for (const level of ['contradiction', 'duplicate', 'drift', 'any', 'none']) {
    const { code, report } = json(repo, '--fail-on', level);
    assert.equal(code, 0, level);
    assert.deepEqual(report.findings, [], level);
  }
  const a = cli(['check', '--repo', repo]);
  assert.equal(a.stdout, cli(['check', '--repo', repo]).stdout);
  assert.match(a.stdout, /^No findings: passed \(--fail-on contradiction\)$/m);
});

test('each kind is reported, and --fail-on is a ladder: contradiction < duplicate < drift < any; none never fails', (t) => {
  const repos = {
    contradiction: sandbox(t, CONTRADICTION),
    duplicate: sandbox(t, DUPLICATE),
    drift: sandbox(t, DRIFT),
    change: sandbox(t, { 'AGENTS.md': '# Agents\n\n- Use pnpm.\n' }),
  };
  const c = json(repos.contradiction).report;
  assert.ok(c.findings.some((f: any) => f.rule === 'contradiction' && f.locations.length >= 2 && f.certainty));
  const d = json(repos.duplicate).report;
  assert.deepEqual(
    d.findings.filter((f: any) => f.rule === 'duplicate').map((f: any) => f.locations),
    [
      [
        { path: '.github/copilot-instructions.md', line: 6 },
        { path: '.github/copilot-instructions.md', line: 11 },
      ],
    ],
  );
  assert.equal(d.counts.contradiction, 0);
  const r = json(repos.drift).report;
  const drift = r.findings.filter((f: any) => f.rule === 'drift');
  assert.deepEqual(
    drift.map((f: any) => [f.kind, f.locations]),
    [['legacy-only', [{ path: 'AGENTS.md', line: 5 }]]],
  );
  assert.match(drift[0].message, /Deploy only from the release branch/);
  const w = json(repos.change).report;
  assert.deepEqual(
    w.findings.filter((f: any) => f.rule === 'would-change').map((f: any) => [f.kind, f.target, f.locations]),
    [['create', '.github/copilot-instructions.md', [{ path: 'AGENTS.md', line: 1 }]]],
  );

  const expected: Record<string, Record<string, number>> = {
    contradiction: { contradiction: 1, duplicate: 1, drift: 1, any: 1, none: 0 },
    duplicate: { contradiction: 0, duplicate: 1, drift: 1, any: 1, none: 0 },
    drift: { contradiction: 0, duplicate: 0, drift: 1, any: 1, none: 0 },
    change: { contradiction: 0, duplicate: 0, drift: 0, any: 1, none: 0 },
  };
  for (const [name, levels] of Object.entries(expected)) {
    for (const [level, code] of Object.entries(levels)) {
      assert.equal(
        cli(['check', '--repo', repos[name as keyof typeof repos], '--fail-on', level]).status,
        code,
        `${name} --fail-on ${level}`,
      );
    }
  }
  // Bad usage exits 2.
  assert.equal(cli(['check', '--repo', repos.drift, '--fail-on', 'sometimes']).status, 2);
  assert.equal(cli(['check', '--repo', repos.drift, '--format', 'xml']).status, 2);
  assert.equal(cli(['check', '--repo', repos.drift, '--baseline', path.join(repos.drift, 'missing.json')]).status, 2);
});

test('check writes nothing: the whole tree, .copilot-state/ included, hashes the same before and after', async (t) => {
  const repo = sandbox(t, { ...CONTRADICTION, 'CLAUDE.md': '# Claude\n\n- Keep pull requests small.\n' });
  // A repository with state: propose once, so .copilot-state/ exists with traces and a plan.
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.close();
  const before = hashAll(repo);
  assert.ok(Object.keys(before).some((p) => p.startsWith('.copilot-state/')));
  for (const format of ['text', 'json', 'sarif']) cli(['check', '--repo', repo, '--format', format, '--fail-on', 'any']);
  const fresh = sandbox(t, CONTRADICTION);
  const freshBefore = hashAll(fresh);
  cli(['check', '--repo', fresh, '--format', 'sarif']);
  assert.deepEqual(hashAll(repo), before);
  assert.deepEqual(hashAll(fresh), freshBefore);
  assert.ok(!fs.existsSync(path.join(fresh, '.copilot-state')));
});

test('drift after a migration: edit the kept CLAUDE.md, and check reports the new rule as drift at its line', async (t) => {
  const repo = sandbox(t, { 'CLAUDE.md': '# Claude\n\n- Write commit messages in the imperative.\n- Keep pull requests small.\n' });
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  assert.equal((await s.call('onboarding_migrate')).structuredContent?.outcome, 'migrated');
  assert.ok(fs.existsSync(path.join(repo, 'CLAUDE.md')), 'kept');
  const right = json(repo, '--fail-on', 'drift');
  assert.deepEqual(
    right.report.findings.filter((f: any) => f.rule === 'drift'),
    [],
    JSON.stringify(right.report),
  );
  assert.equal(right.code, 0, JSON.stringify(right.report));

  fs.appendFileSync(path.join(repo, 'CLAUDE.md'), '- Never force-push to main.\n');
  const after = json(repo, '--fail-on', 'drift');
  assert.equal(after.code, 1);
  const drift = after.report.findings.filter((f: any) => f.rule === 'drift');
  assert.deepEqual(
    drift.map((f: any) => f.locations),
    [[{ path: 'CLAUDE.md', line: 5 }]],
  );
});

test('SARIF 2.1.0: valid against the official schema, one result per finding, a location per side, every rule listed', (t) => {
  const repo = sandbox(t, { ...CONTRADICTION, 'AGENTS.md': '# Agents\n\n- Deploy only from the release branch.\n' });
  const r = cli(['check', '--repo', repo, '--format', 'sarif']);
  assert.equal(r.status, 1);
  const sarif = JSON.parse(r.stdout);
  assert.ok(validate(sarif), JSON.stringify(compiled.errors));
  const run = sarif.runs[0];
  assert.deepEqual(
    run.tool.driver.rules.map((x: any) => x.id),
    [
      'copilot-onboard/contradiction',
      'copilot-onboard/duplicate',
      'copilot-onboard/drift',
      'copilot-onboard/would-change',
      'copilot-onboard/ambiguity',
      'copilot-onboard/unread',
    ],
  );
  for (const rule of run.tool.driver.rules) {
    assert.ok(rule.shortDescription.text && rule.fullDescription.text && rule.help.text && rule.help.markdown);
    // package.json names no repository: no link is made to a page that may not exist.
    assert.equal(rule.helpUri, undefined);
  }
  assert.equal(run.tool.driver.informationUri, undefined);
  const report = json(repo).report;
  assert.equal(run.results.length, report.findings.length);
  const contradiction = run.results.find((x: any) => x.ruleId === 'copilot-onboard/contradiction');
  assert.ok(contradiction);
  assert.equal(
    contradiction.properties.certainty === 'high' ? 'error' : contradiction.properties.certainty === 'medium' ? 'warning' : 'note',
    contradiction.level,
  );
  // Only a contradiction is ever an error: a file propose would create is a note.
  for (const x of run.results) if (x.ruleId !== 'copilot-onboard/contradiction') assert.notEqual(x.level, 'error', x.ruleId);
  // The other side is linked from the message, by the related location's id.
  const ids = contradiction.relatedLocations.map((l: any) => l.id);
  for (const id of ids) assert.match(contradiction.message.text, new RegExp(`\\]\\(${id}\\)`));
  const loc = contradiction.locations[0].physicalLocation;
  assert.equal(loc.artifactLocation.uri, '.github/copilot-instructions.md');
  assert.ok(loc.region.startLine > 1);
  assert.ok(contradiction.relatedLocations.length >= 1);
  assert.ok(contradiction.relatedLocations.every((l: any) => l.physicalLocation.region.startLine >= 1));
  const would = run.results.find((x: any) => x.ruleId === 'copilot-onboard/would-change');
  assert.ok(would);
  assert.equal(would.level, 'note');
  assert.equal(would.properties.target, '.github/copilot-instructions.md');

  // The validator does fail: a broken SARIF is refused.
  const broken = structuredClone(sarif);
  broken.version = '2.0.0';
  assert.equal(validate(broken), false);
  const noMessage = structuredClone(sarif);
  delete noMessage.runs[0].results[0].message;
  assert.equal(validate(noMessage), false);
  const badLine = structuredClone(sarif);
  badLine.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
  assert.equal(validate(badLine), false);
});

test('SARIF would-change is shown at the sources a new file would be made from, never at a file that does not exist yet', (t) => {
  const repo = sandbox(t, {
    'AGENTS.md': '# Agents\n\n- Use pnpm.\n',
    'CLAUDE.md': '# Claude\n\n## Style\n\n- Indent with 2 spaces.\n',
  });
  const sarif = JSON.parse(cli(['check', '--repo', repo, '--format', 'sarif']).stdout);
  assert.ok(validate(sarif), JSON.stringify(compiled.errors));
  const would = sarif.runs[0].results.filter((x: any) => x.ruleId === 'copilot-onboard/would-change');
  assert.equal(would.length, 1);
  const at = [would[0].locations[0], ...(would[0].relatedLocations ?? [])].map((l: any) => l.physicalLocation.artifactLocation.uri);
  assert.deepEqual(at.sort(), ['AGENTS.md', 'CLAUDE.md']);
  for (const uri of at) assert.ok(fs.existsSync(path.join(repo, uri)), uri);
  assert.match(would[0].message.text, /^propose would create \.github\/copilot-instructions\.md\. Made also from: \[\S+:\d+\]\(1\)\.$/);
  // The fingerprint stays the target's: a baseline written before still matches.
  const j = json(repo, '--fail-on', 'any').report;
  assert.equal(would[0].partialFingerprints['copilotOnboard/v1'], j.findings.find((f: any) => f.rule === 'would-change').fingerprint);
});

test('SARIF links: helpUri into the project repository at this version when package.json names one; brackets in untrusted text make no link', async () => {
  const { toSarif, sarifText } = await import('../../server/src/reports/sarif.js');
  const { githubUrl } = await import('../../server/src/package-root.js');
  assert.equal(
    githubUrl({ type: 'git', url: 'git+https://github.com/acme/copilot-onboard.git' }),
    'https://github.com/acme/copilot-onboard',
  );
  assert.equal(githubUrl('github:acme/copilot-onboard'), 'https://github.com/acme/copilot-onboard');
  assert.equal(githubUrl('acme/copilot-onboard'), 'https://github.com/acme/copilot-onboard');
  assert.equal(githubUrl('https://gitlab.com/acme/copilot-onboard'), null);
  assert.equal(githubUrl(undefined), null);
  const report = {
    tool: 'copilot-onboard' as const,
    version: '0.1.0',
    files: 2,
    failOn: 'contradiction' as const,
    failed: true,
    counts: { contradiction: 1, duplicate: 0, drift: 0, 'would-change': 0, ambiguity: 0, unread: 0 },
    findings: [
      {
        rule: 'contradiction' as const,
        kind: 'tool-choice' as const,
        certainty: 'low' as const,
        message: 'Use [npm](javascript:alert(1)) \\ or not',
        locations: [
          { path: 'a.md', line: 3 },
          { path: 'b].md', line: 4 },
        ],
        fingerprint: 'f',
      },
    ],
  };
  const sarif = toSarif(report, { repositoryUrl: 'https://github.com/acme/copilot-onboard' }) as any;
  assert.ok(validate(sarif), JSON.stringify(compiled.errors));
  const run = sarif.runs[0];
  assert.match(run.tool.driver.informationUri, /^https:\/\/github\.com\/acme\/copilot-onboard\/blob\/v[^/]+\/docs\/ci\.md$/);
  for (const rule of run.tool.driver.rules) assert.match(rule.helpUri, /\/docs\/ci\.md#copilot-onboard[a-z-]+$/);
  assert.equal(run.results[0].level, 'note', 'low certainty is a note, whatever the rule');
  assert.equal(run.results[0].message.text, 'Use \\[npm\\](javascript:alert(1)) \\\\ or not. The other side: [b\\].md:4](1).');
  assert.equal(sarifText('[x]'), '\\[x\\]');

  // The other side lists only the locations on the other side; one on the alert's own side is named apart.
  const sided = structuredClone(report);
  sided.findings[0] = {
    ...sided.findings[0]!,
    message: 'Use pnpm (or npm?)',
    locations: [
      { path: 'a.md', line: 3 },
      { path: 'a.md', line: 9 },
      { path: 'b.md', line: 4 },
    ],
    sides: [0, 0, 1],
  } as (typeof sided.findings)[0];
  const two = (toSarif(sided, { repositoryUrl: null }) as any).runs[0].results[0];
  assert.equal(two.message.text, 'Use pnpm (or npm?). The other side: [b.md:4](2). Also on this side: [a.md:9](1).');
  assert.deepEqual(
    two.relatedLocations.map((l: any) => [l.id, l.physicalLocation.artifactLocation.uri, l.physicalLocation.region.startLine]),
    [
      [1, 'a.md', 9],
      [2, 'b.md', 4],
    ],
  );
  // A message that already ends its sentence gets no second full stop.
  for (const [message, shown] of <[string, string][]>[
    ['Done.', 'Done.'],
    ['Really?', 'Really?'],
    ['Say "yes."', 'Say "yes."'],
    ['Trailing  ', 'Trailing.'],
  ])
    assert.equal(
      (toSarif({ ...sided, findings: [{ ...sided.findings[0]!, message, locations: [{ path: 'a.md', line: 1 }] }] }) as any).runs[0]
        .results[0].message.text,
      shown,
    );
});

test('check --format json and SARIF: each contradiction says which side each location is on, and the other side never lists the alert’s own side', (t) => {
  const repo = sandbox(t, {
    'CLAUDE.md': '# Claude\n\n- Use pnpm to install dependencies.\n- Run pnpm install after pulling.\n',
    'AGENTS.md': '# Agents\n\n- Use npm to install dependencies.\n',
  });
  const report = json(repo, '--fail-on', 'any').report;
  const contradictions = report.findings.filter((f: any) => f.rule === 'contradiction');
  assert.ok(contradictions.length > 0, JSON.stringify(report.findings));
  const sarif = JSON.parse(cli(['check', '--repo', repo, '--format', 'sarif']).stdout);
  for (const f of contradictions) {
    assert.equal(f.sides.length, f.locations.length);
    const result = sarif.runs[0].results.find((x: any) => x.partialFingerprints['copilotOnboard/v1'] === f.fingerprint);
    const other = /The other side: (.*?)\.(?: Also on this side|$)/.exec(result.message.text)?.[1] ?? '';
    for (const m of other.matchAll(/\]\((\d+)\)/g)) assert.notEqual(f.sides[Number(m[1])], f.sides[0], result.message.text);
    assert.match(result.message.text, /[^.]\. The other side: /);
  }
});

test('baseline round trip: --write-baseline then --baseline passes; a new problem still fails; a path outside is refused', (t) => {
  const repo = sandbox(t, CONTRADICTION);
  const work = tempDir(t, 'check-baseline-');
  assert.equal(cli(['check', '--repo', repo]).status, 1);
  const before = hashTree(repo);
  const w = cli(['check', '--repo', repo, '--write-baseline', 'baseline.json'], work);
  assert.equal(w.status, 0, w.stderr);
  assert.deepEqual(hashTree(repo), before, 'the baseline is written where named, not in the repository');
  const file = path.join(work, 'baseline.json');
  const baseline = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(baseline.tool, 'copilot-onboard');
  assert.ok(baseline.findings.length > 0);
  const again = json(repo, '--baseline', file);
  assert.equal(again.code, 0);
  assert.ok(again.report.findings.every((f: any) => f.inBaseline === true));
  // Moving the lines does not make them new: the fingerprint is the text, not the line number.
  writeFile(repo, '.github/copilot-instructions.md', `\n\n${MESSY_INSTRUCTIONS}`);
  assert.equal(json(repo, '--baseline', file).code, 0);
  // A new contradiction fails.
  writeFile(repo, 'AGENTS.md', '# Agents\n\n- Use yarn for all package management.\n');
  const fresh = json(repo, '--baseline', file);
  assert.equal(fresh.code, 1, JSON.stringify(fresh.report));
  assert.ok(fresh.report.findings.some((f: any) => f.rule === 'contradiction' && !f.inBaseline));
  // Outside the working directory and the repository: refused, nothing written.
  const outside = path.join(os.tmpdir(), `check-outside-${process.pid}.json`);
  const refused = cli(['check', '--repo', repo, '--write-baseline', outside], work);
  assert.equal(refused.status, 2, refused.stderr);
  assert.ok(!fs.existsSync(outside));
});

test('MCP onboarding_check: listed read-only with an output schema and an empty strict input; answers like check, writes nothing', async (t) => {
  const repo = sandbox(t, { ...CONTRADICTION, 'AGENTS.md': '# Agents\n\n- Deploy only from the release branch.\n' });
  const before = hashAll(repo);
  const s = await openSession(t, { repo, elicit: null });
  const { tools } = await s.client.listTools();
  const tool = tools.find((x) => x.name === 'onboarding_check');
  assert.ok(tool);
  assert.equal(tool.annotations?.readOnlyHint, true);
  assert.deepEqual(tool.inputSchema, { type: 'object', properties: {}, additionalProperties: false });
  assert.ok(tool.outputSchema);
  const r = await s.call('onboarding_check');
  assert.equal(r.isError ?? false, false);
  const sc = r.structuredContent as any;
  assert.equal(sc.outcome, 'checked');
  assert.equal(sc.failOn, 'contradiction');
  assert.equal(sc.failed, true);
  assert.deepEqual(sc.findings, json(repo).report.findings);
  assert.match(textOf(r), /FAILED \(--fail-on contradiction\)/);
  await assert.rejects(s.call('onboarding_check', { failOn: 'none' }), /takes no arguments/);
  assert.deepEqual(hashAll(repo), before);
});

test("check's drift leaves alone the lines of a managed block, which a migration leaves in their file on purpose; a line outside it still drifts", (t) => {
  const block = '<!-- tool-rules-start -->\n- Call the formatter through its wrapper script.\n<!-- tool-rules-end -->\n';
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': STRUCTURED_INSTRUCTIONS,
    'CLAUDE.md': `# Claude\n\n${block}`,
    'AGENTS.md': `# Agents\n\n${block}\n- Deploy only from the release branch.\n`,
  });
  const drift = json(repo).report.findings.filter((f: any) => f.rule === 'drift');
  assert.deepEqual(
    drift.map((f: any) => [f.kind, f.locations]),
    [['legacy-only', [{ path: 'AGENTS.md', line: 7 }]]],
  );
});
