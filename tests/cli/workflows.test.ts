import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
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
/**
 * The commit each action is pinned to, and the release it is (issue 37: a tag can be moved, a
 * commit cannot). Looked up from each project's releases; the comment after `uses:` says the version.
 */
const PINS: Record<string, { commit: string; version: string }> = {
  'actions/checkout': { commit: '8e8c483db84b4bee98b60c0593521ed34d9990e8', version: 'v6.0.1' },
  'actions/setup-node': { commit: '2028fbc5c25fe9cf00d9f06a71cc4710d4507903', version: 'v6.0.0' },
  'actions/upload-artifact': { commit: 'bbbca2ddaa5d8feaa63e36b76fdaad77386f024f', version: 'v7.0.0' },
  'actions/download-artifact': { commit: '70fc10c6e5e1ce46ad2ea6f2b72d43f7d47b13c3', version: 'v8.0.0' },
  'github/codeql-action/upload-sarif': { commit: 'f443b600d91635bebf5b0d9ebc620189c0d6fba5', version: 'v4.30.8' },
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

/** What a step uses is pinned to a full commit sha: ours to the one the reader fills in, the others to the commit of a known release. */
function checkUses(rel: string, uses: string): void {
  const [name, ref] = uses.split('@') as [string, string | undefined];
  assert.ok(ref, `${rel}: ${uses} names no version`);
  assert.match(ref, /^[0-9a-f]{40}$/, `${rel}: ${uses} is not pinned to a commit`);
  if (!name.endsWith('/copilot-onboard')) assert.equal(ref, PINS[name]?.commit, `${rel}: ${uses} is not the pinned commit of ${name}`);
}

/** Every `uses:` line of the file, as written: a commit, then its version in a comment (YAML drops comments, so the text is read). */
function checkPinComments(rel: string): void {
  const lines = fs
    .readFileSync(path.join(ROOT, rel), 'utf8')
    .split('\n')
    .filter((l) => /^\s*(- )?uses:/.test(l));
  assert.ok(lines.length > 0, rel);
  for (const line of lines) {
    const m = /uses: ([^@\s]+)@([0-9a-f]{40}) # (\S+)/.exec(line);
    assert.ok(m, `${rel}: ${line.trim()} has no commit and version comment`);
    if (!m[1]!.endsWith('/copilot-onboard')) assert.equal(m[3], PINS[m[1]!]!.version, `${rel}: ${line.trim()}`);
  }
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
  checkPinComments('action.yml');
  const build = steps.find((s) => typeof s.run === 'string' && s.run.includes('npm ci'));
  assert.equal(build['working-directory'], '${{ github.action_path }}');
  // No install script runs (esbuild's binary is an optional dependency; its script only checks it).
  assert.match(build.run, /npm ci --ignore-scripts[^\n]*\nnpm run build/);
  for (const s of steps)
    if (typeof s.run === 'string')
      assert.doesNotMatch(s.run, /npm (ci|install|i|prune)(?![^\n]*--ignore-scripts)/, 'every npm install step skips scripts');
  const run = steps.find((s) => s.id === 'run');
  assert.match(run.run, /--format markdown >> "\$GITHUB_STEP_SUMMARY"/);
  const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'));
  assert.match(upload.if, /inputs\.upload-sarif == 'true'/);
  assert.match(upload.if, /steps\.run\.outputs\.sarif-file != ''/, 'no SARIF is uploaded when check could not run');
  assert.equal(upload.with.checkout_path, '${{ steps.run.outputs.checkout-path }}');
  // The tool runs with the Node the action set up, by its absolute path: no bare `node` or `npm` after setup-node.
  for (const s of steps.filter((x) => typeof x.run === 'string' && x.id !== 'before' && x.id !== 'node'))
    for (const line of s.run.split('\n')) assert.doesNotMatch(line, /(^|[\s;&|(])(node|npx) /, `${s.name}: ${line}`);
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
    checkPinComments(rel);
  }
  const org = load('examples/org-check.yml');
  assert.ok(org.on.workflow_call, 'a reusable workflow');
  for (const input of ['repositories', 'organization', 'topic']) assert.equal(org.on.workflow_call.inputs[input].type, 'string');
  assert.match(String(org.jobs.check.strategy['max-parallel']), /inputs\.max-parallel/);
  assert.equal(org.on.workflow_call.inputs['max-parallel'].type, 'number');
  assert.equal(org.jobs.check.strategy['fail-fast'], false);
  assert.equal(org.jobs.check.strategy.matrix.include, '${{ fromJSON(needs.plan.outputs.matrix) }}');
  assert.deepEqual(org.jobs.fleet.needs, ['plan', 'check']);
  assert.equal(org.jobs.fleet.if, "always() && needs.plan.result == 'success'");
  assert.ok(org.jobs.fleet.steps.some((s: any) => s.with?.mode === 'fleet'));
  // Built once: the plan job builds and uploads the tool; every other job downloads it and passes it as tool, and builds nothing.
  assert.ok(org.jobs.plan.steps.some((s: any) => s.with?.mode === 'build'));
  for (const id of ['check', 'fleet']) {
    const ours = org.jobs[id].steps.filter((s: any) => s.uses?.includes('/copilot-onboard@'));
    assert.ok(ours.length > 0 && ours.every((s: any) => /copilot-onboard-tool\.tgz$/.test(s.with.tool)), id);
    assert.ok(
      org.jobs[id].steps.some((s: any) => s.uses?.startsWith('actions/download-artifact') && s.with.name === 'copilot-onboard-tool'),
      id,
    );
  }
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
  // As the runner runs a step whose shell is bash: the script in a file, `bash --noprofile --norc -eo pipefail FILE`.
  const script = path.join(temp, 'step.sh');
  fs.writeFileSync(script, step.run);
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    encoding: 'utf8',
    cwd: env.CWD ?? temp,
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? temp,
      ...files,
      CO_NODE: process.execPath,
      CO_CLI: CLI,
      CO_ACTION: ROOT,
      CO_MODE: 'check',
      CO_REPO: '.',
      CO_FAIL_ON: 'contradiction',
      CO_BASELINE: '',
      CO_SUMMARY: 'true',
      CO_TRACES: 'false',
      CO_JSON: '',
      CO_FILES: '',
      CO_RESULTS: '',
      CO_REPOSITORIES: '',
      CO_REPOSITORIES_FILE: '',
      CO_ORGANIZATION: '',
      CO_TOPIC: '',
      CO_BATCH_SIZE: '50',
      CO_PARALLEL: '4',
      CO_TOKEN: '',
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

/** A step of action.yml (by id) or of a workflow job, run as the runner runs a bash step, with GITHUB_OUTPUT, GITHUB_PATH and GITHUB_STEP_SUMMARY files. */
function runStep(t: Parameters<typeof tempDir>[0], script: string, env: Record<string, string>, cwd?: string) {
  const temp = tempDir(t);
  const files = {
    GITHUB_OUTPUT: path.join(temp, 'output'),
    GITHUB_PATH: path.join(temp, 'path'),
    GITHUB_STEP_SUMMARY: path.join(temp, 'summary'),
    RUNNER_TEMP: temp,
  };
  for (const f of [files.GITHUB_OUTPUT, files.GITHUB_PATH, files.GITHUB_STEP_SUMMARY]) fs.writeFileSync(f, '');
  fs.writeFileSync(path.join(temp, 'step.sh'), script);
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', path.join(temp, 'step.sh')], {
    encoding: 'utf8',
    cwd: cwd ?? temp,
    env: { HOME: process.env.HOME ?? temp, PATH: process.env.PATH!, ...files, ...env },
  });
  const read = (f: string) => fs.readFileSync(f, 'utf8');
  const outputs = Object.fromEntries(
    read(files.GITHUB_OUTPUT)
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { r, outputs, path: read(files.GITHUB_PATH), summary: read(files.GITHUB_STEP_SUMMARY), temp };
}

const actionStep = (id: string) => load('action.yml').runs.steps.find((s: any) => s.id === id || s.name?.startsWith(id));

test('exit 2 (a bad input): no SARIF to upload, the summary says what went wrong, and the job’s last error names the cause and the input', (t) => {
  const repo = sandbox(t, { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS });
  const bad = runAction(t, { CO_REPO: repo, CO_BASELINE: 'no-such-baseline.json' });
  assert.equal(bad.r.status, 0, bad.r.stderr);
  assert.equal(bad.outputs['exit-code'], '2');
  assert.equal(bad.outputs['sarif-file'], undefined, 'no SARIF file: the upload step does not run');
  assert.equal(fs.existsSync(path.join(bad.temp, 'copilot-onboard.sarif')), false);
  assert.match(bad.summary, /^## copilot-onboard check: could not run$/m);
  assert.match(bad.summary, /The input `baseline` is the cause/);
  assert.match(bad.summary, /--baseline no-such-baseline\.json does not exist/);
  assert.equal(
    bad.outputs.cause,
    'copilot-onboard check could not run (exit 2): --baseline no-such-baseline.json does not exist. Check the input `baseline`.',
  );
  // The last step: its error is the cause, and the job fails with the tool's code.
  const fail = actionStep('Fail when');
  const last = runStep(t, fail.run, { CODE: '2', CAUSE: bad.outputs.cause!, CO_MODE: 'check' });
  assert.equal(last.r.status, 2);
  assert.equal(
    last.r.stdout,
    '::error title=copilot-onboard::copilot-onboard check could not run (exit 2): --baseline no-such-baseline.json does not exist. Check the input `baseline`.\n',
  );
  // Other inputs are named too.
  assert.match(runAction(t, { CO_REPO: repo, CO_FAIL_ON: 'sometimes' }).outputs.cause!, /Check the input `fail-on`\.$/);
  assert.match(runAction(t, { CO_REPO: path.join(repo, 'nowhere') }).outputs.cause!, /Check the input `repo`\.$/);
  // A finding (exit 1) is not a failure to run: SARIF written, no cause, the usual last error.
  const found = runAction(t, { CO_REPO: repo });
  assert.equal(found.outputs['exit-code'], '1');
  assert.ok(found.outputs['sarif-file']);
  assert.equal(found.outputs.cause, undefined);
  const red = runStep(t, fail.run, { CODE: '1', CAUSE: '', CO_MODE: 'check' });
  assert.match(red.r.stdout, /^::error title=copilot-onboard::copilot-onboard check exited 1 \(see the findings/);
  // A % in a cause cannot end the runner's command early.
  assert.match(runStep(t, fail.run, { CODE: '2', CAUSE: '100% %0A', CO_MODE: 'check' }).r.stdout, /::100%25 %250A\n$/);
});

test('the action runs the tool with the Node it set up, by its path, and puts the job’s own Node first on the PATH again', (t) => {
  const own = tempDir(t);
  const setUp = tempDir(t);
  for (const dir of [own, setUp]) {
    fs.writeFileSync(path.join(dir, 'node'), '#!/bin/sh\necho "$0"\n', { mode: 0o755 });
  }
  const before = runStep(t, actionStep('before').run, { PATH: `${own}:${process.env.PATH}` });
  assert.equal(before.outputs['node-dir'], own);
  // setup-node then puts its Node first; the next step records it by path and gives the job its own back.
  const node = runStep(t, actionStep('node').run, { PATH: `${setUp}:${own}:${process.env.PATH}`, BEFORE: own });
  assert.equal(node.r.status, 0, node.r.stderr);
  assert.equal(node.outputs.node, path.join(setUp, 'node'));
  assert.equal(node.path, `${own}\n`, 'the job’s own Node is first again for the steps after the action');
  // A job without a Node of its own keeps the one set up; one whose Node is the same is left alone.
  assert.equal(runStep(t, actionStep('node').run, { PATH: `${setUp}:${process.env.PATH}`, BEFORE: '' }).path, '');
  assert.equal(runStep(t, actionStep('node').run, { PATH: `${setUp}:${process.env.PATH}`, BEFORE: setUp }).path, '');
});

test('SARIF for a repo folder inside the checkout: URIs from the checkout’s root, and upload-sarif told where the checkout is', (t) => {
  const top = sandbox(t, { 'README.md': '# Monorepo\n' });
  const pkg = path.join(top, 'packages/web app');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'AGENTS.md'), '# Agents\n\n- Use pnpm to install dependencies.\n');
  fs.writeFileSync(path.join(pkg, 'CLAUDE.md'), '# Claude\n\n- Use npm to install dependencies.\n');
  const sub = runAction(t, { CO_REPO: 'packages/web app', CWD: top });
  assert.equal(sub.r.status, 0, sub.r.stderr);
  assert.equal(sub.outputs['checkout-path'], fs.realpathSync(top));
  const sarif = JSON.parse(fs.readFileSync(sub.outputs['sarif-file']!, 'utf8'));
  const uris = sarif.runs[0].results.flatMap((r: any) =>
    [...r.locations, ...(r.relatedLocations ?? [])].map((l: any) => l.physicalLocation.artifactLocation.uri),
  );
  assert.ok(uris.length > 0);
  for (const uri of uris) {
    assert.match(uri, /^packages\/web%20app\/(AGENTS|CLAUDE)\.md$/);
    assert.ok(fs.existsSync(path.join(top, decodeURI(uri))), uri);
  }
  // At the checkout's root nothing changes.
  const root = runAction(t, { CO_REPO: '.', CWD: pkg });
  assert.equal(root.outputs['checkout-path'], fs.realpathSync(top));
  const rootUris = JSON.parse(fs.readFileSync(root.outputs['sarif-file']!, 'utf8')).runs[0].results[0].locations[0].physicalLocation
    .artifactLocation.uri;
  assert.match(rootUris, /^packages\/web%20app\//, 'a repo of . inside a subfolder is still that subfolder of the checkout');
});

const names = (n: number, owner = 'acme') => Array.from({ length: n }, (_, i) => `${owner}/repo-${String(i).padStart(5, '0')}`);

test('plan-batches: any number of repositories in batches that fit one matrix (at most 256 jobs), each listed once', (t) => {
  const plan = (env: Record<string, string>) => runAction(t, { CO_MODE: 'plan-batches', CO_CLI: '', ...env });
  const thousand = plan({ CO_REPOSITORIES: JSON.stringify(names(1000)) });
  assert.equal(thousand.r.status, 0, thousand.r.stdout + thousand.r.stderr);
  const matrix = JSON.parse(thousand.outputs.matrix!);
  assert.equal(matrix.length, 20);
  assert.ok(matrix.every((m: any, i: number) => m.batch === i + 1 && m.of === 20 && m.repositories.length === 50));
  assert.deepEqual(
    matrix.flatMap((m: any) => m.repositories),
    names(1000),
  );
  assert.deepEqual(JSON.parse(thousand.outputs.repositories!), names(1000));
  assert.equal(thousand.outputs.count, '1000');
  assert.deepEqual(JSON.parse(fs.readFileSync(thousand.outputs['plan-file']!, 'utf8')), names(1000));

  // Past 256 jobs the batches grow instead, and stay balanced (sizes differ by one at most).
  // (Short names: an input reaches the step as an environment variable, at most 128 KiB on Linux.)
  const many = plan({ CO_REPOSITORIES: Array.from({ length: 10_001 }, (_, i) => `a/${i}`).join('\n'), CO_BATCH_SIZE: '1' });
  const big = JSON.parse(many.outputs.matrix!);
  assert.equal(big.length, 256);
  const sizes = big.map((m: any) => m.repositories.length);
  assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, String(sizes));
  assert.equal(
    sizes.reduce((a: number, b: number) => a + b, 0),
    10_001,
  );
  // A list of lines: comments and blanks skipped, a name given twice checked once.
  const lines = plan({ CO_REPOSITORIES: '# ours\nacme/web\n\nacme/api  # the API\nACME/web\n' });
  assert.deepEqual(JSON.parse(lines.outputs.repositories!), ['acme/api', 'acme/web']);
  // What is not OWNER/NAME never reaches a URL or a folder: exit 2 with the runner's error line.
  for (const bad of ['["acme/../etc"]', 'acme/web\n../x', '["a/b", 3]', '']) {
    const r = plan({ CO_REPOSITORIES: bad });
    assert.equal(r.r.status, 2, bad);
    assert.match(r.r.stdout, /^::error title=copilot-onboard plan-batches::(repositories|Unexpected|repositories or organization)/m, bad);
  }
  assert.equal(plan({ CO_REPOSITORIES: 'acme/web', CO_BATCH_SIZE: '0' }).r.status, 2);
});

test('plan-batches with an organisation and a topic: every page of the organisation’s repositories, archived ones and other topics left out', async (t) => {
  const { createServer } = await import('node:http');
  const repos = Array.from({ length: 230 }, (_, i) => ({
    full_name: `acme/svc-${String(i).padStart(3, '0')}`,
    archived: i % 50 === 7,
    disabled: false,
    topics: i % 3 === 0 ? ['copilot', 'web'] : ['web'],
  }));
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.url} ${req.headers.authorization ?? ''}`);
    const url = new URL(req.url!, 'http://x');
    if (url.pathname !== '/orgs/acme/repos') {
      res.writeHead(404).end('{"message":"Not Found"}');
      return;
    }
    const page = Number(url.searchParams.get('page'));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(repos.slice((page - 1) * 100, page * 100)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const api = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  // The step is run asynchronously here: the server answers in this process.
  const { spawn } = await import('node:child_process');
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number; out: string; output: string }>((resolve) => {
      const temp = tempDir(t);
      const output = path.join(temp, 'output');
      fs.writeFileSync(output, '');
      const child = spawn(process.execPath, [path.join(ROOT, 'scripts/action/batches.mjs')], {
        env: { PATH: process.env.PATH!, GITHUB_OUTPUT: output, GITHUB_API_URL: api, ...env },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('close', (code) => resolve({ code: code ?? -1, out, output: fs.readFileSync(output, 'utf8') }));
    });
  const r = await run({ CO_ORGANIZATION: 'acme', CO_TOPIC: 'copilot', CO_TOKEN: 'sekrit' });
  assert.equal(r.code, 0, r.out);
  const listed = JSON.parse(/^repositories=(.*)$/m.exec(r.output)![1]!);
  const expected = repos.filter((x) => !x.archived && x.topics.includes('copilot')).map((x) => x.full_name);
  assert.deepEqual(listed, expected);
  assert.deepEqual(
    seen.map((s) => s.replace(/ .*/, '')),
    [1, 2, 3].map((p) => `/orgs/acme/repos?type=all&per_page=100&page=${p}`),
  );
  assert.ok(seen.every((s) => s.endsWith('Bearer sekrit')));
  const none = await run({ CO_ORGANIZATION: 'nobody' });
  assert.equal(none.code, 2);
  assert.match(none.out, /::error title=copilot-onboard plan-batches::organization nobody: GET .* answered 404/);
});

test('check-batch, one job as GitHub runs it: real clones of real repositories with the tool built once, a repository that cannot be cloned says why', (t) => {
  const server = tempDir(t);
  const make = (name: string, files: Record<string, string>) => {
    const built = sandbox(t, files);
    execFileSync('git', ['-C', built, 'add', '-A']);
    execFileSync('git', ['-C', built, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x']);
    fs.mkdirSync(path.join(server, 'acme'), { recursive: true });
    execFileSync('git', ['clone', '-q', '--bare', built, path.join(server, `${name}.git`)]);
  };
  make('acme/messy', { '.github/copilot-instructions.md': MESSY_INSTRUCTIONS });
  make('acme/clean', { '.github/copilot-instructions.md': STRUCTURED_INSTRUCTIONS });
  const results = path.join(tempDir(t), 'results');
  const job = runAction(t, {
    CO_MODE: 'check-batch',
    CO_REPOSITORIES: JSON.stringify(['acme/messy', 'acme/clean', 'acme/gone']),
    CO_RESULTS: results,
    CO_PARALLEL: '2',
    CO_TOKEN: 'sekrit',
    GITHUB_SERVER_URL: `file://${server}`,
  });
  assert.equal(job.r.status, 0, job.r.stdout + job.r.stderr);
  assert.match(job.r.stdout, /^3 repositories: 2 checked \(1 failed their check\), 1 could not be checked/m);
  assert.equal(JSON.parse(fs.readFileSync(path.join(results, 'acme__messy/check.json'), 'utf8')).repository, 'acme/messy');
  assert.equal(JSON.parse(fs.readFileSync(path.join(results, 'acme__clean/check.json'), 'utf8')).failed, false);
  assert.equal(fs.existsSync(path.join(results, 'acme__gone/check.json')), false);
  assert.match(fs.readFileSync(path.join(results, 'acme__gone/error.txt'), 'utf8'), /^could not clone \(git exited 128\): /);
  assert.match(job.summary, /^## copilot-onboard batch/m);
  assert.doesNotMatch(job.r.stdout + job.summary + fs.readFileSync(path.join(results, 'acme__gone/error.txt'), 'utf8'), /sekrit|c2Vrcml0/);
  // The clones are gone: the job keeps only the results.
  assert.deepEqual(
    fs.readdirSync(job.temp).filter((f) => f.startsWith('copilot-onboard-batch-')),
    [],
  );
});

/**
 * What GitHub does between jobs, for the simulation: upload-artifact with overwrite (the latest
 * attempt's upload replaces the artifact of that name) and download-artifact with a pattern and
 * merge-multiple (every matching artifact's files into one folder).
 */
function artifactStore(root: string) {
  return {
    upload(name: string, from: string) {
      const at = path.join(root, name);
      fs.rmSync(at, { recursive: true, force: true });
      fs.cpSync(from, at, { recursive: true });
    },
    downloadMerged(prefix: string, to: string) {
      fs.mkdirSync(to, { recursive: true });
      for (const name of fs.readdirSync(root).filter((n) => n.startsWith(prefix)))
        fs.cpSync(path.join(root, name), to, { recursive: true });
    },
  };
}

test('a simulated run over 1,000 repositories: plan, 20 batch jobs, a job that died and its re-run, and fleet merges every result with the right totals', async (t) => {
  const { checkBatch } = await import('../../scripts/action/check-batch.mjs');
  const org = load('examples/org-check.yml');
  const all = names(1000);
  // The plan job's step, as GitHub runs it.
  const plan = runAction(t, {
    CO_MODE: 'plan-batches',
    CO_CLI: '',
    CO_REPOSITORIES: JSON.stringify(all),
    CO_BATCH_SIZE: String(org.on.workflow_call.inputs['batch-size'].default),
  });
  assert.equal(plan.r.status, 0, plan.r.stdout);
  const matrix: { batch: number; of: number; repositories: string[] }[] = JSON.parse(plan.outputs.matrix!);
  assert.ok(matrix.length <= 256);

  // Each repository's stand-in: a clone that fails for some, and a check result whose counts depend on the name.
  const index = (r: string) => Number(r.slice(-5));
  const unreachable = (r: string) => index(r) % 97 === 5;
  const findingsOf = (r: string) =>
    Array.from({ length: index(r) % 4 }, (_, k) => ({
      rule: k === 0 ? 'contradiction' : 'duplicate',
      certainty: k === 0 ? 'high' : 'medium',
    }));
  const work = (dead: Set<string>) => ({
    clone: async (r: string) =>
      unreachable(r) || dead.has(r) ? { code: 128, said: `fatal: repository '${r}' not found` } : { code: 0, said: '' },
    check: async (r: string, _dir: string, out: string) => {
      const findings = findingsOf(r);
      const failed = findings.some((f) => f.rule === 'contradiction');
      const counts = {
        contradiction: failed ? 1 : 0,
        duplicate: Math.max(0, findings.length - 1),
        drift: 0,
        'would-change': 0,
        ambiguity: 0,
      };
      fs.writeFileSync(
        out,
        JSON.stringify({
          repository: r,
          tool: 'copilot-onboard',
          version: '0.1.0',
          files: index(r) % 7,
          failOn: 'contradiction',
          failed,
          counts,
          findings,
        }),
      );
      return { code: failed ? 1 : 0, said: '' };
    },
  });
  const artifacts = artifactStore(tempDir(t));
  const batchJob = async (m: (typeof matrix)[0], dead = new Set<string>()) => {
    const results = path.join(tempDir(t), 'results');
    const outcomes = await checkBatch(m.repositories, { parallel: 4, results, temp: tempDir(t), work: work(dead) });
    artifacts.upload(`copilot-onboard-batch-${m.batch}`, results);
    return outcomes;
  };
  // Attempt 1: batch 3's clones all fail (a network outage), batch 7's job dies before it uploads anything.
  for (const m of matrix) {
    if (m.batch === 7) continue;
    await batchJob(m, m.batch === 3 ? new Set(m.repositories) : new Set());
  }
  const fleetJob = () => {
    const results = path.join(tempDir(t), 'results');
    artifacts.downloadMerged('copilot-onboard-batch-', results);
    // The list comes as the plan job's file (handed over with the tool), as in the workflow.
    return runAction(t, { CO_MODE: 'fleet', CO_RESULTS: results, CO_REPOSITORIES_FILE: plan.outputs['plan-file']! });
  };
  const first = fleetJob();
  assert.equal(first.outputs['exit-code'], '1', 'results are missing');
  const firstReport = JSON.parse(fs.readFileSync(path.join(first.temp, 'copilot-onboard-fleet.json'), 'utf8'));
  assert.equal(firstReport.repositories, 1000, 'every repository is a row, found or not');
  const missingAtFirst = all.filter((r) => unreachable(r) || matrix[2]!.repositories.includes(r) || matrix[6]!.repositories.includes(r));
  assert.equal(firstReport.missing, missingAtFirst.length);
  assert.match(first.summary, new RegExp(`^## copilot-onboard: ${missingAtFirst.length} repositories not checked$`, 'm'));
  assert.match(
    first.summary,
    /`` acme\/repo-00100 ``: `` could not clone \(git exited 128\): fatal: repository 'acme\/repo-00100' not found ``/,
  );
  assert.match(first.summary, /`` acme\/repo-00300 ``: `` no result: its batch job did not finish/);

  // "Re-run failed jobs": batches 3 and 7 run again and upload under the same names (overwrite), and the fleet job reads the latest.
  await batchJob(matrix[2]!);
  await batchJob(matrix[6]!);
  const again = fleetJob();
  const report = JSON.parse(fs.readFileSync(path.join(again.temp, 'copilot-onboard-fleet.json'), 'utf8'));
  const reachable = all.filter((r) => !unreachable(r));
  assert.equal(report.repositories, 1000);
  assert.equal(report.read, reachable.length);
  assert.equal(report.missing, 1000 - reachable.length);
  assert.deepEqual(
    report.rows.filter((r: any) => r.status === 'missing').map((r: any) => r.file.split('/').at(-2)),
    all.filter(unreachable).map((r) => r.replace('/', '__')),
  );
  // The totals are the sum of the parts.
  const sum = (f: (r: string) => number) => reachable.reduce((n, r) => n + f(r), 0);
  assert.equal(
    report.totals.files,
    sum((r) => index(r) % 7),
  );
  assert.equal(
    report.totals.findings,
    sum((r) => findingsOf(r).length),
  );
  assert.equal(
    report.totals.contradictions.high,
    sum((r) => (findingsOf(r).length > 0 ? 1 : 0)),
  );
  assert.equal(
    report.totals.duplicates,
    sum((r) => Math.max(0, findingsOf(r).length - 1)),
  );
  assert.equal(
    report.failed,
    sum((r) => (findingsOf(r).length > 0 ? 1 : 0)),
  );
  assert.ok(Buffer.byteLength(again.summary) < 1024 * 1024);
  assert.match(
    again.summary,
    new RegExp(`^\\| \\*\\*total\\*\\* \\| ${report.failed} failed of ${reachable.length} \\| ${report.totals.files} \\|`, 'm'),
  );
});

test('re-runs: every upload in the org workflow overwrites its artifact, each job uploads under a name of its own, and the fleet job reads the batches by pattern', () => {
  const org = load('examples/org-check.yml');
  const uploads = Object.entries<any>(org.jobs).flatMap(([id, job]) =>
    job.steps.filter((s: any) => s.uses?.startsWith('actions/upload-artifact')).map((s: any) => ({ id, ...s })),
  );
  assert.equal(uploads.length, 3);
  for (const u of uploads) assert.equal(u.with.overwrite, true, `${u.id}: ${u.with.name}`);
  assert.deepEqual(
    uploads.map((u) => u.with.name),
    ['copilot-onboard-tool', 'copilot-onboard-batch-${{ matrix.batch }}', 'copilot-onboard-fleet'],
  );
  const download = org.jobs.fleet.steps.find((s: any) => s.with?.pattern);
  assert.equal(download.with.pattern, 'copilot-onboard-batch-*');
  assert.equal(download.with['merge-multiple'], true);
  assert.equal(org.jobs.check.steps.find((s: any) => s.uses?.startsWith('actions/upload-artifact')).if, 'always()');
});
