import { describeUnchanged, patternFacts } from '../analysis/pattern.js';
import { contentDocs, type ScanResult } from '../analysis/discovery/scan.js';
import type { Analysis } from '../model/analysis.js';

export type Label = Pick<Analysis, 'pattern' | 'patternDetail'>;

/**
 * The pattern label once the plan is known (issue 40): a repository called unstructured only for
 * Copilot's own flat files, where no legacy file's rules move and the plan has no operation, is
 * already in Copilot's layout: `structured`, and its detail says the plan changes nothing. The
 * operations are counted only when that may be so (`operations` may build the plan).
 */
export function settledLabel(scan: ScanResult, analysis: Analysis, operations: number | (() => number)): Label {
  const label = { pattern: analysis.pattern, patternDetail: analysis.patternDetail };
  if (analysis.pattern !== 'unstructured') return label;
  const facts = patternFacts(scan, contentDocs(scan), analysis.problems, analysis.structured);
  if (facts.moving.length > 0 || (typeof operations === 'number' ? operations : operations()) > 0) return label;
  return { pattern: 'structured', patternDetail: describeUnchanged(facts) };
}
