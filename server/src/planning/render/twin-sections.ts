import { normalizeLine, type Unit } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';
import { endsWithColon, headingKey } from '../outline.js';
import { isTable } from '../../model/unit-shape.js';
import { linkNames, type UnitPart } from './rendered.js';
import type { Addition } from './addition.js';
import { TwinPlacement } from './twin-placement.js';

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
  /** Its lead-ins of a block written once that differ from the lead-in written with it: that one stands, these are merged into it. */
  reworded: { line: number; text: string; keptAt: { path: string; line: number; text: string } }[];
  /** Whether its differing lines joined that section (another source's) or stand after the person's text. */
  joined: boolean;
}

/** A section found to repeat most of one written already: that one, the sections its lines merge into, and its report. */
export interface Twin {
  section: Unit;
  sections: Unit[];
  report: TwinSection;
  /** Where its differing lines go, when they join the section it repeats (another source's). */
  placement?: TwinPlacement;
}

/** What of a unit of a twin section is written (null: merged whole), the line of the target it was merged into or stands next to, and its lines that differ. */
interface Written {
  w: Unit | null;
  copy?: Unit;
  differing: number[];
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const TABLE_RULE = /^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*(:?-{3,}:?\s*)?\|?\s*$/;
const SEPARATOR = /^\s*(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$/;

/** The lines of a unit that frame it, written with any part of it: a code block's fences, a table's header and rule. */
function frameOf(u: Unit): Set<number> {
  if (u.kind === 'code') {
    const last = u.lines.length - 1;
    return new Set(last > 0 && FENCE.test(u.lines[last]!) ? [0, last] : [0]);
  }
  if (isTable(u) && u.lines.length > 2 && TABLE_RULE.test(u.lines[1]!)) return new Set([0, 1]);
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

const BRANCH = /^[\s\u2502\u251c\u2514\u252c\u253c\u2500|`+-]*/;
/** How deep a line of a tree stands: the length of its indent and branch marks. */
const depth = (line: string): number => BRANCH.exec(line)![0].length;

/** A code block drawn as a tree: branch marks, or a root that names a folder. */
function isTree(u: Unit, body: number[]): boolean {
  return u.kind === 'code' && (body.some((k) => /[\u251c\u2514]/.test(u.lines[k]!)) || /\/\s*(#.*)?$/.test(u.lines[body[0] ?? 0]!));
}

/**
 * The lines of a tree the lines `ks` hang from, up to its root (each nearest line above standing less
 * deep): a line of a tree written alone, without them, no longer says where it stands.
 */
function treeRoots(u: Unit, ks: number[]): Set<number> {
  const frame = frameOf(u);
  const body = u.lines.flatMap((l, k) => (frame.has(k) || l.trim() === '' || depth(l) === l.length ? [] : [k]));
  const roots = new Set<number>();
  if (!isTree(u, body)) return roots;
  for (const k of ks) {
    let d = depth(u.lines[k]!);
    for (const j of body.filter((b) => b < k).reverse()) {
      if (d === 0) break;
      if (depth(u.lines[j]!) < d) roots.add(j);
      d = Math.min(d, depth(u.lines[j]!));
    }
  }
  return roots;
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
  /** Per unit written, the unit written right before it under the same heading: a lead-in before its block. */
  private readonly before = new Map<Unit, Unit>();
  /** Per section heading, the unit written last under it. */
  private readonly lastUnder = new Map<Unit, Unit>();

  /** Record `u` as written under the section `heading`. */
  add(heading: Unit | null, u: Unit): void {
    if (!heading || u.kind === 'heading') return;
    let lines = this.bySection.get(heading);
    if (!lines) {
      this.bySection.set(heading, (lines = new Map()));
      const words = headingKey(heading.lines[0]!);
      this.byWords.set(words, [...(this.byWords.get(words) ?? []), heading]);
    }
    const last = this.lastUnder.get(heading);
    if (last) this.before.set(u, last);
    this.lastUnder.set(heading, u);
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

  /** Whether a section of another file than `u`'s, headed by the words of `heading` (any, when null), holds every line of `u`. */
  holdsUnder(heading: string | null, u: Unit): boolean {
    const texts = u.lines.filter((l) => l.trim() !== '').map(lineText);
    const sections = heading === null ? [...this.bySection.keys()] : (this.byWords.get(headingKey(heading)) ?? []);
    return sections.some(
      (s) =>
        s.path !== u.path &&
        texts.length > 0 &&
        texts.every((t) =>
          this.bySection
            .get(s)!
            .get(t)
            ?.some((h) => h.unit.path !== u.path),
        ),
    );
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

  /**
   * The twin of the section headed `u` with the units `own`, if any; `into` gives the section of
   * another source its lines join (same words), undefined when they go under a heading of their own.
   */
  twin(u: Unit, own: Unit[], into: (section: Unit) => Addition | undefined): Twin | undefined {
    const section = this.match(u.path, own);
    if (!section) return undefined;
    const node = into(section);
    const report: TwinSection = {
      path: u.path,
      heading: { line: u.line, text: u.lines[0]!.trim() },
      repeats: { path: section.path, line: section.line, text: section.lines[0]!.trim() },
      merged: 0,
      kept: [],
      reworded: [],
      joined: node !== undefined,
    };
    const texts = new Set(own.flatMap((x) => measuredLines(x).map((l) => l.text)));
    // A unit of that section with a line the twin does not have is the other file's version: a counterpart of what
    // differs. A lead-in opens other lines than the ones before it: the counterparts end there.
    const othersOwn = (x: Unit) => x.kind !== 'heading' && !endsWithColon(x) && measuredLines(x).some((l) => !texts.has(l.text));
    const placement = node ? new TwinPlacement(node, othersOwn) : undefined;
    return { section, sections: this.intoSections(section, u), report, placement };
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
    return this.written(u, sections, merged).w === null;
  }

  /** Whether every line of `u`, a unit of several lines, is written already from another file, wherever it stands. */
  holdsAll(u: Unit): boolean {
    const texts = u.lines.filter((l) => l.trim() !== '').map(lineText);
    return u.kind !== 'heading' && texts.length > 1 && texts.every((t) => this.holding(t, u.path).length > 0);
  }

  /**
   * The units of a twin section's blocks that are written (as `written` says), each reported; a
   * lead-in whose block is written once is merged into the lead-in written with that block (two
   * versions of one line: the one written already stands with its block). A unit merged whole goes
   * in `copies`, one written in part in `parts`, one written whole to `whole`. When the twin joins
   * another source's section, each run of what differs is put in place there (`TwinPlacement`).
   */
  units(
    blocks: Unit[][],
    twin: Twin,
    merged: Merged[],
    out: { whole: (u: Unit) => void; copies: Map<Unit, Unit>; parts: Map<Unit, Unit> },
  ): Unit[] {
    const kept: Unit[] = [];
    for (const block of blocks) {
      const before = merged.length;
      const results = block.map((u) => this.written(u, twin.sections, merged));
      twin.report.merged += merged.length - before;
      block.forEach((u, i) => this.pairLeadIn(u, results, i, twin, merged));
      let run: Unit[] = [];
      const flush = () => {
        if (run.length > 0 && twin.placement) for (const w of twin.placement.place(run)) this.add(twin.placement.node.headingUnit, w);
        run = [];
      };
      block.forEach((u, i) => {
        const { w, copy, differing } = results[i]!;
        const at = (w as Partial<UnitPart> | null)?.at;
        if (w) twin.report.kept.push(...differing.map((k) => ({ line: u.line + k, text: u.lines[k]! })));
        if (w === null) out.copies.set(u, u);
        else if (w === u) out.whole(u);
        else out.parts.set(u, w);
        if (w) kept.push(u);
        if (copy) {
          flush();
          twin.placement?.follows(copy);
        }
        if (w) run.push(w);
        if (w && at) flush();
      });
      flush();
    }
    return kept;
  }

  /** The unit that introduces the list or code `u` stands in (the items before it passed over), if any. */
  private leadInOf(u: Unit): Unit | undefined {
    let x = this.before.get(u);
    while (x && x.kind === 'list-item' && u.kind === 'list-item' && x.path === u.path) x = this.before.get(x);
    return x;
  }

  /**
   * A lead-in of a twin section, written whole, whose next unit was merged (or written in part)
   * into a unit of the target that a lead-in of another file introduces: two versions of one lead-in
   * to one block, written once. The one written already stands with the block; this one is merged.
   */
  private pairLeadIn(u: Unit, results: Written[], i: number, twin: Twin, merged: Merged[]): void {
    const next = results[i + 1]?.copy;
    const lead = next && this.leadInOf(next);
    if (results[i]!.w !== u || !lead || !endsWithColon(u) || !endsWithColon(lead) || lead.path === u.path) return;
    const keptAt = { path: lead.path, line: (lead as Partial<UnitPart>).at?.[0] ?? lead.line, text: lead.lines.join(' ').trim() };
    merged.push({
      path: u.path,
      line: u.line,
      lines: u.lines.length,
      keptAt: { path: keptAt.path, line: keptAt.line },
      text: u.lines.join('\n'),
    });
    twin.report.merged += 1;
    twin.report.reworded.push({ line: u.line, text: u.lines.join(' ').trim(), keptAt });
    results[i] = { w: null, copy: lead, differing: [] };
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
  private written(u: Unit, sections: Unit[], merged: Merged[]): Written {
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
    const copy = copies.filter((c) => c !== undefined).pop()?.unit;
    // Only a code block or a table is written in part: a paragraph or an item cut would lose its sense.
    if (!whole && (frame.size === 0 || missing.every((k) => frame.has(k)) || copies.every((c) => !c)))
      return { w: u, differing: measuredLines(u).map((l) => l.k) };
    const take = (k: number) => {
      const copy = copies[k]!;
      copy.takenBy.add(u.path);
      merged.push({ path: u.path, line: u.line + k, lines: 1, keptAt: { path: copy.unit.path, line: copy.line }, text: u.lines[k]! });
    };
    if (whole) {
      u.lines.forEach((l, k) => l.trim() !== '' && take(k));
      return { w: null, copy, differing: [] };
    }
    // Blank lines stay out of a part: past one, a line that did not follow it in its file would start a new unit.
    // A tree's lines keep the branches they hang from, up to its root.
    const roots = treeRoots(u, missing);
    const keep = u.lines.map((l, k) => frame.has(k) || roots.has(k) || (l.trim() !== '' && !copies[k]));
    u.lines.forEach((l, k) => !keep[k] && l.trim() !== '' && take(k));
    const ks = u.lines.flatMap((_, k) => (keep[k] ? [k] : []));
    const part: UnitPart = { ...u, line: u.line + ks[0]!, lines: ks.map((k) => u.lines[k]!), at: ks.map((k) => u.line + k) };
    return { w: part, copy, differing: missing.filter((k) => !frame.has(k)) };
  }
}
