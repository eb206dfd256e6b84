import type { Unit } from '../../model/model.js';

/**
 * Catalogues of an assistant's skills, agents, prompts or commands written as a list or a table
 * anywhere in a file (issue 40): each item names one (a link, code span or bold name leading into such
 * a folder, or a file of that kind) and describes it, under a lead line or a heading. Copilot would
 * read them as rules. A plain name (`schema-diff`) counts only where the lead or heading names skills
 * or such a folder, or inside a section whose catalogue was already found by its paths; a list of
 * rules that mention such a file opens with a verb, not with the file, and is none.
 */
export interface Catalogue {
  /** The lead line (or the first item), as written. */
  line: number;
  text: string;
  names: string;
  lines: { line: number; text: string }[];
}

type Kind = 'skills' | 'agents' | 'prompts' | 'commands';

/** A file of a kind (`SKILL.md`, `x.prompt.md`), or a path into a folder of one kind (`.claude/agents/`, `skills/`); code files aside. */
const KIND_FILE = /(?:^|\/)(SKILL)\.md$|\.(prompt|agent|chatmode)\.md$/i;
// A folder of a kind inside a dot folder (`.github/prompts/`), or a path into a `skills/` folder (`skills/release/`; `src/skills/` itself is code).
const KIND_FOLDER = /(?:^|\/)(?:\.[\w-]+\/(?:[\w.-]+\/)*?(skills|agents|prompts|commands|chatmodes)(?:\/|$)|(skills)\/[\w.-]+)/i;
const CODE_FILE = /\.(?!md$)[a-z0-9]+$/i;
const SKILL_WORD = /\bskills?\b/i;
/** A skill's own name: lower case, with dashes (`schema-diff`). */
const PLAIN_NAME = /^[a-z0-9][a-z0-9_:-]*$/;
/** A list item: its opening name and, after " — ", ": " or " - ", its description. */
const LIST_ITEM =
  /^\s*(?:[-*+]|\d+[.)])\s+(\*\*[^*]+\*\*|`[^`]+`|\[[^\]]*\]\([^)\s]*\))(?::\s+|\s+[\u2014\u2013-]\s+|\s*[:\u2014\u2013]\s*)(\S.*)$/;
const TABLE_RULE = /^\s*\|(?:\s*:?-+:?\s*\|)+\s*$/;

const KINDS: Record<string, Kind> = { skill: 'skills', skills: 'skills', agent: 'agents', agents: 'agents', chatmode: 'agents' };

/** The kind of skill, agent, prompt or command a path names, or null. */
function kindOfPath(p: string): Kind | null {
  const file = KIND_FILE.exec(p);
  if (file) return (KINDS[(file[1] ?? file[2]!).toLowerCase()] ?? 'prompts') as Kind;
  if (CODE_FILE.test(p)) return null;
  const folder = KIND_FOLDER.exec(p);
  if (!folder) return null;
  const f = (folder[1] ?? folder[2]!).toLowerCase();
  return f === 'chatmodes' ? 'agents' : (f as Kind);
}

/**
 * What a name (a cell or an item's opening token) names: the kind of its path, `plain` for a plain
 * name (a skill's where the context says so), or null. A bare `/name` is no proof here (`/src` is a
 * folder, `/events` an endpoint): slash commands count only under a heading naming them (about-assistant.ts).
 */
function kindOfName(token: string): Kind | 'plain' | null {
  const link = /^\[[^\]]*\]\(([^)\s]*)\)$/.exec(token);
  const bare = (link ? link[1]! : token).replace(/^\*\*|\*\*$/g, '').replace(/^`|`$/g, '');
  return kindOfPath(bare) ?? (!link && PLAIN_NAME.test(bare) ? 'plain' : null);
}

/** A table's rows as cells, its header and rule rows aside; null when the lines are not a table. */
function tableRows(lines: string[]): string[][] | null {
  if (lines.length < 3 || !lines.every((l) => /^\s*\|.*\|\s*$/.test(l)) || !TABLE_RULE.test(lines[1]!)) return null;
  return lines.slice(2).map((l) =>
    l
      .trim()
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim()),
  );
}

/** The kind a catalogue of these names is of, or null when it is no catalogue: two items or more, at most one line in three not an item. */
function catalogueKind(kinds: (Kind | null)[]): Kind | null {
  const found = kinds.filter((k): k is Kind => k !== null);
  return found.length >= 2 && found.length * 3 >= kinds.length * 2 ? found[0]! : null;
}

/** The context a lead or heading gives plain names: the kind of a folder it names, or skills when it says so. */
function contextOf(text: string): Kind | null {
  for (const m of text.matchAll(/`([^`]+)`|\]\(([^)\s]+)\)/g)) {
    const k = kindOfPath(m[1] ?? m[2]!);
    if (k) return k;
  }
  return SKILL_WORD.test(text) ? 'skills' : null;
}

/** The kind a lead or heading says in words, the last one named ("Agent Skills": skills), or null. */
function wordKind(text: string): Kind | null {
  const words = [...text.matchAll(/\b(?:sub-?)?(skill|agent|prompt|command|chatmode)s?\b/gi)];
  const last = words.at(-1)?.[1]?.toLowerCase();
  return last === undefined ? null : (KINDS[last] ?? (`${last}s` as Kind));
}

/** What each item of a table (a row naming one in any cell, else its first cell) or of a list (its opening name) names. */
function itemNames(u: Unit, run: Unit[]): (Kind | 'plain' | null)[] {
  const rows = u.kind === 'paragraph' ? tableRows(u.lines) : null;
  if (rows)
    return rows.map((cells) => {
      if (cells.filter((c) => c !== '').length < 2) return null;
      const named = cells.map(kindOfName);
      return named.find((k) => k !== null && k !== 'plain') ?? named[0]!;
    });
  const indent = (x: Unit) => /^\s*/.exec(x.lines[0]!)![0].length;
  return run
    .filter((x) => indent(x) === indent(run[0]!))
    .map((x) => {
      const name = LIST_ITEM.exec(x.lines[0]!)?.[1];
      return name === undefined ? null : kindOfName(name);
    });
}

/** The catalogues of a document, in order: one pass over its units, a check per list run and per table. */
export function catalogues(units: Unit[]): Catalogue[] {
  const out: Catalogue[] = [];
  let heading = '';
  let level = 0;
  // A section in which a catalogue was found by its paths: plain names in its subsections are of its kind.
  let found: { level: number; kind: Kind } | null = null;
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    if (u.kind === 'heading') {
      level = u.level ?? 1;
      if (found && level <= found.level) found = null;
      heading = u.lines[0]!;
      continue;
    }
    const isTable = u.kind === 'paragraph' && u.lines.length >= 3 && u.lines[0]!.trimStart().startsWith('|');
    if (!isTable && u.kind !== 'list-item') continue;
    let end = i;
    while (!isTable && units[end + 1]?.kind === 'list-item') end++;
    const run = units.slice(i, end + 1);
    i = end;
    const prev = units[i - run.length];
    const lead =
      prev?.kind === 'paragraph' && prev.lines.length === 1 && (!u.blankBefore || prev.lines[0]!.trimEnd().endsWith(':')) ? prev : null;
    const names = itemNames(u, run);
    // Most lists name nothing: no context is read for them.
    if (names.filter((n) => n !== null).length < 2) continue;
    const byPath = names.some((n) => n !== null && n !== 'plain');
    const leadText = lead?.lines[0] ?? '';
    const enabled = names.includes('plain') ? (contextOf(leadText) ?? contextOf(heading) ?? found?.kind ?? null) : null;
    const context = enabled === null ? null : (wordKind(leadText) ?? wordKind(heading) ?? enabled);
    const kind = catalogueKind(names.map((n) => (n === 'plain' ? context : n)));
    if (!kind) continue;
    if (byPath) found ??= { level, kind };
    const lines = (lead ? [lead, ...run] : run)
      .flatMap((x) => x.lines.map((text, k) => ({ line: x.line + k, text })))
      .filter((l) => l.text.trim() !== '');
    const label = wordKind(leadText) ?? wordKind(heading) ?? kind;
    out.push({ line: lines[0]!.line, text: lines[0]!.text, names: `a catalogue of ${label}, not a rule`, lines });
  }
  return out;
}
