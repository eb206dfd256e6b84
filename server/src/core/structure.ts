import { GENERAL_SECTION, SECTION_TOPICS, type SectionTopic } from './topics.js';
import { pushTo } from './collections.js';
import type { Unit } from './model.js';
import { isBlank } from './text.js';

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
  merged: Merged[];
  provenance: Provenance[];
  /** Lines the tool added (section headings); every other output line comes from the source. */
  added: string[];
}

/** A unit plus what travels with it: code under a paragraph, or everything under a heading. */
interface Item {
  units: Unit[];
  blankBefore: boolean;
}

/** Later units identical, byte for byte, to an earlier one are merged into it. */
export function findExactDuplicates(units: Unit[]): Map<Unit, Unit> {
  const firstByText = new Map<string, Unit>();
  const dupes = new Map<Unit, Unit>();
  for (const u of units) {
    if (u.kind === 'frontmatter' || u.kind === 'heading' || u.lines[0]!.startsWith('<!-- copilot-onboard:')) continue;
    const key = u.lines.map((l) => l.trimEnd()).join('\n');
    const first = firstByText.get(key);
    if (first) dupes.set(u, first);
    else firstByText.set(key, u);
  }
  return dupes;
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

/**
 * Turn a flat file into `## ` sections grouped by topic. Order inside a section is the source order;
 * every source line lands exactly once, except exact duplicates, which are merged and listed.
 */
export function restructure(path: string, units: Unit[]): Restructured {
  const dupes = findExactDuplicates(units);
  const merged: Merged[] = [...dupes].map(([u, kept]) => ({
    path: u.path,
    line: u.line,
    lines: u.lines.length,
    keptAt: { path: kept.path, line: kept.line },
    text: u.lines.join('\n'),
  }));
  const kept = units.filter((u) => !dupes.has(u));

  const head: Unit[] = [];
  let rest = kept;
  while (rest[0] && rest[0].kind === 'frontmatter') head.push(rest.shift()!);
  if (rest[0] && rest[0].kind === 'heading' && rest[0].level === 1) head.push(rest.shift()!);
  // Prose right under the title introduces the whole file; it stays there.
  while (rest[0] && rest[0].kind === 'paragraph' && head.length > 0) head.push(rest.shift()!);

  const items = groupItems(rest);
  const bySection = new Map<string, Item[]>();
  for (const item of items) {
    const topic = sectionFor(item.units.flatMap((u) => u.lines).join('\n'));
    pushTo(bySection, topic.id, item);
  }

  const out: string[] = [];
  const provenance: Provenance[] = [];
  const added: string[] = [];
  const emit = (u: Unit) => {
    const start = out.length + 1;
    out.push(...u.lines);
    provenance.push({
      from: { path: u.path, startLine: u.line, endLine: u.line + u.lines.length - 1 },
      to: { path, startLine: start, endLine: out.length },
    });
  };
  for (const u of head) {
    if (out.length > 0) out.push('');
    emit(u);
  }
  for (const topic of [GENERAL_SECTION, ...SECTION_TOPICS]) {
    const sectionItems = bySection.get(topic.id);
    if (!sectionItems) continue;
    if (out.length > 0) out.push('');
    const heading = `## ${topic.title}`;
    out.push(heading, '');
    added.push(heading);
    sectionItems.forEach((item, idx) => {
      const prev = sectionItems[idx - 1];
      const tight = prev && item.units[0]!.kind === 'list-item' && lastUnit(prev).kind === 'list-item' && !item.blankBefore;
      if (idx > 0 && !tight) out.push('');
      item.units.forEach((u, i) => {
        if (i > 0 && u.blankBefore) out.push('');
        emit(u);
      });
    });
  }
  while (out.length > 0 && isBlank(out[out.length - 1]!)) out.pop();
  return { lines: out, merged, provenance, added };
}

function lastUnit(item: Item): Unit {
  return item.units[item.units.length - 1]!;
}

function groupItems(units: Unit[]): Item[] {
  const items: Item[] = [];
  let headingLevel = Infinity;
  for (const u of units) {
    const current = items[items.length - 1];
    const underHeading = current && current.units[0]!.kind === 'heading' && !(u.kind === 'heading' && u.level! <= headingLevel);
    const codeUnderText = current && u.kind === 'code';
    if (underHeading || codeUnderText) {
      current.units.push(u);
      continue;
    }
    headingLevel = u.kind === 'heading' ? u.level! : Infinity;
    items.push({ units: [u], blankBefore: u.blankBefore });
  }
  return items;
}

/** Remove merged duplicates from an otherwise untouched file, and the blank line each leaves behind. */
export function removeDuplicates(allLines: string[], units: Unit[]): { lines: string[]; merged: Merged[]; kept: number[] } {
  const dupes = findExactDuplicates(units);
  const keep = allLines.map(() => true);
  const merged: Merged[] = [];
  for (const [u, kept] of dupes) {
    const start = u.line - 1;
    const end = start + u.lines.length;
    for (let i = start; i < end; i++) keep[i] = false;
    const blankAbove = start === 0 || isBlank(allLines[start - 1] ?? '');
    if (blankAbove && end < allLines.length && isBlank(allLines[end]!)) keep[end] = false;
    merged.push({ path: u.path, line: u.line, lines: u.lines.length, keptAt: { path: kept.path, line: kept.line }, text: u.lines.join('\n') });
  }
  const kept = allLines.map((_, i) => i).filter((i) => keep[i]);
  return { lines: kept.map((i) => allLines[i]!), merged, kept };
}
