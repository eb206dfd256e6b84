import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { CLI } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, sandbox, STRUCTURED_INSTRUCTIONS, tempDir } from '../helpers/sandbox.js';

/**
 * The GitHub Action (action.yml) and the example workflows (issue 33): every file parses as YAML
 * with the keys GitHub requires, pins what it uses, grants only the permissions it needs, and
 * puts no input inside a script. A real validator (actionlint) checks them too where it is
 * installed. The action's own scripts are run here, as the runner would, on real repositories.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const WORKFLOWS = ['examples/github-workflow-check.yml', 'examples/org-check.yml'];
const CURRENT: Record<string, string> = {
  'actions/checkout': 'v6',
  'actions/setup-node': 'v6',
  'actions/upload-artifact': 'v7',
  'actions/download-artifact': 'v8',
  'github/codeql-action/upload-sarif': 'v4',
};

function load(rel: string): any {
  const doc = parseDocument(fs.readFileSync(path.join(ROOT, rel), 'utf8'), { uniqueKeys: true });
  assert.deepEqual(doc.errors, [], rel);
  return doc.toJS();
}

/** Every step of a workflow's jobs, or of the action. */
function stepsOf(y: any): any[] {
  if (y.runs) return y.runs.steps;
  return Object.values(y.jobs).flatMap((j: any) => j.steps ?? []);
}

/** What a step uses is pinned: our action to a full commit sha, the others to a current major. */
function checkUses(rel: string, uses: string): void {
  const [name, ref] = uses.split('@') as [string, string | undefined];
  assert.ok(ref, `${rel}: ${uses} names no version`);
  if (name.endsWith('/copilot-onboard')) assert.match(ref, /^[0-9a-f]{40}$/, `${rel}: ${uses} is not pinned to a commit`);
  else assert.equal(ref, CURRENT[name], `${rel}: ${uses} is not the current major`);
}

/** No input, matrix value or event field is pasted into a script: they reach it as environment variables. */
function checkScripts(rel: string, steps: any[]): void {
  for (const s of steps) {
    if (typeof s.run !== 'string') continue;
    assert.doesNotMatch(s.run, /\$\{\{/, `${rel}: step ${s.name ?? s.id ?? '?'} puts an expression inside its script`);
    assert.doesNotMatch(s.run, /npm install --global|npm i -g|npx copilot-onboard/, `${rel}: installs from the registry`);
  }
}

test('action.yml: a composite action that builds the tool from its own checkout, checks, writes the job summary, and can upload SARIF', () => {
  const a = load('action.yml');
  assert.ok(a.name && a.description, 'name and description');
  assert.equal(a.runs.using, 'composite');
  for (const [id, input] of Object.entries<any>(a.inputs)) assert.ok(input.description, `input ${id} has a description`);
  for (const [id, output] of Object.entries<any>(a.outputs)) assert.match(output.value, /\$\{\{ steps\.\w+\.outputs\./, `output ${id}`);
  const steps = stepsOf(a);
  for (const s of steps) {
    assert.ok(s.uses || s.run, 'each step uses or runs');
    if (s.run) assert.equal(s.shell, 'bash', 'a composite run step names its shell');
    if (s.uses) checkUses('action.yml', s.uses);
  }
  checkScripts('action.yml', steps);
  const build = steps.find((s) => typeof s.run === 'string' && s.run.includes('npm ci'));
  assert.equal(build['working-directory'], '${{ github.action_path }}');
  assert.match(build.run, /npm ci[^\n]*\nnpm run build/);
  const run = steps.find((s) => s.id === 'run');
  assert.match(run.run, /--format markdown >> "\$GITHUB_STEP_SUMMARY"/);
  const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'));
  assert.match(upload.if, /inputs\.upload-sarif == 'true'/);
  assert.equal(a.inputs['upload-sarif'].default, 'false', 'uploading is asked for, not assumed');
});

test('the example workflows: parse, required keys, pinned and current actions, permissions only where needed, no input in a script', () => {
  for (const rel of WORKFLOWS) {
    const w = load(rel);
    assert.ok(w.name, `${rel}: name`);
    assert.ok(w.on, `${rel}: on`);
    assert.deepEqual(w.permissions, {}, `${rel}: nothing granted by default`);
    for (const [id, job] of Object.entries<any>(w.jobs)) {
      assert.ok(job['runs-on'], `${rel}: job ${id} runs-on`);
      assert.ok(Array.isArray(job.steps) && job.steps.length > 0, `${rel}: job ${id} steps`);
      assert.equal(job.permissions?.contents, 'read', `${rel}: job ${id} reads the contents`);
      const uploads = job.steps.some((s: any) => s.uses?.includes('/copilot-onboard@') && s.with?.['upload-sarif'] !== undefined);
      assert.equal(
        job.permissions['security-events'] === 'write',
        uploads,
        `${rel}: job ${id} security-events write only where it uploads`,
      );
      for (const s of job.steps) {
        assert.ok(s.uses || s.run, `${rel}: job ${id}: each step uses or runs`);
        if (s.uses) checkUses(rel, s.uses);
        if (s.uses?.startsWith('actions/checkout')) assert.equal(s.with?.['persist-credentials'], false, `${rel}: no token left in .git`);
      }
      checkScripts(rel, job.steps);
    }
  }
  const org = load('examples/org-check.yml');
  assert.ok(org.on.workflow_call, 'a reusable workflow');
  assert.equal(org.on.workflow_call.inputs.repositories.required, true);
  assert.match(String(org.jobs.check.strategy['max-parallel']), /inputs\.max-parallel/);
  assert.equal(org.on.workflow_call.inputs['max-parallel'].type, 'number');
  assert.equal(org.jobs.check.strategy['fail-fast'], false);
  assert.equal(org.jobs.fleet.needs, 'check');
  assert.equal(org.jobs.fleet.if, 'always()');
  assert.ok(org.jobs.fleet.steps.some((s: any) => s.with?.mode === 'fleet'));
  const single = load('examples/github-workflow-check.yml');
  assert.match(
    single.jobs.check.steps.find((s: any) => s.uses?.includes('/copilot-onboard@')).with['upload-sarif'],
    /head\.repo\.full_name == github\.repository/,
  );
});

/**
 * The validator: @action-validator/cli (the schemastore schemas of workflows and of action
 * metadata, both; a devDependency to add), found in node_modules/.bin, at ACTION_VALIDATOR, or on the
 * PATH. Without it the test says so and skips: the YAML tests above still run.
 */
function actionValidator(): string | null {
  for (const candidate of [process.env.ACTION_VALIDATOR, path.join(ROOT, 'node_modules/.bin/action-validator'), 'action-validator']) {
    if (!candidate) continue;
    const r = spawnSync(candidate, ['--help'], { encoding: 'utf8' });
    if (!r.error && r.status === 0 && /action-validator/.test(r.stdout + r.stderr)) return candidate;
  }
  return null;
}

test('@action-validator/cli validates action.yml and every workflow against their schemas, where it is installed', (t) => {
  const validator = actionValidator();
  if (validator === null) {
    console.log('# @action-validator/cli is not installed (npm i -D @action-validator/cli@0.6.0): validated by the YAML tests above only');
    t.skip('@action-validator/cli not installed');
    return;
  }
  for (const rel of ['action.yml', ...WORKFLOWS]) {
    const r: SpawnSyncReturns<string> = spawnSync(validator, [path.join(ROOT, rel)], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${rel}: ${r.stdout}${r.stderr}`);
  }
  // It does refuse: a composite step without a shell, a job without runs-on.
  const temp = tempDir(t);
  fs.writeFileSync(path.join(temp, 'action.yml'), 'name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo\n');
  assert.notEqual(spawnSync(validator, [path.join(temp, 'action.yml')], { encoding: 'utf8' }).status, 0);
});

test('actionlint checks the workflows too, where it is installed', (t) => {
  const found = spawnSync('actionlint', ['-version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    console.log('# actionlint is not installed: skipped');
    t.skip('actionlint not installed');
    return;
  }
  const r = spawnSync('actionlint', ['-no-color', ...WORKFLOWS.map((f) => path.join(ROOT, f))], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

/** The action's main script, run as the runner runs it: bash, its env, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files. */
function runAction(t: Parameters<typeof tempDir>[0], env: Record<string, string>) {
  const a = load('action.yml');
  const step = a.runs.steps.find((s: any) => s.id === 'run');
  const temp = tempDir(t);
  const files = { GITHUB_OUTPUT: path.join(temp, 'output'), GITHUB_STEP_SUMMARY: path.join(temp, 'summary'), RUNNER_TEMP: temp };
  for (const f of [files.GITHUB_OUTPUT, files.GITHUB_STEP_SUMMARY]) fs.writeFileSync(f, '');
  const r = spawnSync('bash', ['-e', '-c', step.run], {
    encoding: 'utf8',
    cwd: temp,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? temp,
      ...files,
      CO_CLI: CLI,
      CO_MODE: 'check',
      CO_REPO: '.',
      CO_FAIL_ON: 'contradiction',
      CO_BASELINE: '',
      CO_SUMMARY: 'true',
      CO_TRACES: 'false',
      CO_JSON: '',
      CO_FILES: '',
      COPILOT_ONBOARD_REPOSITORY_NAME: 'acme/repo',
      ...env,
    },
  });
  const outputs = Object.fromEntries(
    fs
      .readFileSync(files.GITHUB_OUTPUT, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { r, outputs, summary: fs.readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'), temp };
}

test('the action’s script: the findings in the log, the summary in markdown, SARIF and JSON written, the exit code kept for the last step', (t) => {
  const messy = sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS });
  const json = path.join(tempDir(t), 'check.json');
  const { r, outputs, summary } = runAction(t, { CO_REPO: messy, CO_JSON: json });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^contradiction \[/m, 'the log shows the findings');
  assert.equal(outputs['exit-code'], '1');
  assert.match(summary, /^## copilot-onboard check: ❌ failed/m);
  assert.equal(JSON.parse(fs.readFileSync(outputs['sarif-file']!, 'utf8')).version, '2.1.0');
  assert.equal(JSON.parse(fs.readFileSync(json, 'utf8')).repository, 'acme/repo');

  const clean = sandbox(t, { '.github/copilot-instructions.md': STRUCTURED_INSTRUCTIONS });
  const ok = runAction(t, { CO_REPO: clean });
  assert.equal(ok.outputs['exit-code'], '0');

  // Fleet mode over the two results and one that never came.
  const cleanJson = path.join(tempDir(t), 'clean.json');
  runAction(t, { CO_REPO: clean, CO_JSON: cleanJson, COPILOT_ONBOARD_REPOSITORY_NAME: 'acme/clean' });
  const fleet = runAction(t, { CO_MODE: 'fleet', CO_FILES: `${json}\n${cleanJson}\nresults/gone/check.json\n` });
  assert.equal(fleet.outputs['exit-code'], '1', 'a missing result fails the fleet job');
  assert.match(fleet.summary, /^\| ` acme\/repo ` \| ❌ failed/m);
  assert.match(fleet.summary, /\*\*missing\*\*: ` results\/gone\/check\.json does not exist `/);
  const merged = JSON.parse(fs.readFileSync(path.join(fleet.temp, 'copilot-onboard-fleet.json'), 'utf8'));
  assert.equal(merged.repositories, 3);
});

test('the org workflow names each artifact after its repository, and the fleet job expects one result per repository', (t) => {
  const org = load('examples/org-check.yml');
  const name = org.jobs.check.steps.find((s: any) => s.id === 'name').run;
  const list = org.jobs.fleet.steps.find((s: any) => s.id === 'files').run;
  const temp = tempDir(t);
  const out = path.join(temp, 'out');
  fs.writeFileSync(out, '');
  const a = spawnSync('bash', ['-e', '-c', name], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, GITHUB_OUTPUT: out, REPOSITORY: 'acme/web' },
  });
  assert.equal(a.status, 0, a.stderr);
  assert.equal(fs.readFileSync(out, 'utf8'), 'artifact=copilot-onboard-acme__web\n');
  fs.writeFileSync(out, '');
  const b = spawnSync('bash', ['-e', '-c', list], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, GITHUB_OUTPUT: out, REPOSITORIES: '["acme/web", "acme/api"]' },
  });
  assert.equal(b.status, 0, b.stderr);
  assert.equal(
    fs.readFileSync(out, 'utf8'),
    'list<<END_OF_FILES\nresults/copilot-onboard-acme__web/check.json\nresults/copilot-onboard-acme__api/check.json\nEND_OF_FILES\n',
  );
});
