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

/** A check result as `check --format json` writes it, with what a test wants changed (text, so a test can write `1e999`). */
function resultText(
  repository: string,
  files = '2',
  counts = '{"contradiction": 0, "duplicate": 0, "drift": 0, "would-change": 0, "ambiguity": 0}',
) {
  return `{"repository": ${JSON.stringify(repository)}, "tool": "copilot-onboard", "version": "0.1.0", "files": ${files}, "failOn": "contradiction", "failed": false, "counts": ${counts}, "findings": []}`;
}

test('fleet: a count that is not a whole number from 0 to a billion makes the result malformed, and the totals stay finite sums', (t) => {
  const out = tempDir(t);
  const cases: Record<string, string> = {
    'ok.json': resultText('acme/ok', '3'),
    'infinite.json': resultText('acme/infinite', '1e999'),
    'negative.json': resultText('acme/negative', '-4'),
    'fraction.json': resultText('acme/fraction', '1.5'),
    'text.json': resultText('acme/text', '"7"'),
    'huge.json': resultText('acme/huge', '9007199254740993'),
    'bad-count.json': resultText('acme/bad-count', '1', '{"contradiction": 1e999}'),
    'nan-count.json': resultText('acme/nan-count', '1', '{"duplicate": null}'),
  };
  for (const [f, text] of Object.entries(cases)) fs.writeFileSync(path.join(out, f), text);
  const r = cli(['fleet', ...Object.keys(cases), '--format', 'json'], { cwd: out });
  assert.equal(r.status, 1, r.stderr);
  assert.doesNotMatch(r.stdout, /Infinity|NaN|null/);
  const fleet = JSON.parse(r.stdout);
  assert.equal(fleet.read, 1);
  assert.equal(fleet.malformed, Object.keys(cases).length - 1);
  assert.equal(fleet.totals.files, 3);
  const problem = (file: string) => fleet.rows.find((x: any) => x.file === file).problem;
  assert.equal(problem('infinite.json'), 'has files that is not a whole number from 0 to 1,000,000,000');
  assert.match(problem('bad-count.json'), /^has counts\.contradiction that is not a whole number/);
  assert.match(problem('nan-count.json'), /^has counts\.duplicate /);
  for (const f of ['negative.json', 'fraction.json', 'text.json', 'huge.json']) assert.match(problem(f), /^has files /, f);
  // The Markdown says so too, and its total row adds up the one result read.
  const md = cli(['fleet', ...Object.keys(cases)], { cwd: out });
  assert.match(md.stdout, /^\| \*\*total\*\* \| 0 failed of 1 \| 3 \|/m);
  assert.match(md.stdout, /\*\*Not read\*\* \(7\): /);
});

test('fleet: the Markdown stays under the 1 MiB a job summary holds, whatever the names and however many results', async (t) => {
  const out = tempDir(t);
  // One repository name of 3 MiB: the row is kept, its name cut in the cell.
  const long = `acme/${'x'.repeat(3 * 1024 * 1024)}`;
  fs.writeFileSync(path.join(out, 'long.json'), resultText(long));
  fs.writeFileSync(path.join(out, 'short.json'), resultText('acme/short'));
  const r = cli(['fleet', 'long.json', 'short.json'], { cwd: out });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Buffer.byteLength(r.stdout) < 8 * 1024, `${Buffer.byteLength(r.stdout)} bytes`);
  assert.match(r.stdout, /\| ` acme\/x{195}… \(3,145,733 characters\) ` \| ✅ passed \|/);
  assert.match(r.stdout, /^\| ` acme\/short ` \| ✅ passed \|/m);

  // Many results past the limit: whole rows left out, the total row still counts them all, a line says how many.
  const { fleetMarkdown, fleetRow, mergeFleet } = await import('../../server/src/cli/fleet.js');
  const rows = Array.from({ length: 6000 }, (_, i) =>
    fleetRow(`r${i}.json`, resultText(`acme/${String(i).padStart(5, '0')}-${'y'.repeat(190)}`)),
  );
  const md = fleetMarkdown(mergeFleet(rows));
  assert.ok(Buffer.byteLength(md) <= 1024 * 1024, `${Buffer.byteLength(md)} bytes`);
  const shown = md.split('\n').filter((l) => l.startsWith('| ` acme/')).length;
  assert.ok(shown > 1000 && shown < 6000, `${shown} rows shown`);
  assert.match(md, new RegExp(`^\\| \\*\\*total\\*\\* \\| 0 failed of 6000 \\| 12000 \\|`, 'm'));
  assert.ok(
    md.endsWith(
      `**${6000 - shown} rows not shown**: a job summary holds at most 1 MiB. \`copilot-onboard fleet --format json\` lists them all.\n`,
    ),
  );
  // The table is whole: the total row follows the last row shown, no blank line inside it.
  const lines = md.split('\n');
  const totalAt = lines.findIndex((l) => l.startsWith('| **total**'));
  assert.match(lines[totalAt - 1]!, /^\| ` acme\//);
});

test('fleet: a result named outside the working directory whose folder does not exist is missing, like any other', (t) => {
  const out = tempDir(t);
  const elsewhere = tempDir(t);
  fs.writeFileSync(path.join(elsewhere, 'ok.json'), resultText('acme/ok'));
  const gone = path.join(elsewhere, 'never-made/check.json');
  const r = cli(['fleet', path.join(elsewhere, 'ok.json'), gone, '--format', 'json'], { cwd: out });
  assert.equal(r.status, 1, r.stderr);
  const row = JSON.parse(r.stdout).rows.find((x: any) => x.file === gone);
  assert.deepEqual([row.status, row.problem], ['missing', 'does not exist']);
});
