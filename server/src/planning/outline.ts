import type { Unit } from '../model/model.js';
import { deeper, isLeadIn } from '../model/unit-shape.js';

/**
 * The shape a careful reader sees in a file before anything moves: one rule per line in a flat
 * paragraph, pseudo-headings ("🎨 Code Style", "**Release:**", "1. Plan the change", a short Title
 * Case line) with the lines under them, lead-ins with what they introduce, lines that answer the one
 * before them. Planning moves whole units only; this module says where the units are.
 */

const SENTENCE_END = /[.!?:;)`"'*]$/;
const EMOJI_START = /^\p{Extended_Pictographic}/u;
const SMALL_WORDS = new Set(['a', 'an', 'and', 'or', 'of', 'the', 'to', 'for', 'in', 'on', 'with', 'by', 'at', 'vs', '&', '/', '-', '+']);
/** Lines that answer the line before them and travel with it. */
const ANSWER = /^(but|this way|that way|otherwise|however|instead|in that case|if not|else|unless)\b/i;
/** Lines that say who the assistant is or what the project is: they stay on top, under the title. */
const PERSONA =
  /^(you are|you're|you will be|you act|act as|as an? |your (role|job|task)|this (file|document|guide|repository|repo|project|codebase|service|package|library|app)|we are|our (team|project|codebase)|welcome)\b/i;
/** A title that names a file (`# CLAUDE.md`, `# AGENTS`): not a subject. */
const FILE_NAME_TITLE =
  /^(AGENTS|CLAUDE|GEMINI|\.?cursorrules|\.?windsurfrules|\.?clinerules)$|^[\w.-]+\.(md|mdc|txt)$|^copilot[- ]instructions$/i;
/** The stems above count only as written in capitals (`AGENTS`), not as a word (`Agents`). */
const FILE_STEM = /^(agents|claude|gemini)$/i;

const firstLine = (u: Unit): string => u.lines[0]!.trim();

export const isAnswer = (u: Unit): boolean => u.kind === 'paragraph' && u.lines.length === 1 && ANSWER.test(firstLine(u));
export const isPersona = (u: Unit): boolean => u.kind === 'paragraph' && PERSONA.test(firstLine(u));

/** The text of a heading line without its `#` marks, or of a pseudo-heading as written. */
export const headingText = (line: string): string =>
  line
    .trim()
    .replace(/^#+\s*/, '')
    .replace(/\s+#+$/, '')
    .trim();

/** A heading's words for comparing headings: case, spacing and `#` marks aside. */
export const headingKey = (line: string): string => headingText(line).replace(/\s+/g, ' ').toLowerCase();

/** A `# ` title that names a file rather than a subject. */
export const isFileNameTitle = (line: string): boolean => {
  const text = headingText(line).replace(/[*_`]/g, '');
  return FILE_NAME_TITLE.test(text) && (!FILE_STEM.test(text) || text === text.toUpperCase());
};

function isTitleCase(text: string): boolean {
  const words = text.split(/\s+/);
  if (words.length < 1 || words.length > 5 || text.length > 48) return false;
  if (!/^\p{Lu}/u.test(words[0]!)) return false;
  return words.every((w) => SMALL_WORDS.has(w.toLowerCase()) || /^[\p{Lu}\d]/u.test(w));
}

/** What kind of pseudo-heading a one-line unit is, or null. */
function pseudoKind(u: Unit): 'label' | 'step' | null {
  if (u.lines.length !== 1) return null;
  const t = firstLine(u);
  if (u.kind === 'list-item') {
    const step = /^\d{1,3}[.)]\s+(.*)$/.exec(t);
    if (!step) return null;
    const words = step[1]!.replace(/[*_]/g, '').trim();
    return words.split(/\s+/).length <= 6 && words.length <= 50 && !/[.!?;,:]/.test(words) ? 'step' : null;
  }
  if (u.kind !== 'paragraph') return null;
  if (/^(\*\*|__)[^*_]{1,60}\1:?$/.test(t) || /^(\*\*|__)[^*_]{1,60}:\1$/.test(t)) return 'label';
  if (EMOJI_START.test(t) && t.length <= 60 && !/[.!?]$/.test(t) && t.split(/\s+/).length <= 8) return 'label';
  if (isTitleCase(t) && !SENTENCE_END.test(t)) return 'label';
  return null;
}

/**
 * Whether the unit at `i`, on its own, reads as a pseudo-heading: a short title line with lines
 * under it. A numbered step is one only when the lines under it are not numbered steps themselves.
 */
function isPseudoHeading(units: Unit[], i: number): boolean {
  const kind = pseudoKind(units[i]!);
  const next = units[i + 1];
  // What stands under a pseudo-heading is content: rules, a list, code; not a heading, a comment or nothing.
  if (kind === null || next === undefined || !(next.kind === 'paragraph' || next.kind === 'list-item' || next.kind === 'code'))
    return false;
  if (pseudoKind(next) === kind && kind === 'label') return false;
  // "**Example:**" over code or a list is a lead-in: it stays with what it introduces, as a line.
  if (
    kind === 'label' &&
    firstLine(units[i]!)
      .replace(/[*_]+$/, '')
      .endsWith(':') &&
    (next.kind !== 'paragraph' || isTable(next))
  )
    return false;
  if (kind === 'step') {
    // Lines under it: bullets, or a paragraph when the step does not end a plain numbered list.
    const numbered = (x: Unit | undefined) => x?.kind === 'list-item' && /^\s*\d{1,3}[.)]\s/.test(x.lines[0]!);
    if (numbered(next)) return false;
    return next.kind === 'list-item' || (next.kind === 'paragraph' && !(numbered(units[i - 1]) && pseudoKind(units[i - 1]!) !== 'step'));
  }
  return true;
}

/**
 * A paragraph whose every line is a rule of its own (one rule per line, no bullets, no blank lines)
 * is split into one unit per line: each line can then move, as a unit, without the others.
 */
export function splitRuleLines(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  for (const u of units.flatMap(cutRuns)) {
    const rules = u.lines.filter((l) => !isDescriptive(l)).length;
    if (u.kind !== 'paragraph' || u.lines.length < 2 || !u.lines.every(isRuleLine) || rules * 2 < u.lines.length) {
      out.push(u);
      continue;
    }
    u.lines.forEach((line, k) => {
      out.push({ ...u, line: u.line + k, lines: [line], blankBefore: k === 0 ? u.blankBefore : false, split: true });
    });
  }
  return out;
}

/**
 * A list item or paragraph that runs on, with no blank line, into what a person wrote as the next
 * unit: a capitalised line after a list item, a table after a lead-in, a line after a table. Cut
 * there, so each part moves as the unit it is.
 */
function cutRuns(u: Unit): Unit[] {
  if ((u.kind !== 'paragraph' && u.kind !== 'list-item') || u.lines.length < 2) return [u];
  const parts: Unit[] = [];
  let start = 0;
  const isRow = (l: string) => l.trim().startsWith('|');
  for (let k = 1; k < u.lines.length; k++) {
    const line = u.lines[k]!;
    const prev = u.lines[k - 1]!;
    // Only a line that is not indented runs on lazily; an indented one belongs to the list item.
    const lazy = /^\S/.test(line);
    const lazyStart = u.kind === 'list-item' && lazy && /^\p{Lu}/u.test(line) && !isRow(line) && !/[,(]$/.test(prev.trim());
    const tableEnd = lazy && isRow(prev) && !isRow(line);
    const tableStart = u.kind === 'list-item' && lazy && isRow(line) && !isRow(prev);
    if (lazyStart || tableEnd || tableStart) {
      parts.push({
        ...u,
        kind: start === 0 ? u.kind : 'paragraph',
        line: u.line + start,
        lines: u.lines.slice(start, k),
        blankBefore: start === 0 ? u.blankBefore : false,
      });
      start = k;
    }
  }
  if (start === 0) return [u];
  parts.push({ ...u, kind: 'paragraph', line: u.line + start, lines: u.lines.slice(start), blankBefore: false });
  return parts;
}

/** Whether a unit is one line of a paragraph that `splitRuleLines` took apart (the unit says so: `split`). */
export const isSplitLine = (u: Unit): boolean => u.split === true;

const DESCRIPTIVE_START = new Set([
  'the',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  "it's",
  'we',
  'our',
  'you',
  'your',
  'they',
  'their',
  'there',
  'a',
  'an',
  'each',
  'every',
  'all',
  'some',
  'most',
  'many',
  'i',
  'my',
  'he',
  'she',
]);
const DESCRIPTIVE_VERB = new Set([
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  'go',
  'goes',
  'sit',
  'sits',
  'live',
  'lives',
  'uses',
  'runs',
  'holds',
  'owns',
  'talks',
  'takes',
  'contains',
  'provides',
  'handles',
  'stores',
  'includes',
]);

/** A line that describes (the project, the code) rather than asks for something: prose, not a rule. */
function isDescriptive(line: string): boolean {
  const words = line.trim().toLowerCase().split(/\s+/);
  return DESCRIPTIVE_START.has(words[0]!) || DESCRIPTIVE_VERB.has(words[1] ?? '') || DESCRIPTIVE_VERB.has(words[2] ?? '');
}

function isRuleLine(line: string): boolean {
  const t = line.trim();
  if (t === '' || t.startsWith('|') || /^\p{Ll}/u.test(t) || /^\s/.test(line)) return false;
  return SENTENCE_END.test(t) || pseudoKind({ kind: 'paragraph', path: '', line: 0, lines: [t], blankBefore: false }) !== null;
}

/** A heading made of a source line: `#`s added before it (and a space when it was no heading). */
export function asHeading(u: Unit, level: number): Unit {
  const lvl = Math.min(6, Math.max(1, level));
  if (u.kind === 'heading') {
    const by = lvl - u.level!;
    if (by <= 0 || u.level! + by > 6) return u;
    return { ...u, lines: [deeper(u.lines[0]!, by)], level: lvl };
  }
  return { ...u, kind: 'heading', lines: [`${'#'.repeat(lvl)} ${u.lines[0]!}`], level: lvl, pseudo: true };
}

const NUMBER = /^\s*(\d{1,3})[.)]\s/;
const numberOf = (u: Unit): number | null => (u.kind === 'list-item' ? Number(NUMBER.exec(u.lines[0]!)?.[1] ?? NaN) || null : null);

/**
 * Which units are pseudo-headings, decided per block: a numbered item in a run of numbered items
 * (1, 2, 3… with the lines under each between them) is a heading only when every item of the run
 * is one, each with its own lines under it; otherwise the whole run stays a list. Bold lead lines
 * of the same shape under one heading (`**Frontend:**`, `**Backend:**`) are headings together, when
 * each is a short title with lines under it, or none is.
 */
export function pseudoHeadings(units: Unit[]): boolean[] {
  const verdict = units.map((u, i) => u.kind !== 'frontmatter' && u.kind !== 'heading' && isPseudoHeading(units, i));
  let run: number[] = [];
  let labels = new Map<string, number[]>();
  const close = () => {
    if (run.length > 1 && !run.every((j) => verdict[j])) for (const j of run) verdict[j] = false;
    run = [];
  };
  const closeSection = () => {
    close();
    for (const group of labels.values()) {
      if (group.length < 2 || group.every((j) => verdict[j] === verdict[group[0]!])) continue;
      // Titles (five words or fewer) with lines under each are headings together; rules in bold are lines together.
      const together = group.every((j) => hasLinesUnder(units, j) && firstLine(units[j]!).split(/\s+/).length <= 5);
      for (const j of group) verdict[j] = together;
    }
    labels = new Map();
  };
  units.forEach((u, i) => {
    if (u.kind === 'heading' || u.kind === 'html') return closeSection();
    const n = numberOf(u);
    if (n !== null) {
      const last = run.length > 0 ? numberOf(units[run[run.length - 1]!]!) : null;
      if (last === null || n <= last) close();
      run.push(i);
    }
    const shape = boldShape(u);
    if (shape) labels.set(shape, [...(labels.get(shape) ?? []), i]);
  });
  closeSection();
  return verdict;
}

/** The shape of a bold lead line alone on its line: colon inside, colon after, or none; null for any other line. */
function boldShape(u: Unit): string | null {
  if (u.kind !== 'paragraph' || u.lines.length !== 1 || pseudoKind(u) !== 'label') return null;
  const t = firstLine(u);
  if (/^(\*\*|__)[^*_]+:\1$/.test(t)) return 'inside';
  if (/^(\*\*|__)[^*_]+\1:$/.test(t)) return 'after';
  return /^(\*\*|__)[^*_]+\1$/.test(t) ? 'plain' : null;
}

/** Whether content stands right under a unit: rules, a list, code; not a heading, another label or nothing. */
function hasLinesUnder(units: Unit[], i: number): boolean {
  const next = units[i + 1];
  return (
    next !== undefined && (next.kind === 'paragraph' || next.kind === 'list-item' || next.kind === 'code') && pseudoKind(next) !== 'label'
  );
}

/**
 * The units with every pseudo-heading made a real heading one level below the heading it stands
 * under (one below the title, when it stands under the title or under nothing). `changed` lists them.
 */
export function withPseudoHeadings(units: Unit[]): { units: Unit[]; changed: Unit[] } {
  const out: Unit[] = [];
  const changed: Unit[] = [];
  let above = 1;
  const pseudo = pseudoHeadings(units);
  units.forEach((u, i) => {
    if (u.kind === 'heading') {
      above = u.level!;
      out.push(u);
      return;
    }
    if (pseudo[i]) {
      const h = asHeading(u, Math.min(6, above + 1));
      out.push(h);
      changed.push(h);
      return;
    }
    out.push(u);
  });
  return { units: out, changed };
}

/** The file's units as planning reads them: rule lines apart, pseudo-headings as headings. */
export function outlineUnits(units: Unit[]): { units: Unit[]; changed: Unit[] } {
  return withPseudoHeadings(splitRuleLines(units));
}

/** A block: units that move together. */
export interface Block {
  units: Unit[];
  blankBefore: boolean;
}

const isTable = (u: Unit) => u.kind === 'paragraph' && u.lines[0]!.trim().startsWith('|');

/**
 * Loose units (no heading among them is followed) into blocks that move whole: code with what it
 * follows, a lead-in with its list, table or code, a line with the lines that answer it, a heading
 * with everything under it, a tool mark with what it marks.
 */
export function blocksOf(units: Unit[], isMark: (u: Unit) => boolean): Block[] {
  const blocks: Block[] = [];
  let block: Block | null = null;
  let onlyMarks = false;
  let headingLevel = Infinity;
  let leadIn = false;
  units.forEach((u, index) => {
    const last = block?.units[block.units.length - 1];
    const joins =
      block !== null &&
      (onlyMarks ||
        u.kind === 'code' ||
        (headingLevel < Infinity && !(u.kind === 'heading' && u.level! <= headingLevel)) ||
        isAnswer(u) ||
        (leadIn &&
          (u.kind === 'list-item' || isTable(u)) &&
          last!.kind !== 'code' &&
          !(last!.kind === 'paragraph' && isTable(last!) && u.kind === 'list-item')));
    if (!joins) {
      block = { units: [], blankBefore: u.blankBefore };
      blocks.push(block);
      onlyMarks = true;
    }
    block!.units.push(u);
    if (onlyMarks && !isMark(u)) {
      onlyMarks = false;
      headingLevel = u.kind === 'heading' ? u.level! : Infinity;
      leadIn = isLeadIn(units, index) || endsWithColon(u);
    }
  });
  return blocks;
}

export function endsWithColon(u: Unit): boolean {
  return (
    u.kind === 'paragraph' &&
    u.lines[u.lines.length - 1]!.trimEnd()
      .replace(/[*_]+$/, '')
      .endsWith(':')
  );
}

/** A block that is one standalone rule (with what travels with it), the kind topic sorting may move. */
export function isSortable(b: Block): boolean {
  const first = b.units[0]!;
  if (first.kind === 'heading' || first.kind === 'html' || first.kind === 'code' || first.kind === 'frontmatter') return false;
  if (b.units.length === 1)
    return (
      first.lines.length === 1 ||
      (first.lines[0]!.trimEnd().endsWith(':') && first.lines.slice(1).every((l) => isTable({ ...first, lines: [l] })))
    );
  return endsWithColon(first) || b.units.slice(1).every(isAnswer);
}

/** Lines never merged into another copy: separators, tags, table rows, code. */
export function isStructural(u: Unit): boolean {
  if (u.kind === 'code' || u.kind === 'html' || isTable(u)) return true;
  return u.lines.every((l) => /^\s*([-*_]\s*){3,}$/.test(l) || /^\s*<\/?[\w-]+[^>]*>\s*$/.test(l));
}
