import { analyze } from '../../server/src/analysis/analyze.js';
import { patternFacts } from '../../server/src/analysis/pattern.js';
import { contentDocs, type ScanResult } from '../../server/src/analysis/scan.js';
import { buildPlan } from '../../server/src/planning/plan.js';

/**
 * Where the pattern label analyze prints and the plan propose builds disagree: a file the label says
 * still has to move, or can be grouped, that no operation writes; a plan with nothing to do labelled
 * as one that groups or moves rules; a cluster of copies labelled "structured". Empty when they agree.
 */
export function labelDisagreements(scan: ScanResult): string[] {
  const analysis = analyze(scan);
  const plan = buildPlan(scan, analysis);
  const out: string[] = [];
  const label = `${analysis.pattern}: ${analysis.patternDetail}`;
  const operated = new Set(plan.operations.map((o) => o.path));
  // A legacy file's rules are written when an operation's file holds lines from it; a Copilot file is written when an operation changes it.
  const written = (p: string) => operated.has(p) || plan.provenance.some((s) => s.from.path === p && operated.has(s.to.path));
  const clauses = analysis.patternDetail.split('; ');
  const namedIn = (words: RegExp) => contentDocs(scan).filter((d) => clauses.some((c) => words.test(c) && c.includes(d.path)));
  for (const d of namedIn(/not in Copilot's files yet/))
    if (!written(d.path)) out.push(`"${label}" says the rules in ${d.path} move, but no operation writes them`);
  for (const d of namedIn(/can be grouped/))
    if (!written(d.path)) out.push(`"${label}" says ${d.path} can be grouped, but no operation writes it`);
  if (plan.operations.length === 0 && /can be grouped|not in Copilot's files yet/.test(analysis.patternDetail))
    out.push(`"${label}" above a plan with nothing to do`);
  if (analysis.pattern === 'structured' && scan.copies.some((c) => c.relation === 'copy')) out.push(`"${label}" for a cluster of copies`);
  if (analysis.pattern === 'clean' && plan.operations.length > 0) out.push(`"${label}" above ${plan.operations.length} operations`);
  const facts = patternFacts(scan, contentDocs(scan), analysis.problems, analysis.structured);
  if (facts.pattern !== analysis.pattern) out.push(`the plan's facts say ${facts.pattern}, analyze ${analysis.pattern}`);
  return out;
}
