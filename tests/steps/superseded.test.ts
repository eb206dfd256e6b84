import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, isChoicesRound, openSession, textOf, yesToAll } from '../helpers/mcp.js';
import { sandbox } from '../helpers/sandbox.js';

/** After a migration that keeps the legacy files (the default), they are one note each, not a list of the copies it made (issue 14). */

const FILES = {
  'AGENTS.md':
    '# Agents\n\n## Build\n\n- Use npm to install dependencies.\n- Run npm test before every commit.\n\n## Style\n\n- Prefer small functions.\n- Name files in kebab-case.\n',
  'CLAUDE.md': '# Claude\n\n- Write commit messages in the imperative.\n- Keep pull requests small.\n',
};

function cli(args: string[]) {
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input: '', env });
}

test('a kept legacy file whose rules are in Copilot\'s files is one note, "superseded by …; kept because you chose to"; status names the commands that point or remove it', async (t) => {
  const repo = sandbox(t, FILES);
  let remove = false;
  const s = await openSession(t, {
    repo,
    elicit: (req) => {
      if (remove && isChoicesRound(req)) {
        const props = (req as any).requestedSchema.properties;
        return { action: 'accept', content: Object.fromEntries(Object.keys(props).map((k) => [k, 'remove'])) };
      }
      return yesToAll(req);
    },
  });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  assert.equal((await s.call('onboarding_migrate')).structuredContent?.outcome, 'migrated');

  const json = JSON.parse(cli(['analyze', '--repo', repo, '--json']).stdout);
  assert.deepEqual(
    json.problems.filter((p: any) => p.type === 'duplication'),
    [],
    'no copies listed as problems',
  );
  assert.deepEqual(
    json.superseded.map((x: any) => [x.path, x.by, x.copies]),
    [
      // AGENTS.md's four copied rules are one problem now (a copied section, issue 12).
      ['AGENTS.md', ['.github/copilot-instructions.md'], 1],
      ['CLAUDE.md', ['.github/copilot-instructions.md'], 2],
    ],
  );
  assert.doesNotMatch(json.patternDetail, /not in Copilot's files yet/);
  const text = cli(['analyze', '--repo', repo]).stdout;
  assert.match(
    text,
    /^Note: AGENTS\.md is superseded by \.github\/copilot-instructions\.md; kept because you chose to\. Its 4 rule lines are in Copilot's files, so the 1 duplicate between them is not listed as problems\.$/m,
  );
  assert.match(text, /^Note: CLAUDE\.md is superseded by \.github\/copilot-instructions\.md; kept because you chose to\./m);
  assert.doesNotMatch(text, /Repeated rule/);

  const status = cli(['status', '--repo', repo]);
  const next =
    /^Kept legacy files: AGENTS\.md \(superseded by \.github\/copilot-instructions\.md\), CLAUDE\.md \(superseded by \.github\/copilot-instructions\.md\)\. To replace them \(pointer or remove\): run (\S+ \S+ propose --repo \S+), then (\S+ \S+ approve --repo \S+) and choose pointer or remove for AGENTS\.md, CLAUDE\.md, then (\S+ \S+ migrate --repo \S+)\.$/m.exec(
      status.stdout,
    );
  assert.ok(next, status.stdout);
  const statusJson = JSON.parse(cli(['status', '--repo', repo, '--json']).stdout);
  assert.deepEqual(
    statusJson.superseded.map((x: any) => x.fates),
    [['remove'], ['pointer', 'remove']],
  );

  // The steps it names do it: propose, approve choosing remove, migrate.
  remove = true;
  await s.call('onboarding_propose');
  assert.equal((await s.call('onboarding_approve')).structuredContent?.outcome, 'approved');
  assert.equal((await s.call('onboarding_migrate')).structuredContent?.outcome, 'migrated');
  assert.ok(!fs.existsSync(path.join(repo, 'AGENTS.md')));
  assert.doesNotMatch(cli(['status', '--repo', repo]).stdout, /Kept legacy files/);
});

test('a kept legacy file with a rule added since the migration is analyzed as any other file', async (t) => {
  const repo = sandbox(t, FILES);
  const s = await openSession(t, { repo, elicit: yesToAll });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  await s.call('onboarding_migrate');
  fs.appendFileSync(path.join(repo, 'AGENTS.md'), '- Keep the changelog up to date.\n');
  const analyzed = await s.call('onboarding_analyze');
  const superseded = (analyzed.structuredContent as any).superseded.map((x: any) => x.path);
  assert.deepEqual(superseded, ['CLAUDE.md']);
  // AGENTS.md is analyzed again: its copied rules are one problem with the Copilot file; CLAUDE.md's are not listed.
  const dups = (analyzed.structuredContent as any).problems.filter((p: any) => p.type === 'duplication');
  assert.deepEqual(
    dups.map((p: any) => p.locations.map((l: any) => l.path).sort()),
    [['.github/copilot-instructions.md', 'AGENTS.md']],
  );
  assert.doesNotMatch(textOf(analyzed), /Keep pull requests small/);
  // Before any migration nothing is superseded.
  const fresh = sandbox(t, FILES);
  assert.deepEqual(JSON.parse(cli(['analyze', '--repo', fresh, '--json']).stdout).superseded, []);
});
