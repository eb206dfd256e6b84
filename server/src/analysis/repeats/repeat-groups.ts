/**
 * One rule said alike in three places or more is one report, not one per pair: "MUST run inside
 * Docker" in CLAUDE.md twice and in a rule file were three reworded or near pairs (issue 29, clusters
 * reported once). Exact repeats already name every place; copied files are grouped in copy-clusters.ts.
 */
import type { FoundDuplication } from '../../model/problem.js';
import { connectedGroups } from '../../common/collections.js';

const GROUPED = new Set(['near', 'reworded']);
const at = (l: { path: string; line: number }) => `${l.path}:${l.line}`;

export function groupRepeats(problems: FoundDuplication[]): FoundDuplication[] {
  const pairs = problems.filter((p) => p.type === 'duplication' && GROUPED.has(p.kind ?? ''));
  if (pairs.length < 2) return problems;
  const groups = connectedGroups(pairs, (p) => p.locations.map(at));
  const merged = new Map<FoundDuplication, FoundDuplication | null>();
  for (const g of groups) {
    if (g.length < 2) continue;
    g.forEach((p, i) => merged.set(p, i === 0 ? groupProblem(g) : null));
  }
  return problems.flatMap((p) => (merged.has(p) ? (merged.get(p) === null ? [] : [merged.get(p)!]) : [p]));
}

function groupProblem(g: readonly FoundDuplication[]): FoundDuplication {
  const places = new Map<string, { path: string; line: number }>();
  for (const p of g) for (const l of p.locations) places.set(at(l), l);
  const quoted = [...new Set(g.flatMap((p) => p.quoted ?? []))];
  return {
    type: 'duplication',
    kind: g.some((p) => p.kind === 'reworded') ? 'reworded' : 'near',
    description: `The same rule in ${places.size} places, said alike: ${quoted.map((q) => `"${q}"`).join(', ')}`,
    locations: [...places.values()],
    quoted,
  };
}
