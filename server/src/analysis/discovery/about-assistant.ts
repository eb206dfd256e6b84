import type { InstructionDoc, Unit } from '../../model/model.js';
import { catalogues } from './catalogue.js';
import { ASSISTANT } from './other-assistants.js';

/**
 * Sections about an assistant itself, not rules for the code (issue 40): its keys, the setup of the
 * machine its cloud agent runs on, a catalogue of its skills or commands, what it is. Copilot would
 * read them as its own rules. Found by structure first: a section whose heading (or its first line)
 * names the assistant, and whose body is mostly key chords; a heading naming an agent's machine; a
 * heading naming skills or commands over a list or table whose every item is a skill or a command
 * with its description; a heading or a first line saying what the assistant is. A rule that only
 * mentions an assistant ("Do not commit `.cursor/` files") is none of these.
 */
export interface AboutAssistantSection {
  /** The heading's line, and the heading as written. */
  line: number;
  text: string;
  /** Why: "a section about Cursor itself (its keys), not a rule". */
  names: string;
  /** The section's non-blank lines, its heading and subsections included. */
  lines: { line: number; text: string }[];
}

const NAMED = new RegExp(String.raw`\b(${ASSISTANT})\b`);
/** An agent that runs on a machine of its own: "cloud agent", "background agents", "the agent's VM". */
const AGENT_MACHINE =
  /\b(?:cloud|background|remote|async)\s+agents?\b|\bagents?(?:'s)?\s+(?:environment|env|vms?|machine|sandbox|container|workspace)\b/i;
const MACHINE = /\b(?:cloud|environment|vms?|virtual machine|machine|sandbox|container|set-?up|install(?:ation|ing)?)\b/i;
const WHAT = /\b(?:what is|what's|about|introducing|introduction to|features|capabilities|tips)\b/i;
const CATALOGUE_HEADING = /\b(?:skills?|(?:slash\s+)?commands?|sub-?agents?|custom\s+modes?|prompts?)\b/i;
const SKILLS_HEADING = /\bskills?\b/i;
/** A key chord: Cmd+K, Ctrl+Shift+P, ⌘K. */
const KEY_CHORD = /\b(?:Cmd|Command|Ctrl|Control|Alt|Option|Opt|Shift|Meta|Super|Mod)\s*\+\s*\S|[\u2318\u2325\u2303\u21e7]\s*[A-Za-z0-9]/;
/** "Cursor is an AI code editor…": the lead says what the assistant is. */
const IS_A = new RegExp(String.raw`^\W*(?:${ASSISTANT})\s+(?:is|are)\s+(?:an?|the)\b`);
/** An item that names a skill or a command: `/review`, @reviewer, a link into a skills or commands folder. */
const ITEM_NAME = /^(?:\[[^\]]*\]\([^)]*(?:\/skills\/|SKILL\.md|\/commands\/|\/agents\/|\/prompts\/)[^)]*\)|`?[/@][\w:-]+`?)/i;

/** A skill's own name: lower case, with dashes (`cli-e2e-testing`, **release**). */
const SKILL_NAME = /^[`*]*[a-z0-9][a-z0-9_:-]*[`*]*$/;

const FENCE = /^\s*(`{3,}|~{3,})/;

/** The section's body lines as prose: code and blank lines aside. */
function prose(units: Unit[]): string[] {
  const out: string[] = [];
  let fence = false;
  for (const u of units) {
    if (u.kind === 'code' || u.kind === 'heading') continue;
    for (const l of u.lines) {
      if (FENCE.test(l)) fence = !fence;
      else if (!fence && l.trim() !== '') out.push(l);
    }
  }
  return out;
}

/** A list item or a table row (header and rule rows aside) as its name and description, or null. */
function item(line: string): { name: string; description: string } | null {
  const row = /^\s*\|(.*)\|\s*$/.exec(line);
  if (row) {
    const cells = row[1]!.split('|').map((c) => c.trim());
    if (cells.every((c) => /^:?-+:?$/.test(c)) || cells.length < 2) return null;
    return { name: cells[0]!.replace(/^\*\*|\*\*$/g, ''), description: cells.slice(1).join(' ') };
  }
  const li = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
  if (!li) return null;
  const m = /^(\*\*[^*]+\*\*|`[^`]+`|\[[^\]]*\]\([^)]*\)|\S+)\s*(?:[:\u2014\u2013-]\s*|\s)(.+)$/.exec(li[1]!);
  return m ? { name: m[1]!.replace(/^\*\*|\*\*$/g, ''), description: m[2]! } : null;
}

/** A list or table whose every item is a skill or a command with its description, under at most one line that leads into it. */
function isCatalogue(heading: string, body: string[]): boolean {
  const rule = (l: string | undefined) => l !== undefined && /^\s*\|(?:\s*:?-+:?\s*\|)+\s*$/.test(l);
  // A table's header row ("| Skill | Use for |") and its rule row are not items.
  const lines = body.filter((l, k) => !rule(l) && !rule(body[k + 1]));
  const items = lines.map(item).filter((i) => i !== null && i.description.trim() !== '');
  // Under a "Skills" heading a skill may be named as it is invoked: `db-migrate`, **release** (a class such as `SkillScript` is code, not a skill).
  const names = (name: string) => ITEM_NAME.test(name) || (SKILLS_HEADING.test(heading) && SKILL_NAME.test(name));
  return items.length >= 2 && lines.length - items.length <= 1 && items.every((i) => names(i!.name));
}

/** What the section is about, or null: the assistant named, and the subject. */
function subjectOf(heading: string, body: string[]): { who: string; what: string } | null {
  const lead = body[0] ?? '';
  const named = NAMED.exec(heading)?.[1] ?? NAMED.exec(lead)?.[1] ?? null;
  const chords = body.filter((l) => KEY_CHORD.test(l)).length;
  if (named !== null && chords >= 2 && chords * 2 >= body.length) return { who: named, what: 'its keys' };
  if (AGENT_MACHINE.test(heading) || (NAMED.test(heading) && MACHINE.test(heading)))
    return { who: NAMED.exec(heading)?.[1] ?? 'the agent', what: 'the setup of its machine' };
  if (CATALOGUE_HEADING.test(heading) && isCatalogue(heading, body))
    return { who: named ?? 'the assistant', what: 'a catalogue of its skills or commands' };
  // A heading about the assistant over a lead saying what it is; a lead alone ("Cline is a VS Code extension…") may be the project's own.
  if (NAMED.test(heading) && (WHAT.test(heading) || IS_A.test(lead))) return { who: NAMED.exec(heading)![1]!, what: 'what it is' };
  return null;
}

/**
 * The sections of a document about an assistant itself, outermost first, then in line order every
 * catalogue list or table outside them (with its lead line); a title (the file's first `# `) is never one.
 */
export function aboutAssistantSections(doc: Pick<InstructionDoc, 'units'>): AboutAssistantSection[] {
  const out: AboutAssistantSection[] = [];
  const firstHeading = doc.units.findIndex((u) => u.kind === 'heading');
  let inside = -1;
  doc.units.forEach((u, i) => {
    if (u.kind !== 'heading' || (u.level === 1 && i === firstHeading)) return;
    const level = u.level ?? 1;
    if (inside >= 0 && level > inside) return;
    inside = -1;
    const end = doc.units.findIndex((n, j) => j > i && n.kind === 'heading' && (n.level ?? 1) <= level);
    const body = doc.units.slice(i + 1, end < 0 ? undefined : end);
    const heading = u.lines[0]!.replace(/^\s*#+\s*/, '').replace(/\s*#*\s*$/, '');
    const subject = subjectOf(heading, prose(body));
    if (!subject) return;
    inside = level;
    const lines = [u, ...body].flatMap((x) => x.lines.map((text, k) => ({ line: x.line + k, text }))).filter((l) => l.text.trim() !== '');
    out.push({ line: u.line, text: u.lines[0]!, names: `a section about ${subject.who} itself (${subject.what}), not a rule`, lines });
  });
  const covered = new Set(out.flatMap((s) => s.lines.map((l) => l.line)));
  const lists = catalogues(doc.units).filter((c) => !c.lines.some((l) => covered.has(l.line)));
  return out.concat(lists).sort((a, b) => a.line - b.line);
}
