import { valueTokens } from './align.js';
import { judgePair, type PairContext, type SecondLook } from './judge.js';
import type { RuleLine } from './rule-lines.js';
import type { LineTerms } from './terms.js';

/** A job run by more lines than this is a routine of the repository (every package's `x test`), not one choice. */
const LINES_PER_JOB = 6;

/**
 * Lines of two files that run one job with two programs (`zorb test -q` / `make test`): one slot,
 * two values, however little else the two lines share (a rare word pairs lines by likeness; the
 * job's word alone rarely makes them alike). The job is a command's words after its program, flags
 * aside; commands are grouped by it, and each group's lines of other files and programs are judged.
 */
export function oneJobPairs(
  lines: readonly RuleLine[],
  read: readonly LineTerms[],
  weight: ReadonlyMap<string, number>,
  norms: Float64Array,
  context: PairContext,
): SecondLook[] {
  const byJob = new Map<string, { i: number; program: string }[]>();
  read.forEach((r, i) => {
    for (const v of r.values) {
      if (!v.command || !/\s/.test(v.text)) continue;
      const tokens = valueTokens(v.text);
      const words = v.text.trim().split(/\s+/);
      const job = tokens
        .slice(1)
        .filter((t) => !t.flag && t.word > 0)
        .map((t) => t.text)
        .join(' ');
      if (job === '' || words.length > 4) continue;
      const group = byJob.get(job) ?? byJob.set(job, []).get(job)!;
      if (!group.some((g) => g.i === i)) group.push({ i, program: words[0]! });
    }
  });
  const out: SecondLook[] = [];
  for (const group of byJob.values()) {
    if (group.length < 2 || group.length > LINES_PER_JOB) continue;
    for (let x = 0; x < group.length; x++)
      for (let y = x + 1; y < group.length; y++) {
        const [p, q] = group[x]!.i < group[y]!.i ? [group[x]!, group[y]!] : [group[y]!, group[x]!];
        if (p.program === q.program || lines[p.i]!.path === lines[q.i]!.path) continue;
        const bTerms = new Set(read[q.i]!.terms);
        let dot = 0;
        for (const t of read[p.i]!.terms) if (bTerms.has(t)) dot += (weight.get(t) ?? 0) ** 2;
        const similarity = dot / (norms[p.i]! * norms[q.i]! || 1);
        const pair = judgePair(lines[p.i]!, lines[q.i]!, read[p.i]!, read[q.i]!, bTerms, similarity, context);
        if (pair) out.push(pair);
      }
  }
  return out;
}
