import fs from 'node:fs';
import path from 'node:path';
import { splitText } from '../../server/src/common/text.js';
import type { Plan } from '../../server/src/planning/plan.js';
import { topicKey } from '../../server/src/planning/restated-guide.js';
import { fenced } from './debris.js';

/**
 * The fidelity measures read from a plan's own record (issue 40, "written once" and "no note about a
 * file the plan does not write"), each a list of cases so that a count of 0 can be shown with what broke it:
 * - lines lost: a non-blank line of a migrated file (one whose lines moved out of it) that no written
 *   file holds, and that the plan names neither as merged nor as dropped, nor in a note;
 * - written twice: a rule the plan reports as an exact duplicate, written again in the same section of
 *   one file, not indented (a line of a larger unit) and not after another lead-in (a repeat in another
 *   section, or said of something else, stands in its own context and is counted apart, not a defect);
 * - notes naming an instruction file that is neither in the repository nor written by the plan.
 */
export interface PlanFidelity {
  linesLost: string[];
  writtenTwice: string[];
  /** A section (heading and every line under it) written again word for word in one file, from another source. */
  sectionsTwice: string[];
  /** A source's section written as a section of its own in a file that already holds most of its lines in one section from another file. */
  sectionsMostlyThere: string[];
  /** A heading whose topic (its words, markup, numbering and a parenthesis aside) a heading from another file has already in the same written file. */
  topicsTwice: string[];
  /** Exact duplicates written again in another section of the same file: listed, not a defect. */
  repeatedElsewhere: string[];
  notesUnwritten: string[];
}

const at = (p: string, line: number) => `${p}:${line}`;
const HEADING = /^ {0,3}#{1,6}\s/;
const FRONT_MATTER = /^---\s*$/;
const LEAD_IN = /^(?![-*+]\s|\d+[.)]\s).*:[*_`]*\s*$/;

/** The lines of a file's leading front matter (fences included), 1-based. */
function frontMatterLines(lines: string[]): Set<number> {
  const out = new Set<number>();
  if (!FRONT_MATTER.test(lines[0] ?? '')) return out;
  const end = lines.findIndex((l, i) => i > 0 && FRONT_MATTER.test(l));
  if (end < 0) return out;
  for (let i = 0; i <= end; i++) out.add(i + 1);
  return out;
}

/** A line with each link named after its file, and each `@path`, written as `@` and the file's name: one reference, one form. */
const sameReferences = (line: string): string =>
  line
    .replace(/\[`?([^\]`\s]+)`?\]\(([^()\s#?]+)\)/g, (all, text: string, dest: string) =>
      dest.split('/').pop() === text.split('/').pop() ? `@${dest.split('/').pop()}` : all,
    )
    .replace(/(^|\s)@([^\s`@()]+?)(?=[.,:;!?]?(?:\s|$))/g, (_, lead: string, dest: string) => `${lead}@${dest.split('/').pop()}`);

/**
 * The sections of a written file (a heading to the next heading, fenced code aside) said twice word for
 * word, heading and all, the second from another file than the first: `line "heading" (first at line n)`.
 * A section with nothing but blank lines and separators under it says nothing and is not counted.
 */
function sectionsTwice(lines: string[], code: boolean[], fileOf: (i: number) => string): string[] {
  const out: string[] = [];
  const seen = new Map<string, { line: number; file: string }>();
  const heads = lines.flatMap((l, i) => (!code[i] && HEADING.test(l) ? [i] : []));
  heads.forEach((h, k) => {
    const body = lines.slice(h + 1, heads[k + 1] ?? lines.length).map((l) => l.trim());
    if (!body.some((l) => l !== '' && !/^(?:-{3,}|\*{3,}|_{3,})$/.test(l))) return;
    const key = `${lines[h]!.replace(/^#+\s*/, '').trim()}\u0000${body.filter((l) => l !== '').join('\n')}`;
    const first = seen.get(key);
    if (!first) return void seen.set(key, { line: h + 1, file: fileOf(h) });
    if (first.file !== fileOf(h)) out.push(`${h + 1} ${JSON.stringify(lines[h]!.trim())} (first at line ${first.line})`);
  });
  return out;
}

/** A line as a section's measure reads it: spaces collapsed, each link or path cut to its last name. */
const measured = (line: string): string =>
  line
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\]\(([^()\s]*\/)?([^()\s/]*)\)/g, ']($2)');
const TABLE_RULE = /^\|?(\s*:?-{3,}:?\s*\|)+\s*:?-{0,}:?\s*\|?$/;
const SEPARATOR = /^(?:-{3,}|\*{3,}|_{3,})$/;

/**
 * The lines of a written file's sections (a heading to the next heading of any level) that say
 * something of their own: not blank, a fence, a separator, a table's rule or its header row.
 */
function sectionLines(lines: string[], code: boolean[]): { head: number; lines: string[] }[] {
  const out: { head: number; lines: string[] }[] = [];
  lines.forEach((l, i) => {
    if (!code[i] && HEADING.test(l)) return void out.push({ head: i, lines: [] });
    const t = l.trim();
    if (out.length === 0 || t === '' || /^(`{3,}|~{3,})/.test(t) || SEPARATOR.test(t) || TABLE_RULE.test(t)) return;
    if (t.startsWith('|') && TABLE_RULE.test(lines[i + 1]?.trim() ?? '')) return;
    out[out.length - 1]!.lines.push(measured(l));
  });
  return out;
}

/**
 * A source's section written as a section of its own after a section from another file (the person's
 * or another source's) that holds most of its lines already: more than half, two at least (a twin or
 * digest written again, issue 40). `line "heading" (n of m lines in the section at line k)`.
 */
function sectionsMostlyThere(lines: string[], code: boolean[], fileOf: (i: number) => string): string[] {
  const out: string[] = [];
  const before: { head: number; file: string; lines: Set<string> }[] = [];
  for (const s of sectionLines(lines, code)) {
    const file = fileOf(s.head);
    let best: { head: number; n: number } | null = null;
    for (const b of before) {
      if (b.file === file) continue;
      const n = s.lines.filter((l) => b.lines.has(l)).length;
      if (!best || n > best.n) best = { head: b.head, n };
    }
    if (best && best.n >= 2 && best.n * 2 > s.lines.length)
      out.push(
        `${s.head + 1} ${JSON.stringify(lines[s.head]!.trim())} (${best.n} of ${s.lines.length} lines in the section at line ${best.head + 1})`,
      );
    before.push({ head: s.head, file, lines: new Set(s.lines) });
  }
  return out;
}

/** The words (three letters or more) of the headings a heading stands under in a written file, its title aside. */
function subjects(lines: string[], heads: number[]): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  const open: { level: number; words: string[] }[] = [];
  for (const i of heads) {
    const level = /^ {0,3}(#+)/.exec(lines[i]!)![1]!.length;
    while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop();
    out.set(i, new Set(open.flatMap((o) => o.words)));
    // The file's `# ` title is every section's: no subject of its own.
    open.push({
      level,
      words:
        level < 2
          ? []
          : topicKey(lines[i]!)
              .split(' ')
              .filter((w) => w.length >= 3),
    });
  }
  return out;
}

/**
 * The headings of a written file whose topic a heading from another file has there already (issue 40, "a
 * Copilot digest plus its source give one section per topic": Resume-Matcher's "### Frontend",
 * "### Definition of Done", "### Available Agents" written twice): `line "heading" (first at line n)`.
 * Headings of one file that share a topic (a monorepo's "### Testing" under each package) are its own
 * shape, and two sources' headings under titles of other subjects ("## Database" under "# Orders API"
 * and under "# Billing worker") are two topics; a heading of the person's file always counts.
 */
function topicsTwice(lines: string[], code: boolean[], fileOf: (i: number) => string, own: string): string[] {
  const out: string[] = [];
  const seen = new Map<string, { line: number; file: string; under: Set<string> }[]>();
  const heads = lines.flatMap((l, i) => (!code[i] && HEADING.test(l) ? [i] : []));
  const under = subjects(lines, heads);
  for (const i of heads) {
    const topic = topicKey(lines[i]!);
    if (topic === '') continue;
    const here = { line: i + 1, file: fileOf(i), under: under.get(i)! };
    const before = seen.get(topic) ?? [];
    const same = (b: typeof here) => b.file === own || here.file === own || [...b.under].some((w) => here.under.has(w));
    const other = before.find((b) => b.file !== here.file && same(b));
    if (other) out.push(`${i + 1} ${JSON.stringify(lines[i]!.trim())} (first at line ${other.line})`);
    seen.set(topic, [...before, here]);
  }
  return out;
}

/** A plan's counters with nothing found yet. */
export const noPlanCases = (): PlanFidelity => ({
  linesLost: [],
  writtenTwice: [],
  sectionsTwice: [],
  sectionsMostlyThere: [],
  topicsTwice: [],
  repeatedElsewhere: [],
  notesUnwritten: [],
});

export function planFidelity(repo: string, plan: Plan, name = '', linesOf: (p: string) => string[]): PlanFidelity {
  const f = noPlanCases();
  // Lines lost.
  const landed = new Set<string>();
  for (const s of plan.provenance) for (let l = s.from.startLine; l <= s.from.endLine; l++) landed.add(at(s.from.path, l));
  for (const m of plan.merged) for (let k = 0; k < m.lines; k++) landed.add(at(m.path, m.line + k));
  for (const d of plan.dropped) landed.add(at(d.path, d.line));
  // Lines for another assistant the approve form lists as what "leave out" drops.
  for (const a of plan.assistants) for (const l of a.leftOut) landed.add(at(a.path, l.line));
  const noted = plan.notes.join('\n');
  const moved = new Set(plan.provenance.filter((p) => p.from.path !== p.to.path).map((p) => p.from.path));
  for (const p of [...moved].sort()) {
    const lines = linesOf(p);
    const front = frontMatterLines(lines);
    lines.forEach((l, i) => {
      if (l.trim() === '' || front.has(i + 1) || landed.has(at(p, i + 1)) || noted.includes(at(p, i + 1))) return;
      f.linesLost.push(`${name}: ${at(p, i + 1)} ${JSON.stringify(l.trim().slice(0, 80))}`);
    });
  }
  // Exact duplicates written twice.
  const exact = new Set<string>();
  // Exact duplicates, and near ones with all their words the same (a link and an `@` import of one file).
  for (const p of plan.problems)
    if (p.type === 'duplication' && (p.kind === 'exact' || (p.kind === 'near' && /\b100% the same words/.test(p.description))))
      for (const l of p.locations) exact.add(at(l.path, l.line));
  const source = new Map<string, string>();
  for (const s of plan.provenance)
    for (let k = 0; k <= s.to.endLine - s.to.startLine; k++)
      source.set(at(s.to.path, s.to.startLine + k), at(s.from.path, s.from.startLine + k));
  for (const o of plan.operations) {
    if (o.content === null) continue;
    const lines = splitText(o.content).lines;
    const code = fenced(lines);
    f.sectionsTwice.push(
      ...sectionsTwice(lines, code, (i) => source.get(at(o.path, i + 1))?.split(':')[0] ?? o.path).map((c) => `${name}: ${o.path}:${c}`),
    );
    // The file a section comes from: its heading's, or (a heading of the tool's) its first written line's.
    const fileOf = (i: number) => {
      for (let k = i; k < lines.length && (k === i || !HEADING.test(lines[k]!)); k++) {
        const from = source.get(at(o.path, k + 1));
        if (from) return from.split(':')[0]!;
      }
      return o.path;
    };
    f.sectionsMostlyThere.push(...sectionsMostlyThere(lines, code, fileOf).map((c) => `${name}: ${o.path}:${c}`));
    f.topicsTwice.push(...topicsTwice(lines, code, fileOf, o.path).map((c) => `${name}: ${o.path}:${c}`));
    const bySection = new Map<string, number>();
    const anywhere = new Map<string, number>();
    let section = 0;
    lines.forEach((l, i) => {
      if (code[i]) return;
      // A heading starts a section, and so does a lead-in ("**Manual setup**:"): what follows is said of it.
      if (HEADING.test(l) || LEAD_IN.test(l)) return void (section = i + 1);
      // An indented line is part of a larger unit (a nested bullet, code in a list item), not a rule of its own.
      if (/^\s/.test(l)) return;
      const from = source.get(at(o.path, i + 1));
      if (!from || !exact.has(from)) return;
      const text = sameReferences(l.trim());
      const shown = `${name}: ${at(o.path, i + 1)} ${JSON.stringify(text.slice(0, 80))}`;
      if (bySection.has(`${section}\u0000${text}`))
        f.writtenTwice.push(`${shown} (again in its section, first at line ${bySection.get(`${section}\u0000${text}`)})`);
      else if (anywhere.has(text)) f.repeatedElsewhere.push(`${shown} (first at line ${anywhere.get(text)})`);
      bySection.set(`${section}\u0000${text}`, bySection.get(`${section}\u0000${text}`) ?? i + 1);
      anywhere.set(text, anywhere.get(text) ?? i + 1);
    });
  }
  // Notes that name an instruction file the plan neither finds nor writes.
  const written = new Set(plan.operations.filter((o) => o.content !== null).map((o) => o.path));
  const there = (p: string) => written.has(p) || fs.existsSync(path.join(repo, p));
  // The plan's notes, and the notes of the options the approve form shows.
  for (const note of [...plan.notes, ...plan.legacy.map((l) => l.note)])
    for (const m of note.matchAll(/(?:^|[\s"'(`])(\.github\/(?:copilot-instructions\.md|instructions\/[^\s"'`),;:]+\.instructions\.md))/g))
      if (!there(m[1]!)) f.notesUnwritten.push(`${name}: ${m[1]} in ${JSON.stringify(note.slice(0, 120))}`);
  return f;
}
