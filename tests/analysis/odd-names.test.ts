import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, outcomeOf, yesToAll } from '../helpers/mcp.js';
import { applyAndReplan, planRepo, sandbox, writeFile } from '../helpers/sandbox.js';
import { showPath } from '../../server/src/show/untrusted.js';

/**
 * A hostile repository hides rules in files whose names hold what a line-based listing, a regular
 * expression's `.` or a path normaliser gets wrong: line breaks (LF, CR, U+2028, U+2029), tabs, other
 * controls, quotes, backslashes, a leading `:` (git's pathspec magic). Each must be read, analysed,
 * planned and migrated like any other rule file, and shown quoted. So must folders named `C:` or `..x`,
 * which are names, not a drive or a way out, outside Windows.
 */
const ODD: Record<string, string> = {
  '.cursor/rules/x\ny.mdc': '---\nalwaysApply: true\n---\n- Odd rule one: name holds a newline.\n',
  '.cursor/rules/line\u2028sep.mdc': '---\nalwaysApply: true\n---\n- Odd rule two: name holds U+2028.\n',
  '.windsurf/rules/para\u2029sep.md': '- Odd rule three: name holds U+2029.\n',
  '.windsurf/rules/lf\nrule.md': '- Odd rule four: a Windsurf rule with a newline.\n',
  '.clinerules/cr\rname.md': '- Odd rule five: name holds a lone CR.\n',
  '.clinerules/tab\tname.md': '- Odd rule six: name holds a tab.\n',
  '.clinerules/esc\x1b[2Kname.md': '- Odd rule seven: name holds ESC.\n',
  '.clinerules/:(exclude)colon.md': '- Odd rule eight: name starts with pathspec magic.\n',
  '.clinerules/nl\nsub/inner.md': '- Odd rule nine: in a folder whose name holds a newline.\n',
  '.github/instructions/q"b\\s.instructions.md': '---\napplyTo: "**"\n---\n- Odd rule ten: quote and backslash.\n',
  '.github/instructions/bs\\..\\..\\x.instructions.md': '---\napplyTo: "**"\n---\n- Odd rule eleven: backslashes and dots.\n',
  '.claude/rules/claude\nrule.md': '- Odd rule twelve: a Claude rule with a newline.\n',
  'pkg\nsub/AGENTS.md': '- Odd rule thirteen: nested AGENTS.md in a folder with a newline.\n',
  'pkg\u2028two/CLAUDE.md': '- Odd rule fourteen: nested CLAUDE.md in a folder with U+2028.\n',
  'C:/AGENTS.md': '- Odd rule fifteen: nested AGENTS.md in a folder named like a Windows drive.\n',
  '..x/AGENTS.md': '- Odd rule sixteen: nested AGENTS.md in a folder whose name starts with two dots.\n',
};
const ODD_PATHS = Object.keys(ODD);
/** The odd files that are not Copilot's own: their rules move into Copilot's files. */
const LEGACY_PATHS = ODD_PATHS.filter((p) => !p.startsWith('.github/'));
const ruleOf = (p: string) => ODD[p]!.split('\n').find((l) => l.startsWith('- Odd rule'))!;

function commitAll(repo: string): void {
  execFileSync('git', ['-C', repo, 'add', '-A']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'odd names']);
}

/** A sandbox with the odd files (and AGENTS.md), untracked or committed. */
function oddRepo(t: Parameters<typeof sandbox>[0], committed: boolean, files: Record<string, string> = ODD): string {
  const repo = sandbox(t, { 'AGENTS.md': '# Agents\n\n- Use pnpm for all package management.\n', ...files });
  if (committed) commitAll(repo);
  return repo;
}

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
}

for (const committed of [false, true]) {
  const how = committed ? 'committed' : 'untracked';

  test(`analyze --json lists every ${how} rule file whose name holds line breaks, controls, quotes or backslashes, by its exact name`, (t) => {
    const repo = oddRepo(t, committed);
    if (committed) {
      const quoted = execFileSync('git', ['-C', repo, 'ls-files'], { encoding: 'utf8' });
      assert.match(quoted, /^".cursor\/rules\/x\\ny.mdc"$/m, 'git quotes the odd names in a listing without -z');
    }
    const r = cli(['analyze', '--repo', repo, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { sources: { path: string; kind: string }[]; skipped: unknown[] };
    const listed = out.sources.map((s) => s.path);
    for (const p of ODD_PATHS) assert.ok(listed.includes(p), `${JSON.stringify(p)} is read: ${JSON.stringify(listed)}`);
    assert.deepEqual(out.skipped, []);
  });

  test(`the analyze report shows each ${how} odd name quoted and escaped: no name starts a line of its own`, (t) => {
    const repo = oddRepo(t, committed);
    const r = cli(['analyze', '--repo', repo]);
    assert.equal(r.status, 0, r.stderr);
    for (const p of ODD_PATHS) assert.ok(r.stdout.includes(`- ${showPath(p)} (`), `${showPath(p)} listed in:\n${r.stdout}`);
    assert.doesNotMatch(r.stdout, /[\r\u2028\u2029\x1b]/u, 'no raw line break or ESC from a name reaches the terminal');
    const lines = r.stdout.split('\n');
    for (const tail of ['y.mdc', 'rule.md', 'sub/AGENTS.md', 'sub/inner.md'])
      assert.ok(!lines.some((l) => l.startsWith(tail)), `no line starts with the rest of a name (${tail})`);
  });

  test(`check fails on a contradiction hidden in a ${how} rule file whose name holds a line break`, (t) => {
    const places = [
      '.cursor/rules/x\ny.mdc',
      '.windsurf/rules/para\u2029sep.md',
      '.clinerules/cr\rname.md',
      '.github/instructions/q"b\\s.instructions.md',
      'pkg\nsub/AGENTS.md',
    ];
    for (const place of places) {
      const body = place.endsWith('.mdc') ? '---\nalwaysApply: true\n---\n' : place.includes('.github/') ? '---\napplyTo: "**"\n---\n' : '';
      const repo = oddRepo(t, committed, { [place]: `${body}- Use npm to install dependencies.\n` });
      const r = cli(['check', '--repo', repo, '--format', 'json']);
      assert.equal(r.status, 1, `check fails for ${JSON.stringify(place)}: ${r.stdout}${r.stderr}`);
      const report = JSON.parse(r.stdout) as { findings: { rule: string; locations: { path: string }[] }[] };
      const contradiction = report.findings.find((f) => f.rule === 'contradiction');
      assert.ok(contradiction, r.stdout);
      assert.deepEqual(contradiction.locations.map((l) => l.path).sort(), ['AGENTS.md', place].sort());
    }
  });
}

test("propose's plan carries the rules of every odd-named file into Copilot's files, and the next plan is a no-op", async (t) => {
  const repo = oddRepo(t, true);
  const r = cli(['propose', '--repo', repo, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const proposed = JSON.parse(r.stdout) as { operations: { path: string; diff: string }[] };
  const diffs = proposed.operations.map((o) => o.diff).join('\n');
  for (const p of LEGACY_PATHS) assert.ok(diffs.includes(`+${ruleOf(p)}`), `the plan adds ${ruleOf(p)}`);

  const { plan } = await planRepo(repo);
  for (const p of ODD_PATHS)
    assert.ok(
      plan.sources.some((s) => s.path === p && s.sha256 !== null),
      `${JSON.stringify(p)} is a source the plan binds to`,
    );
  const written = plan.operations.map((o) => o.content ?? '').join('\n');
  for (const p of LEGACY_PATHS) assert.equal(written.split(ruleOf(p)).length - 1, 1, `${ruleOf(p)} is written once`);
  for (const p of ODD_PATHS.filter((x) => !LEGACY_PATHS.includes(x)))
    assert.ok(!plan.operations.some((o) => o.path === p), `Copilot's own ${JSON.stringify(p)} is left as it is`);
  // A YAML 1.1 reader takes a raw U+2028 for a line break: the folder is written escaped, and read back the same.
  const nested = plan.operations.find((o) => o.content?.includes('Odd rule fourteen'))!.content!;
  assert.match(nested, /^applyTo: "pkg\\u2028two\/\*\*"$/m, nested);
  assert.match(plan.operations.find((o) => o.content?.includes('Odd rule thirteen'))!.content!, /^applyTo: "pkg\\nsub\/\*\*"$/m);
  const { plan: again } = await applyAndReplan(repo, plan);
  assert.deepEqual(
    again.operations.map((o) => `${o.op} ${o.path}`),
    [],
  );
});

test('a migration over MCP writes the rules of odd-named files to disk and keeps the odd files byte for byte', async (t) => {
  const repo = oddRepo(t, true);
  const s = await openSession(t, { repo, elicit: yesToAll });
  assert.equal(outcomeOf(await s.call('onboarding_propose')), 'proposed');
  assert.equal(outcomeOf(await s.call('onboarding_approve')), 'approved');
  const migrated = await s.call('onboarding_migrate');
  assert.equal(outcomeOf(migrated), 'migrated', JSON.stringify(migrated));
  const copilot = [
    fs.readFileSync(path.join(repo, '.github/copilot-instructions.md'), 'utf8'),
    ...fs
      .readdirSync(path.join(repo, '.github/instructions'))
      .map((n) => fs.readFileSync(path.join(repo, '.github/instructions', n), 'utf8')),
  ].join('\n');
  for (const p of ODD_PATHS) assert.ok(copilot.includes(ruleOf(p)), `${ruleOf(p)} is in Copilot's files`);
  for (const p of ODD_PATHS) assert.equal(fs.readFileSync(path.join(repo, p), 'utf8'), ODD[p], `${JSON.stringify(p)} is left as it was`);
});

test('a rule file whose name is not valid UTF-8 is listed as not read, never silently dropped', (t) => {
  const repo = oddRepo(t, false, {});
  const bad = Buffer.concat([Buffer.from(path.join(repo, '.cursor/rules/')), Buffer.from([0x62, 0xff, 0x61, 0x64]), Buffer.from('.mdc')]);
  fs.mkdirSync(path.join(repo, '.cursor/rules'), { recursive: true });
  fs.writeFileSync(bad, '---\nalwaysApply: true\n---\n- Use npm to install dependencies.\n');
  writeFile(repo, '.clinerules/fine.md', '- A fine rule.\n');
  const r = cli(['analyze', '--repo', repo, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { sources: { path: string }[]; skipped: { path: string; reason: string; detail: string }[] };
  assert.deepEqual(
    out.skipped.map((s) => [s.path, s.reason]),
    [['.cursor/rules/b\ufffdad.mdc', 'not_utf8']],
  );
  assert.match(out.skipped[0]!.detail, /a name that is not valid UTF-8/);
  assert.ok(out.sources.some((s) => s.path === '.clinerules/fine.md'));
  const text = cli(['analyze', '--repo', repo]);
  assert.match(text.stdout, /Not read: .*a name that is not valid UTF-8/);
});
