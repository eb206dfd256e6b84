// npm run quality (fidelity part, issue 40): what a reviewer of a migration pull request would catch at
// once, counted on every corpus repository (../shared/corpus) and every judged structure fixture
// (tests/fixtures/judged-structure), each planned in process on a copy in a temp dir under the default
// choices: links of moved text that resolved where they were written and no longer lead to the same
// repository path, lines of an existing Copilot file moved, managed blocks changed, headings left
// empty, lines lost, exact duplicates written twice in one section, notes naming an instruction file
// the plan does not write. Each must be 0. Exact duplicates written again in another section are
// counted too, not as defects (a repeat stands in its own section's context). `--list` prints every case found.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../server/src/planning/plan.js';
import { CORPUS, corpusRepos } from '../tests/helpers/corpus.js';
import { fidelity, noPlanCases, type Fidelity } from '../tests/helpers/fidelity.js';

const list = process.argv.includes('--list');
const FIXTURES = path.resolve(import.meta.dirname, '../tests/fixtures/judged-structure');

async function measure(dir: string, name: string): Promise<Fidelity> {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'co-fidelity-'));
  try {
    execFileSync('cp', ['-a', `${dir}/.`, repo]);
    execFileSync('chmod', ['-R', 'u+w', repo]);
    fs.rmSync(path.join(repo, 'judgement.json'), { force: true });
    execFileSync('git', ['init', '-q', repo]);
    return fidelity(repo, buildPlan(await scanRepository(repo)), name);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

const sets: [string, string[], string][] = [];
if (fs.existsSync(path.join(CORPUS, 'MANIFEST.tsv'))) sets.push(['corpus', corpusRepos(), CORPUS]);
else console.log(`fidelity: corpus absent at ${CORPUS}; only the judged fixtures are measured`);
sets.push([
  'judged structure',
  fs
    .readdirSync(FIXTURES)
    .filter((n) => fs.statSync(path.join(FIXTURES, n)).isDirectory())
    .sort(),
  FIXTURES,
]);
const KEYS = ['brokenLinks', 'copilotMoved', 'blocksChanged', 'emptyHeadings', 'linesLost', 'writtenTwice', 'notesUnwritten'] as const;
let defects = 0;
for (const [set, names, base] of sets) {
  const all: Fidelity = { resolvedBefore: 0, brokenLinks: [], copilotMoved: [], blocksChanged: [], emptyHeadings: [], ...noPlanCases() };
  for (const n of names) {
    const f = await measure(path.join(base, n), n);
    all.resolvedBefore += f.resolvedBefore;
    for (const k of [...KEYS, 'repeatedElsewhere'] as const) all[k].push(...f[k]);
  }
  const cases = KEYS.flatMap((k) => all[k]);
  defects += cases.length;
  const repos = (list: string[]) => new Set(list.map((c) => c.slice(0, c.indexOf(':')))).size;
  const row = (label: string, list: string[]) => console.log(`  ${label.padEnd(58)}${list.length} (${repos(list)} repositories)`);
  console.log(`fidelity, ${set}: ${names.length} repositories (all but the first and the last must be 0)`);
  console.log(`  ${'links of moved text that resolved before'.padEnd(58)}${all.resolvedBefore}`);
  row('of them, leading elsewhere after', all.brokenLinks);
  row('existing Copilot lines moved', all.copilotMoved);
  row('managed blocks changed', all.blocksChanged);
  row('empty headings', all.emptyHeadings);
  row('lines lost (in no file, not named merged or dropped)', all.linesLost);
  row('exact duplicates written twice in one section', all.writtenTwice);
  row('notes naming an instruction file not written', all.notesUnwritten);
  row('exact duplicates written again in another section', all.repeatedElsewhere);
  if (list) for (const c of [...cases, ...all.repeatedElsewhere]) console.log(`    ${c}`);
}
process.exitCode = defects > 0 ? 1 : 0;
