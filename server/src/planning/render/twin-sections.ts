import { normalizeLine, type Unit } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';
import { headingKey } from '../outline.js';
import { linkNames, type UnitPart } from './rendered.js';

/** A line written into the target under a section, in the unit it stands in. */
interface HeldLine {
  unit: Unit;
  /** The line's number in the unit's file. */
  line: number;
  /** The files that merged a line into this one: each merges into it once. */
  takenBy: Set<string>;
}

/** A section of a source that repeats most of a section written already, and what of it is written. */
export interface TwinSection {
  path: string;
  heading: { line: number; text: string };
  /** The heading of the section it repeats (the person's, or another source's). */
  repeats: { path: string; line: number; text: string };
  /** Its lines that section holds already, merged into it. */
  merged: number;
  /** Its lines that differ, kept (written under that section, or after the person's text). */
  kept: { line: number; text: string }[];
  /** Whether its differing lines joined that section (another source's) or stand after the person's text. */
  joined: boolean;
}

/** A section found to repeat most of one written already: that one, the sections its lines merge into, and its report. */
export interface Twin {
  section: Unit;
  sections: Unit[];
  report: TwinSection;
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const TABLE_RULE = /^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*(:?-{3,}:?\s*)?\|?\s*$/;
const SEPARATOR = /^\s*(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$/;

const isTable = (u: Unit): boolean => u.kind === 'paragraph' && u.lines.length > 2 && u.lines.every((l) => l.trim().startsWith('|'));

/** The lines of a unit that frame it, written with any part of it: a code block's fences, a table's header and rule. */
function frameOf(u: Unit): Set<number> {
  if (u.kind === 'code') {
    const last = u.lines.length - 1;
    return new Set(last > 0 && FENCE.test(u.lines[last]!) ? [0, last] : [0]);
  }
  if (isTable(u) && TABLE_RULE.test(u.lines[1]!)) return new Set([0, 1]);
  return new Set();
}

/** A line as a section's lines are compared: spaces collapsed, links cut to their last name (render/rendered.ts). */
const lineText = (line: string): string => normalizeLine(linkNames(line.trimEnd()));

/** The lines of a unit that say something of their own (not blank, a frame or a separator): index and text. */
export function measuredLines(u: Unit): { k: number; text: string }[] {
  const frame = frameOf(u);
  const out: { k: number; text: string }[] = [];
  u.lines.forEach((l, k) => {
    if (l.trim() === '' || frame.has(k) || SEPARATOR.test(l)) return;
    out.push({ k, text: lineText(l) });
  });
  return out;
}

/**
 * The lines of every section written into one target, by their text: the person's sections and the
 * ones sources opened (issue 40, "written once"). A source's section that repeats most of one of them
 * (a generated twin of a guide, a digest and its source) is found here, and its lines that section
 * holds are merged into it one by one, wherever they stand in it.
 */
export class SectionLines {
  /** Per section heading, per line text, the lines written there. */
  private readonly bySection = new Map<Unit, Map<string, HeldLine[]>>();
  /** Per line text, the sections holding it. */
  private readonly sectionsOf = new Map<string, Set<Unit>>();
  /** The section headings, by their words. */
  private readonly byWords = new Map<string, Unit[]>();

  /** Record `u` as written under the section `heading`. */
  add(heading: Unit | null, u: Unit): void {
    if (!heading || u.kind === 'heading') return;
    let lines = this.bySection.get(heading);
    if (!lines) {
      this.bySection.set(heading, (lines = new Map()));
      const words = headingKey(heading.lines[0]!);
      this.byWords.set(words, [...(this.byWords.get(words) ?? []), heading]);
    }
    const at = (u as UnitPart).at;
    u.lines.forEach((l, k) => {
      if (l.trim() === '') return;
      const text = lineText(l);
      let held = lines.get(text);
      if (!held) lines.set(text, (held = []));
      held.push({ unit: u, line: at?.[k] ?? u.line + k, takenBy: new Set() });
      let sections = this.sectionsOf.get(text);
      if (!sections) this.sectionsOf.set(text, (sections = new Set()));
      sections.add(heading);
    });
  }

  /**
   * The section of another file that holds most of the lines of `own` (a section's units, its
   * heading aside): more than half of them, two at least. Undefined when none does.
   */
  match(path: string, own: Unit[]): Unit | undefined {
    const texts = own.flatMap((u) => measuredLines(u).map((l) => l.text));
    if (texts.length < 2) return undefined;
    const counts = new Map<Unit, number>();
    for (const text of new Set(texts)) {
      const n = texts.filter((t) => t === text).length;
      for (const s of this.sectionsOf.get(text) ?? []) {
        if (s.path === path) continue;
        const held = this.bySection
          .get(s)!
          .get(text)!
          .filter((h) => h.unit.path !== path).length;
        counts.set(s, (counts.get(s) ?? 0) + Math.min(n, held));
      }
    }
    let best: Unit | undefined;
    for (const [s, n] of counts) if (n >= 2 && n * 2 > texts.length && (!best || n > counts.get(best)!)) best = s;
    return best;
  }

  /** The twin of the section headed `u` with the units `own`, if any; `joins` says whether its lines go into the section it repeats. */
  twin(u: Unit, own: Unit[], joins: (section: Unit) => boolean): Twin | undefined {
    const section = this.match(u.path, own);
    if (!section) return undefined;
    const report: TwinSection = {
      path: u.path,
      heading: { line: u.line, text: u.lines[0]!.trim() },
      repeats: { path: section.path, line: section.line, text: section.lines[0]!.trim() },
      merged: 0,
      kept: [],
      joined: joins(section),
    };
    return { section, sections: this.intoSections(section, u), report };
  }

  /** The sections of another file than `path` holding a line with this text. */
  private holding(text: string, path: string): Unit[] {
    return [...(this.sectionsOf.get(text) ?? [])].filter((s) =>
      this.bySection
        .get(s)!
        .get(text)!
        .some((h) => h.unit.path !== path),
    );
  }

  /**
   * Merge every line of `u` into a line of the target written from another file, wherever it stands:
   * a unit written in parts by a twin section, found again by a second plan after the migration.
   * False, and nothing merged, when a line has none.
   */
  mergedAnywhere(u: Unit, merged: Merged[]): boolean {
    if (!this.holdsAll(u)) return false;
    const sections = [...new Set(u.lines.flatMap((l) => (l.trim() === '' ? [] : this.holding(lineText(l), u.path))))];
    return this.written(u, sections, merged) === null;
  }

  /** Whether every line of `u`, a unit of several lines, is written already from another file, wherever it stands. */
  holdsAll(u: Unit): boolean {
    const texts = u.lines.filter((l) => l.trim() !== '').map(lineText);
    return u.kind !== 'heading' && texts.length > 1 && texts.every((t) => this.holding(t, u.path).length > 0);
  }

  /** What of `u` a twin section writes (as `written` says), its lines merged counted and the ones kept reported. */
  kept(u: Unit, twin: Twin, merged: Merged[]): Unit | null {
    const before = merged.length;
    const w = this.written(u, twin.sections, merged);
    twin.report.merged += merged.length - before;
    const at = (w as Partial<UnitPart> | null)?.at;
    if (w) twin.report.kept.push(...measuredLines(w).map((l) => ({ line: at?.[l.k] ?? w.line + l.k, text: w.lines[l.k]! })));
    return w;
  }

  /**
   * The sections a twin of `section` headed `heading` merges its lines into: that one, then the ones
   * with its heading's words (a migrated file holds what a twin added last time under its own heading).
   */
  private intoSections(section: Unit, heading: Unit): Unit[] {
    return [section, ...(this.byWords.get(headingKey(heading.lines[0]!)) ?? []).filter((s) => s !== section)];
  }

  /** A line of one of `sections` with this text, written from another file than `path`, that `path` has not merged into yet. */
  private free(sections: Unit[], text: string, path: string, reserved: Set<HeldLine>): HeldLine | undefined {
    for (const s of sections) {
      const held = this.bySection
        .get(s)
        ?.get(text)
        ?.find((h) => h.unit.path !== path && !h.takenBy.has(path) && !reserved.has(h));
      if (held) return held;
    }
    return undefined;
  }

  /**
   * What of `u` is written under a twin of `section`: nothing when the section holds every line of it
   * (each merged into its copy); a code block or table with only its differing lines (its fences, or
   * header and rule, with them), the others merged; else the whole unit. `merged` receives each line merged.
   */
  private written(u: Unit, sections: Unit[], merged: Merged[]): Unit | null {
    const reserved = new Set<HeldLine>();
    const copies = u.lines.map((l) => {
      if (l.trim() === '') return undefined;
      const copy = this.free(sections, lineText(l), u.path, reserved);
      if (copy) reserved.add(copy);
      return copy;
    });
    const frame = frameOf(u);
    const missing = u.lines.flatMap((l, k) => (l.trim() !== '' && !copies[k] ? [k] : []));
    const whole = missing.length === 0;
    // Only a code block or a table is written in part: a paragraph or an item cut would lose its sense.
    if (!whole && (frame.size === 0 || missing.every((k) => frame.has(k)) || copies.every((c) => !c))) return u;
    const take = (k: number) => {
      const copy = copies[k]!;
      copy.takenBy.add(u.path);
      merged.push({ path: u.path, line: u.line + k, lines: 1, keptAt: { path: copy.unit.path, line: copy.line }, text: u.lines[k]! });
    };
    if (whole) {
      u.lines.forEach((l, k) => l.trim() !== '' && take(k));
      return null;
    }
    // Blank lines stay out of a part: past one, a line that did not follow it in its file would start a new unit.
    const keep = u.lines.map((l, k) => frame.has(k) || (l.trim() !== '' && !copies[k]));
    u.lines.forEach((l, k) => !keep[k] && l.trim() !== '' && take(k));
    const ks = u.lines.flatMap((_, k) => (keep[k] ? [k] : []));
    const part: UnitPart = { ...u, line: u.line + ks[0]!, lines: ks.map((k) => u.lines[k]!), at: ks.map((k) => u.line + k) };
    return part;
  }
}
