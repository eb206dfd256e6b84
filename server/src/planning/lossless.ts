import type { InstructionDoc } from '../model/model.js';
import type { Merged, Provenance } from '../model/plan.js';
import { sameOrDemoted } from '../model/unit-shape.js';
import { LineMap } from './render/line-map.js';
import type { LineRef, Rendered } from './render/rendered.js';

const named = (at: LineRef): string => `${at.path}:${at.line}`;

/**
 * Safety net: every non-blank body line of every contributing document is in the output exactly
 * once, unless listed as merged (into a copy from another file: a repeat inside one file is kept) or
 * dropped by the person's choice, and every line that claims to come from a source is byte-identical to it.
 */
export function assertEveryLineOnce(
  linesOf: (p: string) => string[],
  contributors: InstructionDoc[],
  out: Rendered,
  merged: Merged[],
  dropped: Pick<LineMap<unknown>, 'has'>,
): void {
  const seen = new LineMap<number>();
  out.refs.forEach((ref, i) => {
    if (!ref) return;
    seen.set(ref, (seen.get(ref) ?? 0) + 1);
    const source = linesOf(ref.path)[ref.line - 1];
    if (source === undefined || !sameOrDemoted(source, out.lines[i]!)) throw new Error(`internal check failed: ${named(ref)} would change`);
  });
  // A repeat inside one file is written again, never merged into its own file's copy; the exceptions:
  // a heading repeated among its siblings (a section split in two) is one section, and a repeat in the
  // same section (`repeat`, render/section-repeats.ts) is written once.
  for (const m of merged) {
    const own =
      !m.repeat &&
      m.keptAt.path === m.path &&
      linesOf(m.path)[m.keptAt.line - 1] === linesOf(m.path)[m.line - 1] &&
      !/^ {0,3}#{1,6}\s/.test(m.text);
    if (own)
      throw new Error(`internal check failed: ${m.path}:${m.line} repeats line ${m.keptAt.line} of its own file and would be merged`);
  }
  const mergedLines = new LineMap<true>();
  for (const m of merged) for (let i = 0; i < m.lines; i++) mergedLines.set({ path: m.path, line: m.line + i }, true);
  for (const doc of contributors) {
    for (const u of doc.units) {
      u.lines.forEach((l, i) => {
        if (l.trim() === '') return;
        const at = { path: doc.path, line: u.line + i };
        const n = seen.get(at) ?? 0;
        const expected = mergedLines.has(at) || dropped.has(at) ? 0 : 1;
        if (n !== expected) throw new Error(`internal check failed: line ${named(at)} would be ${n === 0 ? 'lost' : 'doubled'}`);
      });
    }
  }
}

/** Where each run of a written file's lines came from. */
export function spans(target: string, refs: (LineRef | null)[]): Provenance[] {
  const out: Provenance[] = [];
  refs.forEach((ref, i) => {
    const last = out[out.length - 1];
    if (ref && last && last.from.path === ref.path && last.from.endLine === ref.line - 1 && last.to.endLine === i) {
      last.from.endLine = ref.line;
      last.to.endLine = i + 1;
    } else if (ref) {
      out.push({
        from: { path: ref.path, startLine: ref.line, endLine: ref.line },
        to: { path: target, startLine: i + 1, endLine: i + 1 },
      });
    }
  });
  return out;
}
