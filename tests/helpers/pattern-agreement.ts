import { analyze } from '../../server/src/analysis/analyze.js';
import { patternFacts } from '../../server/src/analysis/pattern.js';
import { contentDocs, type ScanResult } from '../../server/src/analysis/discovery/scan.js';
import { analysisLabel, buildPlan } from '../../server/src/planning/plan.js';

/**
 * Where the pattern label analyze prints and the plan propose builds disagree: a file the label says
 * still has to move, or can be grouped, that no operation writes; a plan with nothing to do labelled
 * as one that groups or moves rules; a cluster of copies labelled "structured". Empty when they agree.
 */
export function labelDisagreements(scan: ScanResult): string[] {
  const raw = analyze(scan);
  // The label analyze and propose print: settled by the plan when it changes nothing (planning/plan.ts, analysisLabel).
  const analysis = { ...raw, ...analysisLabel(scan, raw) };
  const plan = buildPlan(scan, raw);
  const out: string[] = [];
  const label = `${analysis.pattern}: ${analysis.patternDetail}`;
  const operated = new Set(plan.operations.map((o) => o.path));
  // A legacy file's rules are written when an operation's file holds lines from it; a Copilot file is written when an operation changes it.
  // A rule merged into the same rule of another file (written once, named in `merged`) lands where that one does.
  const keptFor = (p: string) => plan.merged.filter((m) => m.path === p).map((m) => m.keptAt.path);
  const landsIn = (p: string, to: (s: string) => boolean) =>
    plan.provenance.some((s) => (s.from.path === p || keptFor(p).includes(s.from.path)) && to(s.to.path));
  const written = (p: string) => operated.has(p) || landsIn(p, (t) => operated.has(t));
  const clauses = analysis.patternDetail.split('; ');
  // A path as the clause names it: whole, not the end of a longer one (`AGENTS.md` in `docs/AGENTS.md`).
  const names = (c: string, p: string) => new RegExp(`(^|[\\s(,])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s,);]|$)`).test(c);
  const namedIn = (words: RegExp) => contentDocs(scan).filter((d) => clauses.some((c) => words.test(c) && names(c, d.path)));
  for (const d of namedIn(/not in Copilot's files yet/))
    if (!written(d.path)) out.push(`"${label}" says the rules in ${d.path} move, but no operation writes them`);
  // Grouped: assembled in sections in Copilot's own file, the one file the plan assembles.
  const copilot = '.github/copilot-instructions.md';
  const grouped = (p: string) => operated.has(copilot) && (p === copilot || landsIn(p, (t) => t === copilot));
  for (const d of namedIn(/can be grouped/))
    if (!grouped(d.path)) out.push(`"${label}" says ${d.path} can be grouped, but the plan does not group it in ${copilot}`);
  const scoped = (p: string) => plan.provenance.some((s) => s.from.path === p && s.to.path !== copilot && operated.has(s.to.path));
  for (const d of namedIn(/move as they are into/))
    if (!scoped(d.path))
      out.push(`"${label}" says ${d.path} moves as it is into a scoped file, but no scoped file the plan writes holds it`);
  if (plan.operations.length === 0 && /can be grouped|not in Copilot's files yet/.test(analysis.patternDetail))
    out.push(`"${label}" above a plan with nothing to do`);
  if (analysis.pattern === 'structured' && scan.copies.some((c) => c.relation === 'copy')) out.push(`"${label}" for a cluster of copies`);
  if (analysis.pattern === 'clean' && plan.operations.length > 0) out.push(`"${label}" above ${plan.operations.length} operations`);
  const facts = patternFacts(scan, contentDocs(scan), raw.problems, raw.structured);
  if (facts.pattern !== raw.pattern) out.push(`the plan's facts say ${facts.pattern}, analyze ${raw.pattern}`);
  if (plan.pattern !== analysis.pattern) out.push(`the plan says ${plan.pattern}, analyze ${analysis.pattern}`);
  return out;
}
