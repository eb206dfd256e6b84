import { GENERAL_SECTION, SECTION_TOPICS, type SectionTopic } from './section-topics.js';
import { blocksOf, isPersona, isSortable, isSplitLine, outlineUnits, type Block } from './outline.js';
import { pushTo } from '../common/collections.js';
import { unclosedFence } from '../model/markdown-units.js';
import type { Unit } from '../model/model.js';
import type { Provenance } from '../model/plan.js';
import { isBlank } from '../common/text.js';
import { demoted, headLength, isToolMark } from '../model/unit-shape.js';

export type { Merged, Provenance } from '../model/plan.js';

export interface Restructured {
  lines: string[];
  provenance: Provenance[];
  /** Lines the tool added (section headings); every other output line comes from the source. */
  added: string[];
}

/** A unit plus what travels with it: code under a paragraph, a lead-in's list, or everything under a heading. */
type Item = Block;

/**
 * The topic a standalone rule belongs to with confidence: more matching words than any other topic.
 * Null when no topic matches or two match equally: the rule then stays where it is.
 */
export function confidentTopic(text: string): SectionTopic | null {
  let best: SectionTopic | null = null;
  let bestScore = 0;
  let second = 0;
  for (const topic of SECTION_TOPICS) {
    const score = new Set((text.match(topic.words) ?? []).map((w) => w.toLowerCase())).size;
    if (score > bestScore) {
      second = bestScore;
      best = topic;
      bestScore = score;
    } else if (score > second) second = score;
  }
  return bestScore > second ? best : null;
}

/** Section a piece of text belongs to: its confident topic, else General (which means: stays in place). */
export function sectionFor(text: string): SectionTopic {
  return confidentTopic(text) ?? GENERAL_SECTION;
}

/** The topic of a block: from its first unit when that is confident (a lead-in names what follows), else from all of it. */
export function blockTopic(block: Block): SectionTopic | null {
  return confidentTopic(block.units[0]!.lines.join('\n')) ?? confidentTopic(block.units.flatMap((u) => u.lines).join('\n'));
}

/** A `## ` heading and the title of a topic name the same section when their words match, case aside. */
export function sameSection(headingLine: string, title: string): boolean {
  const words = (t: string) =>
    t
      .replace(/^\s*#+\s*/, '')
      .trim()
      .replace(/\s+/g, ' ')
      .toLowerCase();
  return words(headingLine) === words(title);
}

/** An existing `## ` section of a flat file: its heading, what is under it, and loose rules that join it. */
interface Section {
  units: Unit[];
  joined: Item[];
}

/**
 * How many leading units stay on top: the head as `headLength` reads it (front matter, the title,
 * tool marks, and under the title the prose that introduces the project and the lines that say who
 * the assistant is). One rule of a flat rule-per-line paragraph is not prose: it ends the head,
 * unless it is such a persona line.
 */
const endsPlanningHead = (u: Unit): boolean => isSplitLine(u) && !isPersona(u);

/**
 * Put a flat file in `## ` sections, a careful maintainer's way. Pseudo-headings ("🎨 Code Style",
 * "**Release:**", "1. Plan the change", a short Title Case line over rules) become real headings one
 * level below the heading they stand under, with their lines under them. The head (front matter,
 * title, the intro and persona lines under it) stays on top. Loose standalone rules before the first
 * section go to the section of their topic, only on a confident match: an existing section of that
 * name (at its end) or a new one, new sections first, in topic order; a rule without a confident
 * topic stays in place, right under the head. Units move whole: a lead-in with its list, table or
 * code, a line with the lines that answer it, a heading with everything under it. Existing sections
 * keep their heading, order and content. Every source line lands exactly once, repeats too.
 */
export function restructure(path: string, sourceUnits: Unit[]): Restructured {
  const units = outlineUnits(sourceUnits).units;
  const headEnd = headLength(units, endsPlanningHead);
  const head = units.slice(0, headEnd);
  const rest = units.slice(headEnd);
  // Below the title, a `# ` heading starts a section as `## ` does, one level down: one title per file.
  const startsSection = (u: Unit) => u.kind === 'heading' && u.level! <= 2;
  const firstSection = rest.findIndex(startsSection);
  const loose = firstSection < 0 ? rest : rest.slice(0, firstSection);
  const sections: Section[] = [];
  for (const u of firstSection < 0 ? [] : rest.slice(firstSection)) {
    if (startsSection(u)) sections.push({ units: [u.level === 1 ? demoted(u) : u], joined: [] });
    else sections[sections.length - 1]!.units.push(u);
  }

  // A file with sections has its structure: it keeps its shape, line for line.
  const title = sourceUnits.find((x) => x.kind !== 'frontmatter');
  if (sourceUnits.some((u) => u.kind === 'heading' && !(u === title && u.level === 1))) return inShape(path, sourceUnits);

  const { inPlace, bySection } = sortLoose(loose, sections);
  const w = new FlatWriter(path);
  // A separator would open the file like front matter: above it goes the title a new Copilot file has.
  if (head.length === 0 && /^\s*-{3,}\s*$/.test(inPlace[0]?.units[0]?.lines[0] ?? '')) w.added('# Copilot instructions');
  head.forEach((u, i) => {
    // A mark sits right on the line before what it marks; lines of one paragraph stay together.
    if (i > 0 && (u.blankBefore || !(isToolMark(head[i - 1]!) || isSplitLine(u)))) w.blank();
    w.emit(u);
  });
  w.items(inPlace, head.length > 0 ? head[head.length - 1]! : null);
  for (const topic of SECTION_TOPICS) {
    const sectionItems = bySection.get(topic.id);
    if (!sectionItems) continue;
    w.blank();
    w.added(`## ${topic.title}`);
    w.items(sectionItems, null);
  }
  for (const s of sections) {
    w.blank();
    s.units.forEach((u, i) => {
      if (i > 0 && (u.blankBefore || u.kind === 'heading' || s.units[i - 1]!.kind === 'heading')) w.blank();
      w.emit(u);
    });
    w.items(s.joined, s.units.length > 1 ? s.units[s.units.length - 1]! : null);
  }
  return w.done();
}

/**
 * The loose rules before the first section, by where they go: on a confident topic, to the existing
 * section of that name (joined) or a new one (by topic); else in place.
 */
function sortLoose(loose: Unit[], sections: Section[]): { inPlace: Item[]; bySection: Map<string, Item[]> } {
  const inPlace: Item[] = [];
  const bySection = new Map<string, Item[]>();
  for (const item of blocksOf(loose, isToolMark)) {
    const topic = isSortable(item) ? blockTopic(item) : null;
    if (!topic) {
      inPlace.push(item);
      continue;
    }
    const existing = sections.find((s) => sameSection(s.units[0]!.lines[0]!, topic.title));
    if (existing) existing.joined.push(item);
    else pushTo(bySection, topic.id, item);
  }
  return { inPlace, bySection };
}

/** A restructured file, written unit by unit with where each came from. */
class FlatWriter {
  private readonly out: string[] = [];
  private readonly provenance: Provenance[] = [];
  private readonly addedLines: string[] = [];

  constructor(private readonly path: string) {}

  blank(): void {
    if (this.out.length > 0 && !isBlank(this.out[this.out.length - 1]!)) this.out.push('');
  }

  /** A line the tool adds. */
  added(line: string): void {
    this.out.push(line);
    this.addedLines.push(line);
  }

  emit(u: Unit): void {
    const start = this.out.length + 1;
    this.out.push(...u.lines);
    this.provenance.push({
      from: { path: u.path, startLine: u.line, endLine: u.line + u.lines.length - 1 },
      to: { path: this.path, startLine: start, endLine: this.out.length },
    });
    // Code left open to the end of the file is closed, so it does not swallow what now follows it.
    const fence = unclosedFence(u);
    if (fence) this.added(fence);
  }

  items(items: Item[], after: Unit | null): void {
    let prev = after;
    for (const item of items) {
      const first = item.units[0]!;
      if (!(prev !== null && tight(prev, first, item.blankBefore))) this.blank();
      item.units.forEach((u, i) => {
        if (i > 0 && u.blankBefore) this.blank();
        this.emit(u);
      });
      prev = lastUnit(item);
    }
  }

  done(): Restructured {
    while (this.out.length > 0 && isBlank(this.out[this.out.length - 1]!)) this.out.pop();
    return { lines: this.out, provenance: this.provenance, added: this.addedLines };
  }
}

/** The units where they stand, the blank lines between them kept, every line the source's. */
function inShape(path: string, units: Unit[]): Restructured {
  const out: string[] = [];
  const provenance: Provenance[] = [];
  const added: string[] = [];
  let next = units[0]?.line ?? 1;
  const title = units.find((u) => u.kind !== 'frontmatter');
  // One title per file: in a file whose chapters are `# ` headings (no `## ` one), a later `# ` heading is a `## ` section.
  const h1Chapters = !units.some((u) => u.kind === 'heading' && u.level === 2);
  for (const source of units) {
    const u = h1Chapters && source.kind === 'heading' && source.level === 1 && source !== title ? demoted(source) : source;
    while (next < u.line) {
      out.push('');
      next++;
    }
    const start = out.length + 1;
    out.push(...u.lines);
    provenance.push({
      from: { path: u.path, startLine: u.line, endLine: u.line + u.lines.length - 1 },
      to: { path, startLine: start, endLine: out.length },
    });
    next = u.line + u.lines.length;
    const fence = unclosedFence(u);
    if (fence) {
      out.push(fence);
      added.push(fence);
    }
  }
  return { lines: out, provenance, added };
}

/** Whether `u` follows `prev` with no blank line: items of one list, or lines of one rule-per-line paragraph. */
function tight(prev: Unit, u: Unit, blankBefore: boolean): boolean {
  if (blankBefore) return false;
  if (u.kind === 'list-item' && prev.kind === 'list-item') return true;
  return u.kind === 'paragraph' && isSplitLine(u) && prev.kind === 'paragraph' && isSplitLine(prev);
}

function lastUnit(item: Item): Unit {
  return item.units[item.units.length - 1]!;
}
