import type { InstructionDoc, Unit } from '../model/model.js';
import type { Merged } from '../model/plan.js';
import type { AboutAssistantSection } from '../analysis/discovery/about-assistant.js';
import { isTable } from '../model/unit-shape.js';
import { endsWithColon, headingText } from './outline.js';
import { measuredLines } from './render/twin-sections.js';
import { heldPairs, pairKey } from '../model/place-pairs.js';
import type { Problem } from '../model/problem.js';
import { GRAMMAR_WORDS } from '../analysis/repeats/duplicates.js';

/**
 * A guide that restates, in its own words, a guide its target already holds (issue 40, "a Copilot digest
 * plus its source give one section per topic"): Resume-Matcher's `.agents/AGENTS.md`, `.claude/CLAUDE.md`
 * and `.gemini/GEMINI.md` beside a Copilot file that covers the same topics with other tables and other
 * wording (0–10% of their lines word for word, so no twin section is found). Judged from the text alone:
 *
 * - a section is on a topic of the base when a heading of the base has the same words (markup,
 *   numbering and a parenthesis aside: "3. Skills (AI Agent Patterns)" and "Skills (Reusable Patterns)"),
 *   or when most of its lines (more than half, two at least) restate lines of the base;
 * - a line restates another when it names no number the other lacks and seven in ten of its terms
 *   (words, names and paths, two characters or more) are the other's: "| Backend Dev |
 *   `.github/agents/backend-dev.agent.md` |" restates "| [backend-dev](/.github/agents/backend-dev.agent.md) | FastAPI endpoints, … |";
 *   "Timeouts: 60s" does not restate "Timeouts: 30s"; a line is left out for another only when it
 *   also loses no word a reader would miss (`losesAWord`: "Use pnpm to install." is not left out for
 *   "Use npm to install dependencies.");
 * - a guide restates the base when it has two sections with lines or more, at least half of them on its
 *   topics, and a third of its lines or more restate lines of the base.
 *
 * The base is the person's file at the guide's target, or a guide written there before it (GEMINI.md
 * and an AGENTS.md that say the same). Such a guide is offered in approve's first round to leave out
 * whole ("the Copilot file is already this guide"), its lines listed, kept by default as every such offer.
 */

/** A section's topic words: its heading without markup, leading numbering or a parenthesis. */
export function topicKey(line: string): string {
  return headingText(line)
    .replace(/[*_`]/g, '')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/^\s*(?:\d+|[A-Za-z])[.)]\s+/, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const TERM = /[\p{L}\p{N}]+(?:[.:]\p{N}+)*/gu;
const DIGIT = /\p{N}/u;

/** A line's terms: lower-case words, names and numbers of two characters or more. */
function terms(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(TERM)) if (m[0].length >= 2) out.add(m[0]);
  return out;
}

/**
 * Two terms that are forms of one word: one begins the other ("dev" and "development", "check" and
 * "checker"), or they share their first five letters ("specification", "specified"). "pnpm" and "npm"
 * are two words.
 */
function formsOfOneWord(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return (short.length >= 3 && long.startsWith(short)) || (short.length >= 5 && long.slice(0, 5) === short.slice(0, 5));
}

/** The halves of the joined words of a line's prose ("server-side": side → server); a path's parts ("docs/backend-guide.md") are one name. */
function joinedHalves(text: string): Map<string, string> {
  const joined = new Map<string, string>();
  const prose = text.replace(/\]\([^)]*\)/g, ']').replace(/`[^`]*`/g, ' ');
  for (const m of prose.toLowerCase().matchAll(/([\p{L}\p{N}]+)-([\p{L}\p{N}]+)/gu)) joined.set(m[2]!, m[1]!);
  return joined;
}

/**
 * Whether a line `b` lacks a word of `l`'s (a command's comment too) a reader would miss: not grammar
 * ("to", "use", "always"), not another form of one of `b`'s words ("dev" / "development"), and not the
 * other half of a joined word whose first half `b` has ("server-side" / "on the server"; `joined`:
 * joinedHalves of `l`).
 */
function losesAWord(l: Line, b: Line, joined: Map<string, string>): boolean {
  for (const t of l.all) {
    if (b.all.has(t) || GRAMMAR_WORDS.has(t) || (joined.has(t) && b.all.has(joined.get(t)!))) continue;
    if (![...b.all].some((u) => formsOfOneWord(t, u))) return true;
  }
  return false;
}

/** A measured line of a guide: where it stands, its terms, and whether it is code (a command, its comment aside). */
interface Line {
  path: string;
  line: number;
  text: string;
  terms: Set<string>;
  code: boolean;
  /** The line as the duplicate finders compare lines (render/twin-sections.ts). */
  measured: string;
  /** Its terms, a command's comment included. */
  all: Set<string>;
}

/** A comment alone on a line of code ("# Install all dependencies"): a caption of the command under it, no content of its own. */
const CAPTION = /^\s*(?:#|\/\/)/;
/** A command's comment at its end ("npm run dev   # both servers"): the command is what the line says. */
const TRAILING_COMMENT = /\s+(?:#|\/\/)\s.*$/;

/** The measured line `k` of `u` (text as measured), or null for a caption in code or a line of code without a word. */
function lineOf(u: Unit, k: number, text: string): Line | null {
  const code = u.kind === 'code';
  if (code && CAPTION.test(text)) return null;
  // Terms of the line as written: a link's path is words of it too, wherever it was cut for comparing.
  const raw = u.lines[k]!;
  const said = terms(code ? raw.replace(TRAILING_COMMENT, '') : raw);
  // A line of code with no word of its own (a tree's `│`) says nothing either.
  if (code && said.size === 0) return null;
  return { path: u.path, line: u.line + k, text: u.lines[k]!, terms: said, code, measured: text, all: code ? terms(raw) : said };
}

/** The measured lines of a unit, captions in code aside. */
const linesOf = (u: Unit): Line[] => measuredLines(u).flatMap((l) => lineOf(u, l.k, l.text) ?? []);

/** A guide's sections (each heading to the next heading, its `# ` title aside; the text before any heading one of them), with their measured lines. */
function sections(doc: InstructionDoc): { heading: Unit | null; lines: Line[] }[] {
  const out: { heading: Unit | null; lines: Line[] }[] = [{ heading: null, lines: [] }];
  for (const u of doc.units) {
    if (u.kind === 'frontmatter') continue;
    if (u.kind === 'heading') out.push({ heading: (u.level ?? 1) > 1 ? u : null, lines: [] });
    else out[out.length - 1]!.lines.push(...linesOf(u));
  }
  return out.filter((s) => s.lines.length > 0);
}

/** The lines of the base, indexed by term: a line is compared only with the lines it shares a term with. */
export class Base {
  private readonly byTerm = new Map<string, Line[]>();
  /** The base's headings by their topic words. */
  readonly topics = new Map<string, Unit>();

  /** Add the units of a document written into the target. */
  add(units: Unit[]): void {
    for (const u of units) {
      if (u.kind === 'frontmatter') continue;
      if (u.kind === 'heading') {
        if ((u.level ?? 1) > 1 && !this.topics.has(topicKey(u.lines[0]!))) this.topics.set(topicKey(u.lines[0]!), u);
        continue;
      }
      for (const l of linesOf(u))
        for (const t of l.terms) {
          const at = this.byTerm.get(t);
          if (at) at.push(l);
          else this.byTerm.set(t, [l]);
        }
    }
  }

  /**
   * The line of the base that says what `l` says, if any: one with every number of `l`'s and seven in
   * ten of its terms (every term, for a command: `pnpm test unit` is not `pnpm test e2e`). `whole`: one
   * that lacks no word of `l`'s a reader would miss (`losesAWord`): a line left out for it loses nothing.
   */
  restating(l: Line, whole = false): (Line & { same: boolean }) | undefined {
    if (l.terms.size < 2 && !(l.code && l.terms.size === 1)) return undefined;
    const shared = new Map<Line, number>();
    for (const t of l.terms) for (const b of this.byTerm.get(t) ?? []) shared.set(b, (shared.get(b) ?? 0) + 1);
    const numbers = [...l.terms].filter((t) => DIGIT.test(t));
    const enough = (n: number) => (l.code ? n === l.terms.size : n * 10 >= l.terms.size * 7);
    // Read once for the line, whichever lines of the base it is weighed against.
    const joined = whole ? joinedHalves(l.text) : null;
    const holds = (b: Line) => joined === null || !losesAWord(l, b, joined);
    let found: Line | undefined;
    let equal: Line | undefined;
    for (const [b, n] of shared)
      if (b.path !== l.path && enough(n) && numbers.every((t) => b.terms.has(t)) && holds(b)) {
        if (b.measured === l.measured) return { ...b, same: true };
        if (!equal && b.all.size === l.all.size && [...l.all].every((t) => b.all.has(t))) equal = b;
        found ??= b;
      }
    // A line with the same terms, if any, is the one named as saying it.
    const at = equal ?? found;
    return at && { ...at, same: false };
  }
}

/** How much of `doc` restates `base`: its sections with lines, those on the base's topics, its lines, those restated. */
export function measure(doc: InstructionDoc, base: Base): { sections: number; onTopic: number; lines: number; restated: number } {
  const out = { sections: 0, onTopic: 0, lines: 0, restated: 0 };
  for (const s of sections(doc)) {
    const restated = s.lines.filter((l) => base.restating(l)).length;
    out.lines += s.lines.length;
    out.restated += restated;
    if (!s.heading) continue;
    out.sections++;
    if (base.topics.has(topicKey(s.heading.lines[0]!)) || (restated >= 2 && restated * 2 > s.lines.length)) out.onTopic++;
  }
  return out;
}

/** Why a restating guide is offered: what it restates, and how much. */
export const restatedWhy = (target: string, onTopic: number, sections: number): string =>
  `${target} is already this guide, in other words (${onTopic} of its ${sections} sections on its topics): not rules to add`;

/**
 * The legacy guides that restate what their target already holds, each as one entry with every line of
 * it (its first line named): compared with the person's file at the target, and with the guides written
 * there before them. Only guides of two sections or more are read; a scoped file is compared with its own target only.
 */
export function restatedGuides(
  legacy: InstructionDoc[],
  existing: InstructionDoc[],
  targetOf: (d: InstructionDoc) => string,
): Map<string, AboutAssistantSection> {
  const out = new Map<string, AboutAssistantSection>();
  const bases = new Map<string, Base>();
  for (const doc of existing) {
    const base = new Base();
    base.add(doc.units);
    bases.set(doc.path, base);
  }
  for (const doc of legacy) {
    const target = targetOf(doc);
    const at = bases.get(target);
    const heads = doc.units.filter((u) => u.kind === 'heading' && (u.level ?? 1) > 1).length;
    if (at && heads >= 2) {
      const m = measure(doc, at);
      if (m.sections >= 2 && m.onTopic * 2 >= m.sections && m.restated * 3 >= m.lines) {
        const first = doc.units.find((u) => u.kind !== 'frontmatter');
        if (first) {
          const lines = doc.units
            .filter((u) => u.kind !== 'frontmatter')
            .flatMap((u) => u.lines.flatMap((text, k) => (text.trim() === '' ? [] : [{ line: u.line + k, text }])));
          out.set(doc.path, { line: first.line, text: first.lines[0]!, names: restatedWhy(target, m.onTopic, m.sections), lines });
        }
      }
    }
    // Kept by default, it is written there: a later guide is compared with it too.
    if (heads < 2) continue;
    const next = at ?? new Base();
    next.add(doc.units);
    bases.set(target, next);
  }
  return out;
}

/** A numbered item: with the items after it, a block written whole or not at all. */
const NUMBERED = /^\s*\d+[.)]\s/;
const isContent = (u: Unit): boolean => u.kind !== 'heading' && u.kind !== 'frontmatter' && linesOf(u).length > 0;

/**
 * The blocks of a guide's units that go whole or stay whole: a lead-in with the list, table or code it
 * introduces, a run of numbered items (no "3." fragment), and every other unit alone.
 */
function blocksOf(units: Unit[]): Unit[][] {
  const out: Unit[][] = [];
  for (const u of units) {
    const last = out[out.length - 1];
    const head = last?.[0];
    const follows =
      head !== undefined &&
      u.kind !== 'heading' &&
      ((endsWithColon(head) && (u.kind !== 'paragraph' || isTable(u))) ||
        (NUMBERED.test(head.lines[0]!) && NUMBERED.test(u.lines[0]!) && u.kind === 'list-item') ||
        (head.kind === 'list-item' && NUMBERED.test(head.lines[0]!) && u.kind === 'list-item' && /^\s/.test(u.lines[0]!)));
    if (follows) last!.push(u);
    else out.push([u]);
  }
  return out;
}

type At = { path: string; line: number };
/** A unit not written again: per line of it, the line of the base that says it, and the first such line (for its fences, header, caption). */
type Gone = { first: At; byLine: Map<number, At> };

/** What of a guide is not written again: each unit gone with the lines of the base that say it. */
function restatedUnits(doc: InstructionDoc, base: Base, contested: ReadonlySet<string>): Map<Unit, Gone> {
  const gone = new Map<Unit, Gone>();
  // Two lines analysis reports to contradict each other ("Use pnpm to install" / "Use npm to install
  // dependencies") say two things, however many words they share: neither is the other said again.
  const restating = (l: Line) => {
    const b = base.restating(l, true);
    return b && contested.has(pairKey(l, b)) ? undefined : b;
  };
  for (const block of blocksOf(doc.units)) {
    const found = block.map((u) => (isContent(u) ? linesOf(u).map((l) => [l.line, restating(l)] as const) : []));
    if (!block.some(isContent) || found.some((f) => f.some(([, b]) => b === undefined))) continue;
    // Said word for word: the twins, repeats and digests of render/ write it once, in its section.
    if (found.every((f) => f.every(([, b]) => b!.same))) continue;
    const first = found.flat()[0]![1]!;
    block.forEach((u, i) => {
      const byLine = new Map(found[i]!.map(([line, b]) => [line, { path: b!.path, line: b!.line }] as const));
      gone.set(u, { first: byLine.values().next().value ?? { path: first.path, line: first.line }, byLine });
    });
  }
  // A separator or other unit with nothing of its own goes with the section it stands in, when nothing of that section stays.
  const units = doc.units;
  const heads = units.flatMap((u, i) => (u.kind === 'heading' ? [i] : []));
  [-1, ...heads].forEach((h, k) => {
    const own = units.slice(h + 1, heads[h < 0 ? 0 : k] ?? units.length);
    const taken = own.find((u) => gone.has(u));
    if (!taken || own.some((u) => isContent(u) && !gone.has(u))) return;
    for (const u of own) if (u.kind !== 'frontmatter' && !gone.has(u)) gone.set(u, { first: gone.get(taken)!.first, byLine: new Map() });
  });
  // A heading with nothing left under it goes too, deepest first (a heading its author left empty stays).
  for (let i = units.length - 1; i >= 0; i--) {
    const u = units[i]!;
    if (u.kind !== 'heading') continue;
    let end = i + 1;
    while (end < units.length && !(units[end]!.kind === 'heading' && (units[end]!.level ?? 1) <= (u.level ?? 1))) end++;
    const under = units.slice(i + 1, end).filter((x) => x.kind !== 'frontmatter');
    const taken = under.find((x) => gone.has(x));
    if (!taken || under.some((x) => !gone.has(x))) continue;
    const same = base.topics.get(topicKey(u.lines[0]!));
    gone.set(u, { first: same && same.path !== u.path ? { path: same.path, line: same.line } : gone.get(taken)!.first, byLine: new Map() });
  }
  return gone;
}

/** A guide's lines not written again, each with the line of the target it restates (named as merged). */
export interface RestatedLines {
  path: string;
  target: string;
  merged: Merged[];
  /** How many of its lines are written. */
  kept: number;
}

/**
 * The targets with the units of each restating guide (`guides`) that say what the target already holds
 * left out of it, each line named as merged into the line that says it (issue 40: written once, in other
 * words): the person's file at the target and the guides and files written there before it are the base;
 * a target the person has no file at is left as it is.
 * What adds something is kept, whole, under its own heading.
 */
export function withoutRestated<T extends { path: string; docs: InstructionDoc[] }>(
  targets: T[],
  existing: InstructionDoc[],
  /** The guides read as restating (restatedGuides), and analysis's problems: two lines a reported contradiction holds never restate one another. */
  { guides, problems }: { guides: ReadonlySet<string>; problems: readonly Pick<Problem, 'type' | 'certainty' | 'locations'>[] },
): { targets: T[]; merged: Merged[]; restated: RestatedLines[] } {
  const contested = heldPairs(problems.filter((p) => p.type === 'contradiction' && p.certainty !== 'low'));
  const merged: Merged[] = [];
  const restated: RestatedLines[] = [];
  const out = targets.map((t) => {
    // Only beside the person's own file at the target: guides that restate each other with no such file
    // are twins and drifted copies, which render/ writes once section by section.
    const own = existing.find((d) => d.path === t.path);
    if (!own || !t.docs.some((d) => guides.has(d.path))) return t;
    const base = new Base();
    base.add(own.units);
    const docs = t.docs.map((d) => {
      if (!guides.has(d.path)) return (base.add(d.units), d);
      const gone = restatedUnits(d, base, contested);
      const units = d.units.filter((u) => !gone.has(u));
      base.add(units);
      if (gone.size === 0) return d;
      const lines: Merged[] = [];
      for (const [u, by] of gone)
        u.lines.forEach((text, k) => {
          const keptAt = by.byLine.get(u.line + k) ?? by.first;
          if (text.trim() !== '') lines.push({ path: d.path, line: u.line + k, lines: 1, keptAt, text });
        });
      lines.sort((a, b) => a.line - b.line);
      merged.push(...lines);
      const kept = units.reduce((n, u) => n + u.lines.filter((l) => l.trim() !== '').length, 0);
      restated.push({ path: d.path, target: t.path, merged: lines, kept });
      return { ...d, units };
    });
    return { ...t, docs };
  });
  return { targets: out, merged, restated };
}
