import type { Unit } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';
import { isToolMark } from '../../model/unit-shape.js';
import { blocksOf, headingKey, isSortable, isStructural } from '../outline.js';
import { blockTopic, sameSection, sectionFor } from '../structure.js';
import { GENERAL_SECTION } from '../section-topics.js';
import { plainKeys } from './keys.js';
import { placement, PlacedKeys, type Placed } from './placement.js';
import { mergedEntry } from './rendered.js';
import { isRuleList } from './flat-document.js';
import type { Addition } from './addition.js';
import { HollowSections } from './hollow.js';
import { WrittenUnits } from './written-units.js';
import { numberedRuns, SectionRepeats, sectionRepeats } from './section-repeats.js';
import { SectionLines, type Twin, type TwinSection } from './twin-sections.js';

/** A section the current document opened, and the heading written for it (its own, or the copy it merged into). */
interface Sibling {
  /** Null when the heading merged whole into a copy with no section of this assembly's. */
  node: Addition | null;
  heading: Unit;
}

/** Whether `copies` are one section of one file, in order, as `subtree` is: its heading, then the units under it. */
function oneSection(copies: Unit[], subtree: Unit[]): boolean {
  const first = copies[0]!;
  return (
    first.kind === 'heading' &&
    subtree.some((u) => u.kind !== 'heading') &&
    copies.every((c, k) => c.path === first.path && c.kind === subtree[k]!.kind && (k === 0 || c.line > copies[k - 1]!.line))
  );
}

/** The headings a document repeats among their siblings (same parent, level and words; a `# ` title starts anew), each to the first. */
function repeatedSiblings(placed: Placed[]): Map<Unit, Unit> {
  const repeats = new Map<Unit, Unit>();
  let firsts = new Map<string, Unit>();
  for (const { unit: u, ctx } of placed) {
    if (u.kind !== 'heading') continue;
    if (u.level === 1) {
      firsts = new Map();
      continue;
    }
    const key = `${ctx}\u0000${siblingKey(u)}`;
    const first = firsts.get(key);
    if (first) repeats.set(u, first);
    else firsts.set(key, u);
  }
  return repeats;
}

/**
 * The title of the `## ` section a document's headings deeper than `## ` under no heading go under:
 * their confident topic, else General; General too when one of them, or one of the target's own sections, has the topic's words (no `## Build` over `### Build`).
 */
function leadTitle(placed: Placed[], targetHeadings: string[]): string {
  const lines = placed.filter((p) => p.unit.kind === 'heading' && p.unit.level! > 2 && p.ctx === '').map((p) => p.unit.lines[0]!);
  const title = sectionFor(lines.join('\n')).title;
  // Nor one of the person's: their section of that name is theirs, and this one goes after it (issue 40).
  return [...lines, ...targetHeadings].some((l) => sameSection(l, title)) ? GENERAL_SECTION.title : title;
}

const siblingKey = (u: Unit): string => `${u.level}\u0000${headingKey(u.lines[0]!)}`;

/** A one-line bullet, not a lead-in or a line that answers another; a numbered item is merged only with its whole run (no "3." fragment). */
const isListRule = (u: Unit): boolean =>
  u.kind === 'list-item' && u.lines.length === 1 && !isStructural(u) && /^\s*[-*+]\s/.test(u.lines[0]!);

const emptyAddition = (heading: string, headingUnit: Unit | null): Addition => ({ heading, headingUnit, blocks: [], children: [] });

/**
 * What the legacy documents add to Copilot's file, read as a careful maintainer would. Each document
 * keeps its own shape: rule lines of a flat paragraph stand apart, pseudo-headings become headings,
 * and its headings move as a tree, all levels together, below one `## ` heading that names what the
 * file is about (its title: `# Guide` becomes `## Guide`). A title that only names a file (`#
 * CLAUDE.md`) names no subject: it is kept in a comment of the tool's, and the file's own chapters
 * become `## ` sections. Sections with the same name from different files or chapters are not
 * merged: only a heading with the same words under the same parent heading is one section (a heading
 * one file repeats among its siblings, too). Loose
 * standalone rules (under no heading) go to the section of their topic on a confident match, else
 * under the target's head. Units move whole: a lead-in with its list, a line with the lines that
 * answer it, code with what it follows. A unit, or a heading with everything under it, equal to one
 * another file already wrote under the same heading is merged into that copy (`WrittenUnits`);
 * separators, tags, table rows and code are never merged alone; a repeat inside the document is
 * written again.
 */
export class Assembly {
  private topAddition: Addition | null = null;
  /** The sections in the order they were opened. */
  private readonly sections: Addition[] = [];
  /** The sections the tool named after a topic, by title. */
  private readonly byTopic = new Map<string, Addition>();
  /** Per parent section (null at the top), the sections the current document opened, by level and words. */
  private siblings = new Map<Addition | null, Map<string, Sibling>>();
  /** The addition each written heading unit opened, so an equal heading from another file joins it. */
  private readonly opened = new Map<Unit, Addition>();
  /** The `## ` heading the current document's sections deeper than `## ` under no heading go under. */
  private leadHeading = '';
  /** Per section (null: loose rules), what the current document wrote there: a repeat of it is written once. */
  private repeats = new Map<Addition | null, SectionRepeats>();
  /** The current document's `# ` title, kept as a comment: written above the section its first chapter opens, else on top. */
  private pendingTitle: Unit | null = null;
  /** The sections of the current document that repeat most of a section written already, by the section their lines go to. */
  private twinOf = new Map<Addition, Twin>();
  /** The sections a twin section opened of its own, each to the heading of the section it repeats. */
  private readonly twinHeadings = new Map<Addition, Unit>();

  constructor(
    readonly written: WrittenUnits,
    private readonly merged: Merged[],
    /** The heading lines of the target's own `## ` sections, which sections from a source must not precede. */
    private readonly targetHeadings: string[] = [],
    /** The lines of every section written so far (the person's first), to find a section that repeats one. */
    private readonly lines = new SectionLines(),
    /** Receives each section that repeats most of one written already (issue 40: twins and digests). */
    private readonly twins: TwinSection[] = [],
  ) {}

  /** Whether the target has `## ` sections of its own. */
  private get targetSections(): boolean {
    return this.targetHeadings.length > 0;
  }

  /** Whether one of a document's chapters has the words of one of the target's own `## ` sections. */
  private readonly collides = (chapters: string[]): boolean => {
    const own = new Set(this.targetHeadings.map(headingKey));
    return chapters.some((c) => own.has(headingKey(c)));
  };

  /** What goes under the target's head, on top, and then every section; no heading is left with nothing under it. */
  additions(): Addition[] {
    const hollow = new HollowSections(
      this.written,
      this.merged,
      (u) => this.opened.get(u),
      (a) => this.twinHeadings.get(a),
    );
    hollow.prune(this.sections);
    if (this.topAddition) hollow.prune(this.topAddition.children);
    return this.topAddition ? [this.topAddition, ...this.sections] : [...this.sections];
  }

  /** Read one legacy document's units in. */
  addDocument(sourceUnits: Unit[], flatName: string | null = null): void {
    const { out: placedUnits, nested } = placement(sourceUnits, this.collides);
    if (placedUnits.length === 0) return;
    const keys = new PlacedKeys(placedUnits);
    const units = placedUnits.map((p) => p.unit);
    this.siblings = new Map();
    this.repeats = new Map();
    this.twinOf = new Map();
    // Chapters put one level down for the person's sections go under a heading naming no one topic of theirs.
    const lead = flatName ?? (nested ? GENERAL_SECTION.title : leadTitle(placedUnits, this.targetHeadings));
    // Never a second section of a name the person's file has: the next plan would read the two as one.
    const taken = this.targetHeadings.some((h) => sameSection(h, lead));
    this.leadHeading = `## ${taken ? `${lead} (${units[0]!.path})` : lead}`;
    // A document whose every unit is written already (a second plan after a migration) adds nothing.
    // A heading repeated among its siblings is one section, and what a section says again is written
    // once: each needs one copy.
    const repeats = repeatedSiblings(placedUnits);
    const again = sectionRepeats(units, (run) => blocksOf(run, isToolMark), true);
    if (
      this.written.covers(
        units.filter((u) => !repeats.has(u) && !again.has(u) && !this.lines.holdsAll(u)),
        plainKeys,
      )
    )
      return this.addWrittenAlready(units, keys, repeats, again);
    const flat = !units.some((u) => u.kind === 'heading' && u.level! >= 2);
    // A heading-less document is one unit, under a heading named after it, unless it is a list of rules.
    const whole = flat && !isRuleList(units);
    const own = whole && flatName !== null ? this.topicSection(`## ${flatName}`) : null;
    const stack: { level: number; node: Addition }[] = [];
    let i = 0;
    while (i < units.length) {
      const u = units[i]!;
      if (u.kind === 'heading' && u.level! >= 2) i = this.addSection(units, i, keys, stack);
      else if (u.kind === 'heading') {
        this.flushTitle();
        this.addTitle(u, keys);
        stack.length = 0;
        this.siblings = new Map();
        // What follows a title is another part: its loose rules repeat nothing above it.
        this.repeats.delete(null);
        i++;
      } else {
        this.flushTitle();
        i = this.addRules(units, i, keys, stack[stack.length - 1]?.node ?? own, flat && !whole);
      }
      // A title whose first chapter joined or merged into another section stays on top, as before.
      if (u.kind === 'heading' && u.level! >= 2) this.flushTitle();
    }
    this.flushTitle();
  }

  /** The pending title, on top under the target's head. */
  private flushTitle(): void {
    if (this.pendingTitle) this.top().blocks.push([this.pendingTitle]);
    this.pendingTitle = null;
  }

  /**
   * What goes under the target's head. In a target with `## ` sections of the person's, nothing goes
   * above them (the person's text is fixed ground): it goes after them, under the current document's
   * lead heading (its description, the topic of its opening sections, else General).
   */
  private top(): Addition {
    if (this.targetSections) return this.topicSection(this.leadHeading);
    return (this.topAddition ??= { ...emptyAddition('', null), top: true });
  }

  private merge(u: Unit, copy: Unit): void {
    this.merged.push(mergedEntry(u, copy));
  }

  /** Each unit into its copy under the same heading when there is one, else into any copy. */
  private addWrittenAlready(units: Unit[], keys: PlacedKeys, repeats: Map<Unit, Unit>, again: Map<Unit, Unit>): void {
    const copyOf = new Map<Unit, Unit>();
    for (const u of units) {
      const first = repeats.get(u) ?? again.get(u);
      const copy = first
        ? copyOf.get(first)
        : (this.written.take(u, [...keys.lookup(u), ...plainKeys(u)]) ?? this.written.take(u, plainKeys(u)));
      if (copy) copyOf.set(u, copy);
      if (copy) this.merged.push(mergedEntry(u, copy, again.has(u)));
      // A unit a twin section wrote in parts (a second plan after the migration): merged line by line.
      else if (!this.lines.mergedAnywhere(u, this.merged)) {
        this.written.add(u, keys.written(u));
        this.top().blocks.push([u]);
      }
    }
  }

  /** A `## ` or deeper heading at `i`: merged with what is under it, joined to a section, or opened. Returns the next index. */
  private addSection(units: Unit[], i: number, keys: PlacedKeys, stack: { level: number; node: Addition }[]): number {
    const u = units[i]!;
    let end = i + 1;
    while (end < units.length && !(units[end]!.kind === 'heading' && units[end]!.level! <= u.level!)) end++;
    const subtree = units.slice(i, end);
    while (stack.length > 0 && stack[stack.length - 1]!.level >= u.level!) stack.pop();
    const parent = stack[stack.length - 1]?.node ?? null;
    // A heading with everything under it already written, under the same parent: one copy. A later
    // sibling with the same heading merges into that copy too, and joins its section.
    const sibling = this.siblingOf(u, parent);
    const rest = sibling ? subtree.slice(1) : subtree;
    if (sibling?.node) return this.stackSection(stack, u, sibling.node, sibling.heading, i);
    if (this.written.covers(rest, (x) => keys.lookup(x))) {
      const copies = [...(sibling ? [sibling.heading] : []), ...rest.map((x) => this.written.take(x, keys.lookup(x))!)];
      subtree.forEach((x, k) => this.merge(x, copies[k]!));
      const first = copies[0]!;
      // A heading of the person's own section opens nothing: no later text of the document joins it (fixed ground).
      const node = this.opened.get(first) ?? null;
      if (!sibling) this.siblingsOf(parent).set(siblingKey(u), { node, heading: first });
      return end;
    }
    // A section another file wrote already, heading and all, word for word: written once (issue 40).
    const copies = this.written.takeAll(subtree, plainKeys, (c) => oneSection(c, subtree));
    if (copies) {
      subtree.forEach((x, k) => this.merge(x, copies[k]!));
      return end;
    }
    const found = this.twinSection(units, i, parent);
    const node = found?.node ?? this.sectionFor(u, parent, keys);
    if (found) this.twinOf.set(node, found.twin);
    if (found && !found.node) this.twinHeadings.set(node, found.twin.section);
    stack.push({ level: u.level!, node });
    return i + 1;
  }

  /**
   * A section whose own lines (to the next heading) are mostly written already in one section of
   * another file, a twin of it (issue 40): its lines there are merged into theirs, the rest written
   * into that section when a source opened it under the same words (returned, the heading merged),
   * else in the section this heading opens (after the person's text when theirs: fixed ground).
   */
  private twinSection(units: Unit[], i: number, parent: Addition | null): { node?: Addition; twin: Twin } | undefined {
    const u = units[i]!;
    let end = i + 1;
    while (end < units.length && units[end]!.kind !== 'heading') end++;
    // Joined only under its own words: a heading is never merged into one with other words (render/hollow.ts).
    const into = (s: Unit) => (headingKey(s.lines[0]!) === headingKey(u.lines[0]!) ? this.opened.get(s) : undefined);
    const twin = this.lines.twin(u, units.slice(i + 1, end), into);
    if (!twin) return undefined;
    this.twins.push(twin.report);
    // The person's section, or one of other words: this heading opens a section of its own, its lines there.
    if (!twin.report.joined) return { twin };
    const node = this.opened.get(twin.section)!;
    this.merge(u, twin.section);
    this.siblingsOf(parent).set(siblingKey(u), { node, heading: twin.section });
    return { node, twin };
  }

  /** The section a heading opens, or the one it joins: the same heading under the same parent, another source's or the target's own `## ` section. */
  private sectionFor(u: Unit, parent: Addition | null, keys: PlacedKeys): Addition {
    const opened = this.openSection(u, parent, keys);
    this.siblingsOf(parent).set(siblingKey(u), opened);
    return opened.node;
  }

  /** A repeated sibling heading merged into the first one's heading, its section taking what follows. */
  private stackSection(stack: { level: number; node: Addition }[], u: Unit, node: Addition, heading: Unit, i: number): number {
    this.merge(u, heading);
    stack.push({ level: u.level!, node });
    return i + 1;
  }

  private siblingsOf(parent: Addition | null): Map<string, Sibling> {
    let siblings = this.siblings.get(parent);
    if (!siblings) this.siblings.set(parent, (siblings = new Map()));
    return siblings;
  }

  /** The section an earlier heading of the current document with the same words and level opened under `parent`. */
  private siblingOf(u: Unit, parent: Addition | null): Sibling | undefined {
    return this.siblings.get(parent)?.get(siblingKey(u));
  }

  /**
   * The section a heading opens or joins, and the heading written for it (its own, or the copy it
   * merged into). Only a section another source opened is joined: the person's own sections are fixed
   * ground, a same-named chapter is a section of its own after them (issue 40).
   */
  private openSection(u: Unit, parent: Addition | null, keys: PlacedKeys): { node: Addition; heading: Unit } {
    const copy = this.written.take(u, keys.lookup(u), (c) => this.opened.has(c));
    if (copy) this.merge(u, copy);
    if (copy) return { node: this.opened.get(copy)!, heading: copy };
    const node = emptyAddition(u.lines[0]!, u);
    this.written.add(u, keys.written(u));
    this.opened.set(u, node);
    if (parent) parent.children.push(node);
    // A `### ` section under no `## ` one stands under the target's title when the target has no
    // sections; else after them, under a heading of its own: above them it would precede the person's
    // sections, right after them it would become part of their last one.
    else if (u.level! > 2 && !this.targetSections) this.top().children.push(node);
    else if (u.level! > 2) this.topicSection(this.leadHeading).children.push(node);
    else {
      this.sections.push(node);
      // The document's title stands right above its first chapter, never apart from it (issue 40).
      if (this.pendingTitle) node.before = [[this.pendingTitle]];
      this.pendingTitle = null;
    }
    return { node, heading: u };
  }

  /** A title that names a file, in a comment of the tool's under the target's head. */
  private addTitle(u: Unit, keys: PlacedKeys): void {
    const copy = this.written.take(u, keys.lookup(u));
    if (copy) this.merge(u, copy);
    else {
      this.written.add(u, keys.written(u));
      this.pendingTitle = u;
    }
  }

  /**
   * The rules from `i` to the next heading, block by block, under `node`; a run of numbered items is
   * merged away whole or written whole, never left as a "3./4./5." fragment. What the document said
   * before in the same section is written once. Returns the next index.
   */
  private addRules(units: Unit[], i: number, keys: PlacedKeys, node: Addition | null, flat: boolean): number {
    let end = i;
    while (end < units.length && units[end]!.kind !== 'heading') end++;
    const section = this.repeatsIn(node);
    const twin = node ? this.twinOf.get(node) : undefined;
    const parts = new Map<Unit, Unit>();
    for (const group of numberedRuns(blocksOf(units.slice(i, end), isToolMark))) {
      const all = group.flatMap((b) => b.units);
      const as = section.find(group);
      for (const [u, first] of as) this.merged.push(mergedEntry(u, first, true));
      const own = all.filter((u) => !as.has(u));
      const before = this.merged.length;
      const whole = (u: Unit) => this.written.add(u, keys.written(u));
      const blocks = group.map((b) => b.units.filter((u) => !as.has(u)));
      const kept =
        own.length === 0
          ? []
          : twin
            ? this.lines.units(blocks, twin, this.merged, { whole, copies: as, parts })
            : this.keptUnits(own, keys, as, node === null);
      section.record(all, (u) => as.get(u) ?? u);
      if (kept.length === 0 && own.length > 0 && node) (node.mergedAway ??= []).push({ units: own, entries: this.merged.slice(before) });
      // A twin's differing lines that join another source's section stand where their context is (render/twin-placement.ts).
      if (kept.length === 0 || twin?.placement) continue;
      for (const block of group) {
        const written = block.units.filter((u) => !as.has(u)).map((u) => parts.get(u) ?? u);
        if (written.length === 0) continue;
        if (node) {
          node.blocks.push(written);
          for (const u of written) this.lines.add(node.headingUnit, u);
          continue;
        }
        // Sorted by topic only where nothing else gives structure: a document without headings; a numbered run stays whole.
        // Not in the person's file with sections: a topic section there would stand beside theirs of the same name.
        const topic = flat && !this.targetSections && group.length === 1 && isSortable(block) ? blockTopic(block) : null;
        if (topic) this.topicSection(`## ${topic.title}`).blocks.push(written);
        else this.top().blocks.push(written);
      }
    }
    return end;
  }

  private repeatsIn(node: Addition | null): SectionRepeats {
    let r = this.repeats.get(node);
    if (!r) this.repeats.set(node, (r = new SectionRepeats()));
    return r;
  }

  /** The section the tool names after a topic, opened when missing. */
  private topicSection(heading: string): Addition {
    let a = this.byTopic.get(heading);
    if (!a) {
      this.byTopic.set(heading, (a = emptyAddition(heading, null)));
      this.sections.push(a);
    }
    return a;
  }

  /**
   * The units of a block that are written: a block whose every unit has a copy from another file is
   * merged whole; otherwise a lone unit is merged when it has one and is not a separator, tag, table
   * row or code; the units of a lead-in with its list, or of a line and its answer, stay together.
   */
  private keptUnits(units: Unit[], keys: PlacedKeys, copies: Map<Unit, Unit>, underLead = false): Unit[] {
    // A lone table or code block stands in its own context: merged only where it was written in this one
    // already (a second plan after the migration): under the lead heading in the person's file, or
    // anywhere in a person's file without sections, where what a source says on top goes after their text.
    const lone = units.length === 1 && isStructural(units[0]!);
    const structural = lone && !(underLead && this.lines.holdsUnder(this.targetSections ? this.leadHeading : null, units[0]!));
    if (!structural && this.written.covers(units, (u) => keys.lookup(u))) {
      for (const u of units) {
        const copy = this.written.take(u, keys.lookup(u))!;
        this.merge(u, copy);
        copies.set(u, copy);
      }
      return [];
    }
    // Lines the file holds already are written once (issue 40): in a bullet list with no lead-in, an item written before is merged, the rest kept.
    const list = units.every(isListRule);
    const kept = units.filter((u) => {
      const copy = list ? this.written.take(u, keys.lookup(u)) : undefined;
      if (copy) {
        this.merge(u, copy);
        copies.set(u, copy);
      }
      return !copy;
    });
    for (const u of kept) this.written.add(u, keys.written(u));
    return kept;
  }
}
