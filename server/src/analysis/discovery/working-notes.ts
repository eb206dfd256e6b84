import type { InstructionDoc, Unit } from '../../model/model.js';
import type { AboutAssistantSection } from './about-assistant.js';

/**
 * Text about a piece of work rather than a rule for an assistant (issue 40): working notes, a log of
 * what someone tried and found, dated entries, the status of a task, a checklist of what is done. Copilot
 * would read it as rules. Found by its shape, measured on the text: a section told in the past tense
 * (most of its sentences, at least three, say what was tried, found or done, and none of them orders
 * anything), entries that open with a date, a checklist with items ticked, a "Status: done" line; and a
 * file that says it holds notes ("This file … serves as a repository for detailed working notes") and
 * is told in the past tense in good part is notes whole. A rule written in the past tense ("The v1 API
 * was removed; never call it") orders something, and one such line among rules is no account.
 */
export const NARRATIVE = 'an account of past work (what was tried, found or done), not a rule';
export const NOTES_FILE = 'working notes (the file says it holds notes on a piece of work), not a rule';
export const DATED = 'a dated entry of a log, not a rule';
export const TICKED = "a checklist of a piece of work's progress, not a rule";
export const STATUS = 'the status of a piece of work, not a rule';

/** A past-tense verb: an auxiliary, a subject with a verb in -ed, or a common irregular past. */
const PAST =
  /\b(?:was|were|wasn't|weren't|did|didn't|had|hadn't)\b|\b(?:I|[Ww]e|[Uu]sers?|[Tt]hey|[Ii]t|[Tt]his|[Tt]hat|[Hh]e|[Ss]he)\s+(?:[a-z]+ly\s+)?[a-z]{2,}ed\b|\b(?:came|proved|tried|showed|took|went|became|ran|saw|got|gave|began|broke|chose|wrote|turned out)\b/;
/** A sentence that orders something is a rule, whatever its tense. */
const ORDER = /\b(?:must|should|never|always|do not|don't|avoid|make sure)\b/i;
/** A file that says it holds notes: its subject is the file (or the notes), and a noun of record follows. */
const SAYS_NOTES =
  /^(?:>\s*)*(?:\*\*|__)?(?:This (?:file|document|page|log)|These notes)\b[^.!?]*\b(?:notes|log|journal|diary|record|learnings|observations|findings|history|scratch ?pad|notebook)\b/;
const MONTH = String.raw`(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?`;
const DATE = String.raw`(?:\d{4}-\d{2}-\d{2}|\d{4}/\d{2}/\d{2}|${MONTH}\s+\d{1,2},?\s+\d{4}|\d{1,2}\s+${MONTH}\s+\d{4})`;
/** A unit opening with a date, past its marker and any bold or brackets: "- 2025-03-02: moved …", "## 12 March 2025". */
const OPENS_DATED = new RegExp(
  String.raw`^\s*(?:#{1,6}\s+|(?:[-*+]|\d+[.)])\s+)?(?:\*\*|__|\[)?${DATE}(?:\*\*|__|\])?(?:\s*[:\u2014\u2013-]|\s*$|\s)`,
);
const CHECKBOX = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s/;
const STATUS_LINE =
  /^\s*(?:[-*+]\s+)?(?:\*\*|__)?Status(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\W*(?:done|complete(?:d)?|finished|in progress|wip|blocked|pending|on hold|not started|todo|to do|draft|shipped|merged)\b/i;
const FENCE = /^\s*(`{3,}|~{3,})/;

/** The sentences of a unit's prose (code, tables and fenced lines aside), of four words or more. */
function sentences(u: Unit): string[] {
  if (u.kind !== 'paragraph' && u.kind !== 'list-item') return [];
  const prose: string[] = [];
  let fence = false;
  for (const l of u.lines) {
    if (FENCE.test(l)) fence = !fence;
    else if (!fence && !/^\s*\|/.test(l)) prose.push(l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ''));
  }
  const text = prose
    .join(' ')
    .replace(/`[^`]*`/g, 'X')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text.split(/(?<=[.!?])\s+/).filter((s) => s.trim().split(/\s+/).length >= 4);
}

const told = (s: string) => PAST.test(s) && !ORDER.test(s);

/** How many sentences, and how many of them tell past work. */
function tally(units: Unit[]): { all: number; past: number } {
  let all = 0;
  let past = 0;
  for (const u of units)
    for (const s of sentences(u)) {
      all++;
      if (told(s)) past++;
    }
  return { all, past };
}

const nonBlank = (units: Unit[]) =>
  units.flatMap((x) => x.lines.map((text, k) => ({ line: x.line + k, text }))).filter((l) => l.text.trim() !== '');

const section = (units: Unit[], names: string): AboutAssistantSection => ({
  line: units[0]!.line,
  text: units[0]!.lines[0]!,
  names,
  lines: nonBlank(units),
});

/** The end (exclusive) of the section a heading at `i` opens: the next heading of its level or above. */
function sectionEnd(units: Unit[], i: number): number {
  const level = units[i]!.level ?? 1;
  const end = units.findIndex((n, j) => j > i && n.kind === 'heading' && (n.level ?? 1) <= level);
  return end < 0 ? units.length : end;
}

/** Sections told in the past tense, outermost first: the text before the first heading, then each heading's tree. */
function narrativeSections(units: Unit[]): AboutAssistantSection[] {
  const out: AboutAssistantSection[] = [];
  const first = units.findIndex((u) => u.kind === 'heading');
  const lead = units.slice(0, first < 0 ? units.length : first);
  const spans: [number, number][] = lead.length > 0 ? [[0, lead.length]] : [];
  units.forEach((u, i) => {
    if (u.kind === 'heading') spans.push([i, sectionEnd(units, i)]);
  });
  let taken = -1;
  for (const [start, end] of spans) {
    if (start < taken) continue;
    const { all, past } = tally(units.slice(start, end));
    if (past < 3 || past * 2 < all) continue;
    out.push(section(units.slice(start, end), NARRATIVE));
    taken = end;
  }
  return out;
}

/** Dated entries (two or more in the file): a dated heading with its tree, a dated item or paragraph. */
function datedEntries(units: Unit[]): AboutAssistantSection[] {
  const dated = units.flatMap((u, i) =>
    (u.kind === 'heading' || u.kind === 'list-item' || u.kind === 'paragraph') && OPENS_DATED.test(u.lines[0]!) ? [i] : [],
  );
  if (dated.length < 2) return [];
  return dated.map((i) => section(units.slice(i, units[i]!.kind === 'heading' ? sectionEnd(units, i) : i + 1), DATED));
}

/** A run of checklist items with one ticked or more, and "Status: done" lines. */
function progress(units: Unit[]): AboutAssistantSection[] {
  const out: AboutAssistantSection[] = [];
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    if (u.kind === 'list-item' || u.kind === 'paragraph')
      if (u.lines.length === 1 && STATUS_LINE.test(u.lines[0]!)) out.push(section([u], STATUS));
    if (u.kind !== 'list-item' || !CHECKBOX.test(u.lines[0]!)) continue;
    let end = i;
    while (units[end + 1]?.kind === 'list-item' && CHECKBOX.test(units[end + 1]!.lines[0]!)) end++;
    const run = units.slice(i, end + 1);
    if (run.some((x) => /[xX]/.test(CHECKBOX.exec(x.lines[0]!)![1]!))) out.push(section(run, TICKED));
    i = end;
  }
  return out;
}

/** Whether the file says it holds notes, and is told in the past tense in good part (a fifth of its sentences, three or more). */
function isNotesFile(units: Unit[]): boolean {
  const says = units.some((u) => u.kind === 'paragraph' && SAYS_NOTES.test(u.lines[0]!.trim().replace(/`[^`]*`/g, 'X')));
  if (!says) return false;
  const { all, past } = tally(units);
  return past >= 3 && past * 5 >= all;
}

/**
 * The parts of a document that are notes on a piece of work, each with its lines (a heading with its
 * tree): the whole text when the file says it holds notes, else each section, entry or checklist found, in line order.
 */
export function workingNotes(doc: Pick<InstructionDoc, 'units'>): AboutAssistantSection[] {
  const units = doc.units.filter((u) => u.kind !== 'frontmatter');
  if (units.length === 0) return [];
  if (isNotesFile(units)) return [section(units, NOTES_FILE)];
  const found = [...narrativeSections(units), ...datedEntries(units), ...progress(units)];
  const covered = new Set<number>();
  const out: AboutAssistantSection[] = [];
  for (const s of found.sort((a, b) => a.line - b.line || b.lines.length - a.lines.length)) {
    if (covered.has(s.line)) continue;
    out.push(s);
    for (const l of s.lines) covered.add(l.line);
  }
  return out;
}
