// npm run quality (fidelity part, issue 40): what a reviewer of a migration pull request would catch at
// once, counted on every corpus repository (../shared/corpus) and every judged structure fixture
// (tests/fixtures/judged-structure), each planned in process on a copy in a temp dir under the default
// choices: links of moved text that resolved where they were written and no longer lead to the same
// repository path, lines of an existing Copilot file moved, managed blocks changed, headings left
// empty; and `@path` references and `./`/`../` code-span paths the same way as links. Each must be 0. `--list` prints every case found.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scanRepository } from '../server/src/analysis/discovery/scan.js';
import { buildPlan } from '../server/src/planning/plan.js';
import { CORPUS, corpusRepos } from '../tests/helpers/corpus.js';
import { fidelity, type Fidelity } from '../tests/helpers/fidelity.js';

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
let defects = 0;
for (const [set, names, base] of sets) {
  const all: Fidelity = {
    resolvedBefore: 0,
    brokenLinks: [],
    referencesBefore: 0,
    brokenReferences: [],
    folderPathsShifted: [],
    copilotMoved: [],
    blocksChanged: [],
    emptyHeadings: [],
  };
  for (const n of names) {
    const f = await measure(path.join(base, n), n);
    all.resolvedBefore += f.resolvedBefore;
    all.brokenLinks.push(...f.brokenLinks);
    all.referencesBefore += f.referencesBefore;
    all.brokenReferences.push(...f.brokenReferences);
    all.folderPathsShifted.push(...f.folderPathsShifted);
    all.copilotMoved.push(...f.copilotMoved);
    all.blocksChanged.push(...f.blocksChanged);
    all.emptyHeadings.push(...f.emptyHeadings);
  }
  const cases = [
    ...all.brokenLinks,
    ...all.brokenReferences,
    ...all.folderPathsShifted,
    ...all.copilotMoved,
    ...all.blocksChanged,
    ...all.emptyHeadings,
  ];
  defects += cases.length;
  console.log(`fidelity, ${set}: ${names.length} repositories (each "after", "moved", "changed" and "empty" count must be 0)`);
  console.log(`  links of moved text that resolved before  ${all.resolvedBefore}`);
  console.log(`  of them, leading elsewhere after          ${all.brokenLinks.length}`);
  console.log(`  @path and ./ code-span paths, resolved before ${all.referencesBefore}`);
  console.log(`  of them, leading elsewhere after          ${all.brokenReferences.length}`);
  console.log(`  ./ ../ paths not in the repo, naming another ${all.folderPathsShifted.length}`);
  console.log(`  existing Copilot lines moved              ${all.copilotMoved.length}`);
  console.log(`  managed blocks changed                    ${all.blocksChanged.length}`);
  console.log(`  empty headings                            ${all.emptyHeadings.length}`);
  if (list) for (const c of cases) console.log(`    ${c}`);
}
process.exitCode = defects > 0 ? 1 : 0;
