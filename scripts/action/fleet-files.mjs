// The organisation workflow's last job (action.yml mode fleet with `results`): the result file each
// repository should have left, one a line on stdout, for `copilot-onboard fleet`, which lists a
// missing one as missing. A repository whose batch said why it could not be checked (error.txt) is
// listed with that reason in the job summary, above fleet's table.
//
// Reads (environment): CO_RESULTS (the folder the batch artifacts were downloaded into, merged),
// CO_REPOSITORIES_FILE (plan-batches' plan-file) or CO_REPOSITORIES (a JSON array), GITHUB_STEP_SUMMARY.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { failWith } from './fail.mjs';
import { repositoriesFrom } from './batches.mjs';
import { resultFolder } from './check-batch.mjs';

/** How many reasons the summary lists in full (the rest are counted; the table lists them all as missing). */
const LISTED = 100;

export function expectedFiles(results, repositories) {
  return repositories.map((r) => path.join(results, resultFolder(r), 'check.json'));
}

/** The reasons batches gave, by repository, for those without a result. */
export function reasons(results, repositories) {
  const out = [];
  for (const r of repositories) {
    const folder = path.join(results, resultFolder(r));
    if (fs.existsSync(path.join(folder, 'check.json'))) continue;
    let why = 'no result: its batch job did not finish (see that job)';
    try {
      why = fs.readFileSync(path.join(folder, 'error.txt'), 'utf8').trim().slice(0, 500) || why;
    } catch {
      // no error.txt: the batch never got to this repository, or its artifact never came
    }
    out.push({ repository: r, why });
  }
  return out;
}

function main() {
  const env = process.env;
  const repositories = repositoriesFrom(env);
  const results = env.CO_RESULTS || 'results';
  for (const f of expectedFiles(results, repositories)) process.stdout.write(`${f}\n`);
  const missing = reasons(results, repositories);
  if (missing.length > 0 && env.GITHUB_STEP_SUMMARY) {
    const code = (s) => `\`\` ${s.replace(/[`\r\n]/g, "'")} \`\``;
    const lines = missing.slice(0, LISTED).map((m) => `- ${code(m.repository)}: ${code(m.why)}`);
    if (missing.length > LISTED) lines.push(`- and ${missing.length - LISTED} more (the table lists them all)`);
    fs.appendFileSync(
      env.GITHUB_STEP_SUMMARY,
      `## copilot-onboard: ${missing.length} repositor${missing.length === 1 ? 'y' : 'ies'} not checked\n\n${lines.join('\n')}\n\n`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    main();
  } catch (err) {
    failWith('copilot-onboard fleet', err);
  }
}
