// One matrix job of the organisation workflow (action.yml mode check-batch): checks its batch of
// repositories, a few at a time, with the tool built once for the whole run. For each repository:
// a shallow clone, `check --format json`, the clone removed. The result lands in
// CO_RESULTS/<OWNER>__<NAME>/check.json; a repository that could not be cloned or checked gets
// error.txt there instead, saying why, so the fleet job lists it with its reason, never drops it.
//
// Reads (environment): CO_REPOSITORIES (JSON array), CO_NODE and CO_CLI (the Node and the tool, by
// absolute path), CO_RESULTS, CO_FAIL_ON, CO_PARALLEL (default 4), CO_TOKEN (optional, to read
// private repositories), GITHUB_SERVER_URL, RUNNER_TEMP, GITHUB_STEP_SUMMARY; CO_GIT (default git).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { failWith } from './fail.mjs';
import { repositoriesFrom } from './batches.mjs';

/** The folder (and artifact part) of a repository's result: OWNER__NAME, as the fleet job expects it. */
export const resultFolder = (repository) => repository.replace('/', '__');

/** Runs `work` on every item, at most `parallel` at once, in order of the list. */
export async function pool(items, parallel, work) {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, async () => {
    for (let i = next++; i < items.length; i = next++) await work(items[i], i);
  });
  await Promise.all(workers);
}

/** A process's exit code and the last lines it wrote to stderr (said in one line); stdout to `out` when named. */
function run(cmd, args, { env, out }) {
  return new Promise((resolve) => {
    const fd = out ? fs.openSync(out, 'w') : 'ignore';
    const child = spawn(cmd, args, { env, stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-4000);
    });
    let finished = false;
    const done = (code) => {
      if (finished) return;
      finished = true;
      if (typeof fd === 'number') fs.closeSync(fd);
      const said = stderr.trim().split('\n').slice(-3).join(' ').replace(/\s+/g, ' ').slice(0, 500);
      resolve({ code, said });
    };
    child.on('error', (err) => {
      stderr += String(err.message);
      done(-1);
    });
    child.on('close', (code) => done(code ?? -1));
  });
}

/** Git's environment: no prompt, no LFS download, and the token (when given) as a header for this server only, never on a command line or in .git/config. */
function gitEnv(base, server, token) {
  const env = { ...base, GIT_TERMINAL_PROMPT: '0', GIT_LFS_SKIP_SMUDGE: '1' };
  if (token) {
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = `http.${server}/.extraheader`;
    env.GIT_CONFIG_VALUE_0 = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  }
  return env;
}

/** The real work for one repository, as the job does it: a shallow clone with git, and the tool's check, by absolute path. */
export function processes(o) {
  return {
    clone: (repository, dir) =>
      run(o.git, ['clone', '--quiet', '--depth', '1', '--no-tags', `${o.server}/${repository}.git`, dir], {
        env: gitEnv(o.env, o.server, o.token),
      }),
    check: (repository, dir, out) =>
      run(o.node, [o.cli, 'check', '--repo', dir, '--format', 'json', '--fail-on', o.failOn], {
        env: { ...o.env, COPILOT_ONBOARD_REPOSITORY_NAME: repository },
        out,
      }),
  };
}

/**
 * Checks one repository with `work` (clone and check, each answering { code, said }); returns what
 * became of it: passed or failed (check's exit 0 or 1, check.json written) or error (error.txt says why).
 */
export async function checkRepository(repository, { results, temp, work }) {
  const folder = path.join(results, resultFolder(repository));
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  const clone = path.join(temp, resultFolder(repository));
  fs.rmSync(clone, { recursive: true, force: true });
  const problem = (why) => {
    fs.writeFileSync(path.join(folder, 'error.txt'), `${why}\n`);
    return { repository, status: 'error', problem: why };
  };
  try {
    const cloned = await work.clone(repository, clone);
    if (cloned.code !== 0) return problem(`could not clone (git exited ${cloned.code}): ${cloned.said}`);
    const json = path.join(folder, 'check.json');
    const checked = await work.check(repository, clone, json);
    if (checked.code !== 0 && checked.code !== 1) {
      fs.rmSync(json, { force: true });
      return problem(`check exited ${checked.code}: ${checked.said}`);
    }
    return { repository, status: checked.code === 0 ? 'passed' : 'failed' };
  } catch (err) {
    return problem(`could not be checked: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    fs.rmSync(clone, { recursive: true, force: true });
  }
}

/** A batch, `parallel` repositories at a time: each one's outcome, in the batch's order. */
export async function checkBatch(repositories, { parallel, results, temp, work }) {
  const outcomes = new Array(repositories.length);
  await pool(repositories, parallel, async (repository, i) => {
    outcomes[i] = await checkRepository(repository, { results, temp, work });
  });
  return outcomes;
}

async function main() {
  const env = process.env;
  const repositories = repositoriesFrom(env);
  const parallel = Number(env.CO_PARALLEL || 4);
  if (!Number.isInteger(parallel) || parallel < 1)
    throw new Error(`parallel: a whole number from 1, not ${JSON.stringify(env.CO_PARALLEL)}`);
  if (!env.CO_RESULTS) throw new Error('results: the folder for the results is not named');
  const o = {
    node: env.CO_NODE || process.execPath,
    cli: env.CO_CLI,
    git: env.CO_GIT || 'git',
    failOn: env.CO_FAIL_ON || 'contradiction',
    server: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/$/, ''),
    token: env.CO_TOKEN || '',
    // The tool and git get the job's environment without the token.
    env: Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'CO_TOKEN' && k !== 'INPUT_TOKEN')),
  };
  if (!o.cli) throw new Error('tool: no copilot-onboard to run (CO_CLI)');
  const temp = fs.mkdtempSync(path.join(env.RUNNER_TEMP || os.tmpdir(), 'copilot-onboard-batch-'));
  const started = Date.now();
  const outcomes = await checkBatch(repositories, { parallel, results: path.resolve(env.CO_RESULTS), temp, work: processes(o) });
  fs.rmSync(temp, { recursive: true, force: true });
  const errors = outcomes.filter((x) => x.status === 'error');
  const failed = outcomes.filter((x) => x.status === 'failed').length;
  const line = `${repositories.length} repositories: ${repositories.length - errors.length} checked (${failed} failed their check), ${errors.length} could not be checked, in ${((Date.now() - started) / 1000).toFixed(1)} s, ${parallel} at a time`;
  console.log(line);
  for (const e of errors) console.log(`${e.repository}: ${e.problem}`);
  if (env.GITHUB_STEP_SUMMARY) {
    const code = (s) => `\`\` ${s.replace(/`/g, "'")} \`\``;
    fs.appendFileSync(
      env.GITHUB_STEP_SUMMARY,
      `## copilot-onboard batch\n\n${line}.\n${errors.map((e) => `\n- ${code(e.repository)}: ${code(e.problem)}`).join('')}\n`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    failWith('copilot-onboard check-batch', err);
  });
}
