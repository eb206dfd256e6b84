/**
 * Files that are copies of one another, reported once per group rather than once per pair: six
 * copies of one file are one report naming the six (issue 29), not fifteen.
 */
import type { FoundDuplication } from '../../model/problem.js';
import { connectedGroups } from '../../common/collections.js';

/** Two files found to be copies: the share of their rules that repeat, where each copy starts, the sections that differ. */
export interface CopiedPair {
  a: string;
  b: string;
  pct: number;
  shared: number;
  firstA: number;
  firstB: number;
  differ: ReadonlySet<string>;
}

/** One report per group of files joined by copied pairs; a group of two reads as before. */
export function copyClusters(pairs: readonly CopiedPair[]): FoundDuplication[] {
  const groups = connectedGroups(pairs, (p) => [p.a, p.b]);
  return groups.map((g) => (g.length === 1 ? pairProblem(g[0]!) : groupProblem(g)));
}

const sectionsWord = (n: number) => (n === 0 ? 'no section differs' : `${n} section${n > 1 ? 's differ' : ' differs'}`);

function pairProblem(p: CopiedPair): FoundDuplication {
  return {
    type: 'duplication',
    kind: 'copied-file',
    description: `${p.a} and ${p.b} are ${p.pct}% the same (${p.shared} of their rules repeat); ${sectionsWord(p.differ.size)}`,
    locations: [
      { path: p.a, line: p.firstA },
      { path: p.b, line: p.firstB },
    ],
  };
}

function groupProblem(g: readonly CopiedPair[]): FoundDuplication {
  // Each file once, in the order the pairs name them, at the first line any of its pairs shares.
  const first = new Map<string, number>();
  for (const p of g) {
    first.set(p.a, Math.min(first.get(p.a) ?? p.firstA, p.firstA));
    first.set(p.b, Math.min(first.get(p.b) ?? p.firstB, p.firstB));
  }
  const pcts = g.map((p) => p.pct);
  const [lo, hi] = [Math.min(...pcts), Math.max(...pcts)];
  const share = lo === hi ? `${lo}%` : `${lo}-${hi}%`;
  const differ = new Set(g.flatMap((p) => [...p.differ]));
  const paths = [...first.keys()];
  return {
    type: 'duplication',
    kind: 'copied-file',
    description: `${paths.length} files are copies of one another (${share} the same): ${paths.join(', ')}; ${sectionsWord(differ.size)}`,
    locations: paths.map((path) => ({ path, line: first.get(path)! })),
  };
}
