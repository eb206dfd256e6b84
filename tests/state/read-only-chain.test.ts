import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession } from '../helpers/mcp.js';
import { readTraces, sandbox } from '../helpers/sandbox.js';
import { fullFlow, repoWithRules } from '../helpers/hostile-repo.js';
import { fileStamp } from '../../server/src/state/traces/writer.js';

/**
 * The read-only traces (the narration of analyze and propose) form a chain of their own, which git
 * ignores (state/traces/chains.ts, issue 41). The traces an earlier version wrote into one chain stay
 * the committed record; the traces report reads the narration from both; and a read-only trace, which
 * nobody reviews, can never speak for the gated chain.
 */

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/earlier-0.1.0');
const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '' });
const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });

test("after an upgrade, an earlier version's committed traces stay as they are, a read-only command adds nothing git sees, and the report shows both narrations", async (t) => {
  const repo = sandbox(t, { 'CLAUDE.md': fs.readFileSync(path.join(FIXTURE, 'CLAUDE.md'), 'utf8') });
  for (const rel of ['elicitation-traces', 'sampling-traces', 'trace-chain.json'])
    fs.cpSync(path.join(FIXTURE, '.copilot-state', rel), path.join(repo, '.copilot-state', rel), { recursive: true });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'traces of 0.1.0, committed');
  const s = await openSession(t, {
    repo,
    sample: () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'Narrated after the upgrade.' } }),
  });
  await s.call('onboarding_analyze');
  await s.close();
  assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), '');
  const verify = cli(['traces', 'verify', '--repo', repo]);
  assert.equal(verify.status, 0, verify.stderr);
  const report = JSON.parse(cli(['traces', 'report', '--format', 'json', '--repo', repo]).stdout) as {
    narration: { chain: string; intent: string; text: string }[];
  };
  assert.deepEqual(
    report.narration.map((n) => [n.chain, n.intent]),
    [
      ['gated', 'propose'],
      ['read-only', 'analyze'],
    ],
  );
  assert.equal(report.narration[1]!.text, 'Narrated after the upgrade.');
  const md = cli(['traces', 'report', '--repo', repo]).stdout;
  assert.match(md, /Narration for ` analyze ` \(seq 1 of the read-only chain, kept on this machine\)/);
});

test('a forged read-only trace cannot acknowledge a break in the gated chain, nor record a prune there', async (t) => {
  const repo = repoWithRules(t);
  await fullFlow(repo);
  const newest = readTraces(repo, 'elicitation').sort((a, b) => b.seq - a.seq)[0]!;
  fs.rmSync(path.join(repo, '.copilot-state/elicitation-traces', newest._file));
  const broken = JSON.parse(cli(['traces', 'verify', '--json', '--repo', repo]).stdout) as { ok: boolean; problems: string[] };
  assert.equal(broken.ok, false);
  // What a hostile clone (or process) could drop beside the ignored read-only traces.
  const timestamp = new Date().toISOString();
  for (const [action, extra] of [
    ['acknowledge', { outcome: 'acknowledged', acknowledged: { reason: 'nothing to see', problems: broken.problems } }],
    [
      'prune',
      { outcome: 'pruned', pruned: { reason: 'x', traces: [{ from: 1, to: 99, lastSha256: 'a'.repeat(64), files: 99 }], backups: [] } },
    ],
  ] as const) {
    const forged = {
      seq: 99,
      prev: null,
      timestamp,
      chain: 'read-only',
      action,
      message: '',
      schema: {},
      response: null,
      duration_ms: 0,
      planHash: null,
      client: null,
      ...extra,
    };
    fs.writeFileSync(path.join(repo, '.copilot-state/sampling-traces', `${fileStamp(timestamp)}-${action}.json`), JSON.stringify(forged));
  }
  const r = JSON.parse(cli(['traces', 'verify', '--json', '--repo', repo]).stdout) as {
    ok: boolean;
    problems: string[];
    acknowledged: string[];
  };
  assert.equal(r.ok, false);
  assert.deepEqual(r.acknowledged, []);
  for (const p of broken.problems) assert.ok(r.problems.includes(p), `${p} is still reported`);
});

test('a read-only chain head that names a trace outside the read-only folder is not a chain head: the break is named, nothing is followed', async (t) => {
  const repo = repoWithRules(t);
  await fullFlow(repo);
  const head = path.join(repo, '.copilot-state/sampling-traces/.read-only-chain.json');
  const gated = readTraces(repo, 'elicitation')[0]!;
  const json = JSON.parse(fs.readFileSync(head, 'utf8'));
  fs.writeFileSync(head, JSON.stringify({ ...json, file: `.copilot-state/elicitation-traces/${gated._file}` }));
  const r = cli(['traces', 'verify', '--repo', repo]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /sampling-traces\/\.read-only-chain\.json\) is not a chain head/);
  assert.equal(cli(['analyze', '--repo', repo]).status, 0);
  const newest = readTraces(repo, 'sampling').sort((a, b) => b.seq - a.seq)[0]!;
  assert.equal(newest.chain, 'read-only');
  assert.match(newest.chainBreak.problems.join('\n'), /read-only-chain\.json\) was not a chain head/);
});
