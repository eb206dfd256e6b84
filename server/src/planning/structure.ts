import { GENERAL_SECTION, SECTION_TOPICS, type SectionTopic } from './section-topics.js';
import { pushTo } from '../common/collections.js';
import { unclosedFence } from '../model/markdown-units.js';
import type { Unit } from '../model/model.js';
import { isBlank } from '../common/text.js';
import { demoted, headLength, isLeadIn, isToolMark } from '../model/unit-shape.js';

export interface Merged {
  path: string;
  line: number;
  lines: number;
  keptAt: { path: string; line: number };
  text: string;
}

export interface Provenance {
  from: { path: string; startLine: number; endLine: number };
  to: { path: string; startLine: number; endLine: number };
}

export interface Restructured {
  lines: string[];
  provenance: Provenance[];
  /** Lines the tool added (section headings); every other output line comes from the source. */
  added: string[];
}

/** A unit plus what travels with it: code under a paragraph, or everything under a heading. */
interface Item {
  units: Unit[];
  blankBefore: boolean;
}

/** Section a piece of text belongs to: the topic with the most matching words; ties go to the first listed. */
export function sectionFor(text: string): SectionTopic {
  let best: SectionTopic = GENERAL_SECTION;
  let bestScore = 0;
  for (const topic of SECTION_TOPICS) {
    const score = text.match(topic.words)?.length ?? 0;
    if (score > bestScore) {
      best = topic;
      bestScore = score;
    }
  }
  return best;
}

/** A `## ` heading and the title of a topic name the same section when their words match, case aside. */
export function sameSection(headingLine: string, title: string): boolean {
  const words = (t: string) => t.replace(/^\s*#+\s*/, '').trim().replace(/\s+/g, ' ').toLowerCase();
  return words(headingLine) === words(title);
}

/** An existing `## ` section of a flat file: its heading, what is under it, and loose rules that join it. */
interface Section {
  units: Unit[];
  joined: Item[];
}

/**
 * Put a flat file in `## ` sections. The head (front matter, title, the prose under the title) stays
 * on top. Loose rules before the first `## ` section go to the section of their topic: an existing
 * section of that name (at its end) or a new one; new sections come first, in topic order. Existing
 * sections keep their heading, order and content. Order inside a section is the source order; every
 * source line lands exactly once, repeats too.
 */
export function restructure(path: string, units: Unit[]): Restructured {
  const headEnd = headLength(units);
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

  const bySection = new Map<string, Item[]>();
  for (const item of groupItems(loose)) {
    const topic = sectionFor(item.units.flatMap((u) => u.lines).join('\n'));
    const existing = sections.find((s) => sameSection(s.units[0]!.lines[0]!, topic.title));
    if (existing) existing.joined.push(item);
    else pushTo(bySection, topic.id, item);
  }

  const out: string[] = [];
  const provenance: Provenance[] = [];
  const added: string[] = [];
  const blank = () => {
    if (out.length > 0 && !isBlank(out[out.length - 1]!)) out.push('');
  };
  const emit = (u: Unit) => {
    const start = out.length + 1;
    out.push(...u.lines);
    provenance.push({
      from: { path: u.path, startLine: u.line, endLine: u.line + u.lines.length - 1 },
      to: { path, startLine: start, endLine: out.length },
    });
    // Code left open to the end of the file is closed, so it does not swallow what now follows it.
    const fence = unclosedFence(u);
    if (fence) {
      out.push(fence);
      added.push(fence);
    }
  };
  const emitItems = (items: Item[], after: Unit | null) => {
    let prev = after;
    for (const item of items) {
      const first = item.units[0]!;
      const tight = prev !== null && first.kind === 'list-item' && prev.kind === 'list-item' && !item.blankBefore;
      if (!tight) blank();
      item.units.forEach((u, i) => {
        if (i > 0 && u.blankBefore) blank();
        emit(u);
      });
      prev = lastUnit(item);
    }
  };
  head.forEach((u, i) => {
    // A mark sits right on the line before what it marks.
    if (i > 0 && !isToolMark(head[i - 1]!)) blank();
    emit(u);
  });
  for (const topic of [GENERAL_SECTION, ...SECTION_TOPICS]) {
    const sectionItems = bySection.get(topic.id);
    if (!sectionItems) continue;
    blank();
    const heading = `## ${topic.title}`;
    out.push(heading);
    added.push(heading);
    emitItems(sectionItems, null);
  }
  for (const s of sections) {
    blank();
    s.units.forEach((u, i) => {
      if (i > 0 && u.blankBefore) blank();
      emit(u);
    });
    emitItems(s.joined, s.units.length > 1 ? s.units[s.units.length - 1]! : null);
  }
  while (out.length > 0 && isBlank(out[out.length - 1]!)) out.pop();
  return { lines: out, provenance, added };
}

function lastUnit(item: Item): Unit {
  return item.units[item.units.length - 1]!;
}

/**
 * Loose units into items that move together: a heading with what is under it, code with what it
 * follows, a lead-in with its list, a mark with what it marks.
 */
function groupItems(units: Unit[]): Item[] {
  const items: Item[] = [];
  let item: Item | null = null;
  let onlyMarks = false;
  let headingLevel = Infinity;
  let leadIn = false;
  units.forEach((u, index) => {
    const joins =
      item !== null &&
      (onlyMarks ||
        u.kind === 'code' ||
        (headingLevel < Infinity && !(u.kind === 'heading' && u.level! <= headingLevel)) ||
        (leadIn && u.kind === 'list-item' && lastUnit(item).kind !== 'code'));
    if (!joins) {
      item = { units: [], blankBefore: u.blankBefore };
      items.push(item);
      onlyMarks = true;
    }
    item!.units.push(u);
    if (onlyMarks && !isToolMark(u)) {
      // The unit that decides what the item gathers: a heading, a lead-in, or anything else.
      onlyMarks = false;
      headingLevel = u.kind === 'heading' ? u.level! : Infinity;
      leadIn = isLeadIn(units, index);
    }
  });
  return items;
}
