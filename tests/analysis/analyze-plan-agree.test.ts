import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { analyze } from '../../server/src/analysis/analyze.js';
import { scanRepository } from '../../server/src/analysis/discovery/scan.js';
import { buildPlan, migratedTargets } from '../../server/src/planning/plan.js';
import { analysisReport, planReport } from '../../server/src/narrate/report.js';
import { showPath } from '../../server/src/show/untrusted.js';
import { CORPUS, corpusRepos, requireCorpus } from '../helpers/corpus.js';
import { sandbox } from '../helpers/sandbox.js';

/**
 * analyze and the plan agree about every file: each file analyze's report promises to Copilot after
 * the migration ("… will see its rules only after the migration") is one whose lines the plan writes
 * into Copilot's files (or merges into copies there), and no file the plan leaves out is promised.
 * The report is built as the analyze step builds it (steps/read-only.ts).
 */
const LATER = 'will see its rules only after the migration.';

/** The sources a report promises to Copilot after the migration. */
function promised(report: string, sources: { path: string; kind: string; bytes: number }[]): string[] {
  const lines = report.split('\n');
  return sources
    .filter((s) => lines.find((l) => l.startsWith(`- ${showPath(s.path)} (${s.kind}, ${s.bytes} bytes): `))?.endsWith(LATER))
    .map((s) => s.path);
}

/** Where analyze's report (as the analyze step builds it) and propose's report promise a file the plan does not migrate. */
async function disagreements(root: string): Promise<string[]> {
  const scan = await scanRepository(root);
  const analysis = analyze(scan);
  const plan = buildPlan(scan, analysis);
  const targets = migratedTargets(scan);
  const reports = {
    analyze: analysisReport(analysis, targets),
    propose: planReport({ version: 1, createdAt: '2026-11-27T00:00:00.000Z', ...plan }, targets),
  };
  const migrated = new Set([...plan.provenance.map((p) => p.from.path), ...plan.merged.map((m) => m.path)]);
  const leftOut = new Set(plan.legacy.filter((l) => l.fates.includes('migrate')).map((l) => l.path));
  const found: string[] = [];
  for (const [step, report] of Object.entries(reports))
    for (const p of promised(report, analysis.sources)) {
      if (leftOut.has(p)) found.push(`${step} promises ${p} to Copilot; the plan leaves it out`);
      else if (!migrated.has(p)) found.push(`${step} promises ${p} to Copilot; the plan writes none of its lines`);
    }
  return found;
}

test('corpus: for every repository, analyze promises to Copilot exactly files the plan migrates', async (t) => {
  if (!requireCorpus(t)) return;
  const found: string[] = [];
  for (const repo of corpusRepos()) for (const d of await disagreements(path.join(CORPUS, repo))) found.push(`${repo}: ${d}`);
  assert.deepEqual(found, []);
});

test('Cline workflow files, which the plan does not migrate, are not promised to Copilot', async (t) => {
  const repo = sandbox(t, {
    '.clinerules/style.md': '# Style\n\n- Keep functions small.\n',
    '.clinerules/workflows/release.md': '# Release\n\n1. Bump the version.\n2. Tag the commit.\n',
  });
  const scan = await scanRepository(repo);
  const plan = buildPlan(scan, analyze(scan));
  assert.ok(!plan.provenance.some((p) => p.from.path === '.clinerules/workflows/release.md'));
  const report = analysisReport(analyze(scan), migratedTargets(scan));
  assert.match(report, /^- \.clinerules\/workflows\/release\.md \([^)]*\): no Copilot surface reads it today\.$/m);
  assert.match(
    report,
    /^- \.clinerules\/style\.md \([^)]*\): no Copilot surface reads it today; .* will see its rules only after the migration\.$/m,
  );
  assert.deepEqual(await disagreements(repo), []);
});
