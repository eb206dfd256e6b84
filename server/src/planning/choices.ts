import { keepInstead, type Copy, type CopySwap } from '../analysis/repeats/copies.js';
import type { ScanResult } from '../analysis/discovery/scan.js';
import type { Analysis } from '../model/analysis.js';
import type { InstructionDoc } from '../model/model.js';
import type { Contradiction, Problem } from '../model/problem.js';
import { secondLooksByCut } from '../model/second-looks-shown.js';
import type { ConflictOption, PlanChoices } from '../model/plan.js';
import type { Note } from './notes.js';
import { LineMap } from './render/line-map.js';
import type { MarkTopics } from './render/marks.js';
import type { IsManaged } from './render/managed.js';

/** At most this many contradictions are asked about in approve's form; the message names the others, which keep every side, marked. */
export const MAX_CONFLICT_FIELDS = 20;

export const DEFAULT_CHOICES: PlanChoices = { legacy: {}, conflicts: {} };

export function isDefault(c: PlanChoices): boolean {
  return (
    Object.values(c.legacy).every((f) => f === 'keep') &&
    Object.values(c.conflicts).every((v) => v === 'keep_all') &&
    Object.keys(c.scopes ?? {}).length === 0 &&
    Object.values(c.assistants ?? {}).every((f) => f === 'keep')
  );
}

/** The copies as the person's choices leave them. */
export interface CopyChoices {
  /** The copies the person chose to migrate instead of the file kept by default (`use-this`). */
  swaps: CopySwap[];
  copies: Copy[];
  /** Why each file turned into a copy by a swap is left out. */
  leftOut: Map<string, string>;
  /** A second `use-this` in one group, not applied. */
  ignored: Note[];
}

/**
 * The copies as the person's choices leave them. A `use-this` on a swappable copy turns its group
 * around (analysis/repeats/copies.ts, keepInstead); a second `use-this` in the same group is not applied, and said.
 */
export function copyChoices(scan: ScanResult, choices: PlanChoices): CopyChoices {
  const swaps: CopySwap[] = [];
  const ignored: Note[] = [];
  for (const c of scan.copies) {
    if (choices.legacy[c.path] !== 'use-this' || c.relation !== 'copy' || !c.swappable) continue;
    const first = swaps.find((w) => w.was === c.keptPath);
    if (first) ignored.push({ kind: 'copy-swap-ignored', path: c.path, keptPath: c.keptPath, chosen: first.chosen });
    else swaps.push(keepInstead(c, scan.copies, scan.docs, (p) => scan.files.get(p)!.text));
  }
  if (swaps.length === 0) return { swaps, copies: scan.copies, leftOut: new Map(), ignored };
  const turned = new Set(swaps.map((w) => w.was));
  const copies = [...scan.copies.filter((c) => !(c.relation === 'copy' && turned.has(c.keptPath))), ...swaps.flatMap((w) => w.copies)];
  const order = new Map(scan.docs.map((d, i) => [d.path, i]));
  copies.sort((a, b) => order.get(a.path)! - order.get(b.path)!);
  const leftOut = new Map(swaps.flatMap((w) => w.copies.map((c) => [c.path, c.notRule] as const)));
  return { swaps, copies, leftOut, ignored };
}

/** A contradiction offered as a choice (its topic is the problem's, as data). */
export interface Conflict {
  option: ConflictOption;
}

/**
 * The contradictions analysis found, each a choice: keep all its rules, or keep one side. A reported
 * one kept whole is marked in the file; a pair only worth a second look (certainty low) comes after
 * them, lets both stand by default, and is never marked.
 */
export function conflictOptions(analysis: Analysis, linesOf: (p: string) => string[], managed: IsManaged): Conflict[] {
  return offered(analysis.problems).map((p, i) => ({
    option: {
      id: conflictId(i),
      description: p.description,
      locations: p.locations.map((l, j) => ({
        ...l,
        text: linesOf(l.path)[l.line - 1] ?? '',
        side: p.sides[j] ?? j,
        ...(managed(l) ? { managed: true as const } : {}),
      })),
      ...(p.certainty === 'low' ? { secondLook: true as const } : {}),
      topic: p.topic,
      said: p.said,
      ...(p.mentions ? { mentions: p.mentions } : {}),
    },
  }));
}

/** The contradictions in the order they are offered: the reported ones, then those only worth a second look. */
function offerOrder<P extends Pick<Problem, 'type' | 'certainty'> & { listedOnly?: boolean }>(problems: readonly P[]): P[] {
  const found = problems.filter((p) => p.type === 'contradiction');
  // Only the highest ranked pairs worth a second look are offered (model/second-looks-shown.ts).
  return [...found.filter((p) => p.certainty !== 'low'), ...secondLooksByCut(found).shown];
}

const offered = (problems: readonly Problem[]): Contradiction[] =>
  offerOrder(problems).filter((p): p is Contradiction => p.type === 'contradiction');

const conflictId = (i: number): string => `conflict_${i + 1}`;

/** Each conflict's problem by the id its choice has in the plan, from the plan's own problems (the order they are offered in). */
export function conflictProblems<P extends Pick<Problem, 'type' | 'certainty'> & { listedOnly?: boolean }>(
  problems: readonly P[],
): Map<string, P> {
  return new Map(offerOrder(problems).map((p, k) => [conflictId(k), p]));
}

/** A rule line the person's choice of a contradiction's side drops. */
export interface DroppedLine {
  path: string;
  line: number;
  text: string;
  /** Why the plan drops it, in words the person sees. */
  reason: string;
}

/**
 * What the choices do to the contradictions: the topics to mark, by source line of each side left
 * standing (the plan marks the block each lands in), and the lines of the sides not chosen. A line
 * of a side not chosen that is inside a managed block stays (its tool rewrites the block): named in a note.
 */
export function conflictEffects(conflicts: Conflict[], choices: PlanChoices, docs: InstructionDoc[]) {
  const marks: MarkTopics = new LineMap();
  const dropped = new LineMap<DroppedLine>();
  const kept: Note[] = [];
  const byPath = new Map(docs.map((d) => [d.path, d]));
  // Headings are not marked: the rules under them are.
  const inHeading = (path: string, line: number) =>
    byPath.get(path)?.units.find((x) => line >= x.line && line < x.line + x.lines.length)?.kind === 'heading';
  for (const { option: c } of conflicts) {
    const topic = c.topic;
    const choice = choices.conflicts[c.id] ?? 'keep_all';
    const keep = /^keep_(\d+)$/.exec(choice);
    const chosen = keep ? Number(keep[1]) - 1 : -1;
    if (chosen < 0 || chosen >= c.locations.length) {
      // Both sides of a pair worth a second look stand unmarked: the tool cannot tell it is a conflict.
      if (c.secondLook) continue;
      for (const l of c.locations) if (!inHeading(l.path, l.line) && !marks.get(l)?.includes(topic)) markLine(marks, l, topic);
      continue;
    }
    const sideOf = (j: number) => c.locations[j]!.side ?? j;
    c.locations.forEach((l, j) => {
      if (sideOf(j) === sideOf(chosen)) return;
      const why = `a side of "${c.topic}" you did not choose to stand`;
      if (l.managed) kept.push({ kind: 'managed-kept', at: { path: l.path, line: l.line }, text: l.text, why });
      else dropped.set(l, { path: l.path, line: l.line, text: l.text, reason: why });
    });
  }
  return { marks, dropped, kept };
}

function markLine(marks: MarkTopics, at: { path: string; line: number }, topic: string): void {
  const topics = marks.get(at);
  if (topics) topics.push(topic);
  else marks.set(at, [topic]);
}
