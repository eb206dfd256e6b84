import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, sandbox, STRUCTURED_INSTRUCTIONS, tempDir } from '../helpers/sandbox.js';
import { markdownOutsideCode } from '../helpers/markdown.js';
import { CHECK_RULE_IDS } from '../../server/src/model/findings.js';

/** `copilot-onboard fleet FILE...` (issue 33): many check results merged into one table with totals. */

function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
  delete env.COPILOT_ONBOARD_REPO;
  if (!opts.env?.GITHUB_REPOSITORY) delete env.GITHUB_REPOSITORY;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
}

test('fleet: totals are the sum of the parts; a missing, a malformed and a linked result are listed, never dropped; the order is stable', (t) => {
  const out = tempDir(t);
  const repos = {
    'acme/messy': sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS, 'AGENTS.md': '# Agents\n\n- Deploy on Fridays.\n' }),
    'acme/clean': sandbox(t, { '.github/copilot-instructions.md': STRUCTURED_INSTRUCTIONS }),
    'acme/legacy|`x`': sandbox(t, { 'CLAUDE.md': '# Claude\n\n- Use pnpm.\n- Use pnpm.\n' }),
  };
  const singles: any[] = [];
  for (const [name, repo] of Object.entries(repos)) {
    const r = cli(['check', '--repo', repo, '--format', 'json', '--fail-on', 'any'], { env: { GITHUB_REPOSITORY: name } });
    const file = path.join(out, `${name.replace(/\W/g, '_')}.json`);
    fs.writeFileSync(file, r.stdout);
    singles.push(JSON.parse(r.stdout));
    assert.equal(JSON.parse(r.stdout).repository, name);
  }
  fs.writeFileSync(path.join(out, 'broken.json'), '{"findings": [');
  fs.writeFileSync(path.join(out, 'other.json'), '{"hello": "world"}');
  fs.symlinkSync(path.join(out, 'acme_clean.json'), path.join(out, 'link.json'));
  const files = ['acme_messy.json', 'acme_clean.json', 'acme_legacy__x_.json', 'broken.json', 'other.json', 'gone.json', 'link.json'];

  const r = cli(['fleet', ...files, '--format', 'json'], { cwd: out });
  assert.equal(r.status, 1, r.stderr);
  const fleet = JSON.parse(r.stdout);
  assert.equal(fleet.repositories, files.length);
  assert.equal(fleet.rows.length, files.length);
  assert.deepEqual(fleet.rows.map((x: any) => [x.file, x.status]).sort(), [
    ['acme_clean.json', 'ok'],
    ['acme_legacy__x_.json', 'ok'],
    ['acme_messy.json', 'ok'],
    ['broken.json', 'malformed'],
    ['gone.json', 'missing'],
    ['link.json', 'malformed'],
    ['other.json', 'malformed'],
  ]);
  assert.match(fleet.rows.find((x: any) => x.file === 'link.json').problem, /symlink/);
  assert.equal(fleet.read, 3);
  assert.equal(fleet.missing, 1);
  assert.equal(fleet.malformed, 3);

  // The totals are the sum of the parts, and each part is what check said.
  const ok = fleet.rows.filter((x: any) => x.status === 'ok');
  for (const key of ['files', 'duplicates', 'drift', 'wouldChange', 'ambiguity', 'unread', 'findings'])
    assert.equal(
      fleet.totals[key],
      ok.reduce((n: number, x: any) => n + x[key], 0),
      key,
    );
  for (const c of ['high', 'medium', 'low'])
    assert.equal(
      fleet.totals.contradictions[c],
      ok.reduce((n: number, x: any) => n + x.contradictions[c], 0),
      c,
    );
  assert.equal(
    fleet.totals.findings,
    singles.reduce((n, s) => n + s.findings.length, 0),
  );
  assert.equal(
    fleet.totals.files,
    singles.reduce((n, s) => n + s.files, 0),
  );
  assert.equal(
    fleet.totals.drift,
    singles.reduce((n, s) => n + s.counts.drift, 0),
  );
  assert.equal(
    fleet.totals.duplicates,
    singles.reduce((n, s) => n + s.counts.duplicate, 0),
  );
  const contradictions = singles.reduce((n, s) => n + s.counts.contradiction, 0);
  assert.ok(contradictions > 0);
  assert.equal(fleet.totals.contradictions.high + fleet.totals.contradictions.medium + fleet.totals.contradictions.low, contradictions);
  assert.equal(fleet.failed, singles.filter((s) => s.failed).length);
  for (const row of ok) assert.match(row.version, /^\d+\.\d+\.\d+/);

  // Stable: the same table whatever the order of the files.
  const again = cli(['fleet', ...[...files].reverse(), '--format', 'json'], { cwd: out });
  assert.equal(again.stdout, r.stdout);

  // Markdown: one row per result and a total row; a hostile repository name stays in its cell.
  const md = cli(['fleet', ...files], { cwd: out });
  assert.equal(md.status, 1);
  const rows = markdownOutsideCode(md.stdout).filter((l) => l.startsWith('|'));
  assert.equal(rows.length, 2 + files.length + 1);
  // Repository, result, files, one column per check rule (model/findings.ts), tool.
  for (const row of rows) assert.equal(row.split('|').length, 4 + CHECK_RULE_IDS.length + 2, row);
  assert.match(md.stdout, /\*\*missing\*\*: ` gone\.json does not exist `/);
  assert.match(md.stdout, /^\| \*\*total\*\* \|/m);

  // All read: exit 0.
  assert.equal(cli(['fleet', 'acme_clean.json', 'acme_messy.json'], { cwd: out }).status, 0);
  // No FILE is bad usage.
  assert.equal(cli(['fleet'], { cwd: out }).status, 2);
});
