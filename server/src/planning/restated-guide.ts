import type { InstructionDoc, Unit } from '../model/model.js';
import type { AboutAssistantSection } from '../analysis/discovery/about-assistant.js';
import { headingText } from './outline.js';
import { measuredLines } from './render/twin-sections.js';

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
 *   "Timeouts: 60s" does not restate "Timeouts: 30s";
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

/** A measured line of a guide: where it stands and its terms. */
interface Line {
  line: number;
  text: string;
  terms: Set<string>;
}

/** A guide's sections (each heading to the next heading, its `# ` title aside; the text before any heading one of them), with their measured lines. */
function sections(doc: InstructionDoc): { heading: Unit | null; lines: Line[] }[] {
  const out: { heading: Unit | null; lines: Line[] }[] = [{ heading: null, lines: [] }];
  for (const u of doc.units) {
    if (u.kind === 'frontmatter') continue;
    if (u.kind === 'heading') {
      out.push({ heading: (u.level ?? 1) > 1 ? u : null, lines: [] });
      continue;
    }
    for (const l of measuredLines(u)) out[out.length - 1]!.lines.push({ line: u.line + l.k, text: u.lines[l.k]!, terms: terms(l.text) });
  }
  return out.filter((s) => s.lines.length > 0);
}

/** The lines of the base, indexed by term: a line is compared only with the lines it shares a term with. */
export class Base {
  private readonly byTerm = new Map<string, Line[]>();
  readonly topics = new Set<string>();

  add(doc: InstructionDoc): void {
    for (const s of sections(doc)) {
      if (s.heading) this.topics.add(topicKey(s.heading.lines[0]!));
      for (const l of s.lines) for (const t of l.terms) this.byTerm.set(t, [...(this.byTerm.get(t) ?? []), l]);
    }
    for (const u of doc.units) if (u.kind === 'heading' && (u.level ?? 1) > 1) this.topics.add(topicKey(u.lines[0]!));
  }

  /** Whether a line of the base says what `l` says: no number of `l`'s missing, seven in ten of its terms there. */
  restates(l: Line): boolean {
    if (l.terms.size < 2) return false;
    const shared = new Map<Line, number>();
    for (const t of l.terms) for (const b of this.byTerm.get(t) ?? []) shared.set(b, (shared.get(b) ?? 0) + 1);
    const numbers = [...l.terms].filter((t) => DIGIT.test(t));
    for (const [b, n] of shared) if (n * 10 >= l.terms.size * 7 && numbers.every((t) => b.terms.has(t))) return true;
    return false;
  }
}

/** How much of `doc` restates `base`: its sections with lines, those on the base's topics, its lines, those restated. */
export function measure(doc: InstructionDoc, base: Base): { sections: number; onTopic: number; lines: number; restated: number } {
  const out = { sections: 0, onTopic: 0, lines: 0, restated: 0 };
  for (const s of sections(doc)) {
    const restated = s.lines.filter((l) => base.restates(l)).length;
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
    base.add(doc);
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
    next.add(doc);
    bases.set(target, next);
  }
  return out;
}
