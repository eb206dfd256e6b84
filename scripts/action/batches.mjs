// The organisation workflow's first step (examples/org-check.yml, action.yml mode plan-batches): which
// repositories to check, split into batches that fit one matrix. A matrix holds at most 256 jobs, so a
// list of any length becomes at most 256 batches; each job checks its batch with bounded parallelism
// (scripts/action/check-batch.mjs). Run by the action exactly as tests/cli/workflows.test.ts runs it.
//
// Reads (environment): CO_REPOSITORIES (a JSON array or one OWNER/NAME a line), or CO_ORGANIZATION with
// an optional CO_TOPIC (listed through the REST API at GITHUB_API_URL with CO_TOKEN); CO_BATCH_SIZE
// (the smallest batch worth a job, default 50). Writes to GITHUB_OUTPUT: matrix (JSON, one entry per
// job: batch, of, repositories), repositories (JSON, every repository once, sorted), count, and
// plan-file (RUNNER_TEMP/copilot-onboard-plan.json, the same list, for the fleet job).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { failWith } from './fail.mjs';

/** GitHub's limit on the jobs one matrix makes. */
export const MAX_JOBS = 256;

/** OWNER/NAME as GitHub allows them: nothing else reaches a URL, a folder name or an artifact name. */
const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;

/** The repositories named: a JSON array, or one a line (blank lines and `#` comments skipped); each once, as first written. */
export function parseRepositories(text) {
  const trimmed = text.trim();
  let names;
  if (trimmed.startsWith('[')) {
    const parsed = JSON.parse(trimmed);
    if (!Array.isArray(parsed) || parsed.some((n) => typeof n !== 'string'))
      throw new Error('repositories: a JSON array of "OWNER/NAME" strings');
    names = parsed.map((n) => n.trim());
  } else {
    names = trimmed
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean);
  }
  const bad = names.filter((n) => !NAME.test(n) || n.endsWith('/.') || n.endsWith('/..'));
  if (bad.length > 0)
    throw new Error(
      `repositories: not OWNER/NAME: ${bad
        .slice(0, 5)
        .map((n) => JSON.stringify(n))
        .join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`,
    );
  const seen = new Set();
  return names.filter((n) => {
    const key = n.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The repositories in batches for one matrix: as few jobs as batches of `batchSize` make, never more
 * than `maxJobs` (the batches grow instead), and balanced, so that no job waits on one twice as long.
 */
export function splitIntoBatches(repositories, { batchSize = 50, maxJobs = MAX_JOBS } = {}) {
  if (repositories.length === 0) return [];
  const size = Math.max(1, Math.floor(batchSize));
  const jobs = Math.min(maxJobs, Math.ceil(repositories.length / size));
  const batches = [];
  let at = 0;
  for (let j = 0; j < jobs; j++) {
    const take = Math.floor(repositories.length / jobs) + (j < repositories.length % jobs ? 1 : 0);
    batches.push(repositories.slice(at, at + take));
    at += take;
  }
  return batches;
}

/** The repositories a step is given: the file named in CO_REPOSITORIES_FILE (a plan-file), else CO_REPOSITORIES. */
export function repositoriesFrom(env) {
  return parseRepositories(env.CO_REPOSITORIES_FILE ? fs.readFileSync(env.CO_REPOSITORIES_FILE, 'utf8') : (env.CO_REPOSITORIES ?? ''));
}

/** The matrix's include list: one entry per job. */
export function matrixOf(batches) {
  return batches.map((repositories, i) => ({ batch: i + 1, of: batches.length, repositories }));
}

/** An organisation's repositories (archived and disabled ones left out), with the topic when one is named: every page of GET /orgs/{org}/repos. */
export async function listOrganization(organization, topic, { apiUrl = 'https://api.github.com', token = '' } = {}) {
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(organization))
    throw new Error(`organization: not a GitHub organisation name: ${JSON.stringify(organization)}`);
  const names = [];
  for (let page = 1; ; page++) {
    const url = `${apiUrl.replace(/\/$/, '')}/orgs/${organization}/repos?type=all&per_page=100&page=${page}`;
    const response = await fetch(url, {
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    if (!response.ok) throw new Error(`organization ${organization}: GET ${url} answered ${response.status} ${response.statusText}`);
    const repos = await response.json();
    if (!Array.isArray(repos)) throw new Error(`organization ${organization}: GET ${url} did not answer a list`);
    for (const r of repos)
      if (!r.archived && !r.disabled && (!topic || (Array.isArray(r.topics) && r.topics.includes(topic)))) names.push(String(r.full_name));
    if (repos.length < 100) break;
  }
  return names;
}

/** One output line for GITHUB_OUTPUT; JSON from JSON.stringify holds no newline. */
function output(name, value) {
  if (process.env.GITHUB_OUTPUT) fs.appendFileSync(process.env.GITHUB_OUTPUT, `${name}=${value}\n`);
}

async function main() {
  const env = process.env;
  const listed = (env.CO_REPOSITORIES ?? '').trim();
  const organization = (env.CO_ORGANIZATION ?? '').trim();
  if (!listed && !organization)
    throw new Error('repositories or organization: name the repositories to check, or an organisation (and a topic)');
  let repositories = listed ? parseRepositories(listed) : [];
  if (organization) {
    const found = await listOrganization(organization, (env.CO_TOPIC ?? '').trim(), { apiUrl: env.GITHUB_API_URL, token: env.CO_TOKEN });
    repositories = parseRepositories(JSON.stringify([...repositories, ...found]));
  }
  repositories.sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
  const batchSize = Number(env.CO_BATCH_SIZE || 50);
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error(`batch-size: a whole number from 1, not ${JSON.stringify(env.CO_BATCH_SIZE)}`);
  const batches = splitIntoBatches(repositories, { batchSize });
  output('matrix', JSON.stringify(matrixOf(batches)));
  output('repositories', JSON.stringify(repositories));
  // The whole list also as a file, for the fleet job: an input reaches a step as an environment
  // variable, and Linux takes at most 128 KiB in one (about 4,000 names).
  if (env.RUNNER_TEMP) {
    const file = path.join(env.RUNNER_TEMP, 'copilot-onboard-plan.json');
    fs.writeFileSync(file, `${JSON.stringify(repositories)}\n`);
    output('plan-file', file);
  }
  output('count', String(repositories.length));
  const line = `${repositories.length} repositor${repositories.length === 1 ? 'y' : 'ies'} in ${batches.length} batch${batches.length === 1 ? '' : 'es'} of ${batches.length ? Math.min(...batches.map((b) => b.length)) : 0} to ${batches.length ? Math.max(...batches.map((b) => b.length)) : 0}`;
  console.log(line);
  if (repositories.length === 0)
    throw new Error(
      organization
        ? `organization ${organization}: no repository${env.CO_TOPIC ? ` with the topic ${env.CO_TOPIC}` : ''} to check`
        : 'repositories: the list is empty',
    );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    failWith('copilot-onboard plan-batches', err);
  });
}
