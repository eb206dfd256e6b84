import { normalizedText, type Unit } from '../../model/model.js';
import { isTrivial, stripMarker } from '../../analysis/repeats/trivial.js';
import { isStructural, type Block } from '../outline.js';

const NUMBERED = /^\s*\d+[.)]\s/;
const isNumbered = (b: Block): boolean => b.units[0]!.kind === 'list-item' && NUMBERED.test(b.units[0]!.lines[0]!);

/** Blocks in merge groups: a run of numbered items is one group, any other block its own. */
export function numberedRuns(blocks: Block[]): Block[][] {
  const groups: Block[][] = [];
  blocks.forEach((b, i) => {
    if (i > 0 && isNumbered(b) && isNumbered(blocks[i - 1]!)) groups[groups.length - 1]!.push(b);
    else groups.push([b]);
  });
  return groups;
}

const textOf = (units: Unit[]): string => units.map((u) => u.lines.map((l) => l.trimEnd()).join('\n')).join('\n\u0000');

/**
 * A rule that can stand alone, as analysis reports its repeats (analysis/repeats/exact.ts): a sentence
 * or a bullet of three words or more; not code, a separator, a tag, a table row, a label or a numbered step.
 */
function isRule(u: Unit): boolean {
  if ((u.kind !== 'paragraph' && u.kind !== 'list-item') || isStructural(u) || NUMBERED.test(u.lines[0]!)) return false;
  const text = normalizedText(u);
  return (
    !isTrivial(text) &&
    stripMarker(text)
      .split(/\s+/)
      .filter((w) => /\p{L}/u.test(w)).length >= 3
  );
}

/**
 * What one section says again, to write once (issue 40: a source whose body is written twice). A
 * group of blocks (a lone rule, a lead-in with its list, a numbered run) equal to one written before
 * in the same section repeats it whole; a bullet equal to an earlier bullet of the same list repeats
 * it. A bullet repeated after another lead-in ("**Manual setup**:" then "- Add the dependency.") is
 * said of something else and stays, as does a numbered step (a procedure may repeat one) and a
 * repeat in another section, which stands in that section's context.
 */
export class SectionRepeats {
  /** The groups written in the section, by their text: the units they were written as (their own, or the copies they merged into). */
  private readonly written = new Map<string, Unit[]>();

  /** For each unit of `group` that repeats what the section has, the unit written for it. */
  find(group: Block[]): Map<Unit, Unit> {
    const units = group.flatMap((b) => b.units);
    const out = new Map<Unit, Unit>();
    const same = this.written.get(textOf(units));
    if (same && units.some(isRule)) {
      units.forEach((u, k) => out.set(u, same[k]!));
      return out;
    }
    // A bullet that is a rule repeats the first bullet of its list with the same words that is one.
    // Whether a bullet is a rule is asked only once its words come again: most never do, and asking
    // it of every bullet was a sixth of a propose of 500 rule files.
    for (const b of group) {
      const seen = new Map<string, { unread: Unit[]; rule?: Unit }>();
      for (const u of b.units) {
        if (u.kind !== 'list-item') continue;
        const key = textOf([u]);
        const repeat = seen.get(key);
        if (!repeat) {
          seen.set(key, { unread: [u] });
          continue;
        }
        // The bullets before it with these words, read once.
        repeat.rule ??= repeat.unread.find(isRule);
        repeat.unread = [];
        if (!isRule(u)) continue;
        if (repeat.rule) out.set(u, repeat.rule);
        else repeat.rule = u;
      }
    }
    return out;
  }

  /** Record a group's `units` as written as `as` gives (the unit itself, the one it repeats, or the copy it merged into). */
  record(units: Unit[], as: (u: Unit) => Unit): void {
    const key = textOf(units);
    if (!this.written.has(key)) this.written.set(key, units.map(as));
  }
}

/**
 * The repeats of a document's sections (units in file order, headings among them), each to the unit
 * it repeats. A section is what stands between a heading and the next one; `sameSection` (the
 * heading path: siblings with the same words are one section once placed) else each heading's own.
 */
export function sectionRepeats(units: Unit[], blocksOf: (run: Unit[]) => Block[], sameSection = false): Map<Unit, Unit> {
  const out = new Map<Unit, Unit>();
  const sections = new Map<string, SectionRepeats>();
  const path: { level: number; key: string }[] = [];
  let start = 0;
  while (start < units.length) {
    const u = units[start]!;
    if (u.kind === 'heading') {
      while (path.length > 0 && path[path.length - 1]!.level >= u.level!) path.pop();
      path.push({ level: u.level!, key: sameSection ? `${u.level} ${u.lines[0]!.trim()}` : `${start}` });
      start++;
      continue;
    }
    let end = start;
    while (end < units.length && units[end]!.kind !== 'heading') end++;
    const key = path.map((p) => p.key).join('\u0000');
    let section = sections.get(key);
    if (!section) sections.set(key, (section = new SectionRepeats()));
    for (const group of numberedRuns(blocksOf(units.slice(start, end)))) {
      const found = section.find(group);
      for (const [r, first] of found) out.set(r, first);
      section.record(
        group.flatMap((b) => b.units),
        (x) => found.get(x) ?? x,
      );
    }
    start = end;
  }
  return out;
}
