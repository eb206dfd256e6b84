import { unclosedFence } from '../../model/markdown-units.js';
import type { Unit } from '../../model/model.js';
import type { Merged } from '../../model/plan.js';
import { isBlank } from '../../common/text.js';
import { movablePaths, splitDestination } from '../../model/links.js';

/**
 * Output text with, for every line, the source line it came from (null for lines the tool added:
 * section headings, front matter, conflict marks, blank separators). Planning builds every target
 * file as one of these, so provenance and the lossless check come from the same record.
 */
export interface LineRef {
  path: string;
  line: number;
}

export interface Rendered {
  lines: string[];
  refs: (LineRef | null)[];
}

/**
 * Part of a unit, written apart from the rest of it (render/twin-sections.ts: a code block's lines a
 * twin section adds): `at` gives the line in its file of each of its lines, which need not follow on.
 */
export interface UnitPart extends Unit {
  at: number[];
}

/** A unit's text, each line's trailing space aside: equal units have equal texts. */
export const unitText = (u: Unit): string => joinTrimmed(u.lines);

const joinTrimmed = (lines: string[]): string => lines.map((l) => linkNames(l.trimEnd())).join('\n');

/**
 * A line with each relative link destination cut to its last name and what follows (`../docs/guide.md#a`
 * reads `guide.md#a`): a unit is found again after a move rewrote its links (render/links.ts), and
 * a second plan over a migrated repository finds its units written already.
 */
export function linkNames(line: string): string {
  const found = movablePaths(line);
  if (found.length === 0) return line;
  let out = line;
  for (const d of found.reverse()) {
    const dest = out.slice(d.start, d.end);
    const { path: p, rest } = splitDestination(dest);
    const name = p.replace(/\/+$/, '').split('/').pop() ?? '';
    // An `@path` is written as a link named by its path (render/links.ts): both read `[name](name)`.
    if (d.form === 'at') out = `${out.slice(0, d.start - 1)}[${name}](${name}${rest})${out.slice(d.end)}`;
    else out = `${out.slice(0, d.start)}${name}${rest}${out.slice(d.end)}`;
  }
  return out.replace(PATH_NAMED_LINK, '[$1]($1$2)');
}

/** A link whose text is a path ending in the name it leads to: `[docs/guide.md](guide.md)`. */
const PATH_NAMED_LINK = /\[[^\]\s]*?\/([^\]\s/]+)\]\(\1([#?][^)]*)?\)/g;

export function fromUnit(u: Unit): Rendered {
  const at = (u as Partial<UnitPart>).at;
  return { lines: [...u.lines], refs: u.lines.map((_, i) => ({ path: u.path, line: at?.[i] ?? u.line + i })) };
}

/** A unit as written among others: code left open to the end of its file gets a closing fence. */
export function placed(u: Unit): Rendered {
  if (u.kind === 'heading' && u.level === 1) return titleOf(u);
  const fence = unclosedFence(u);
  const r = fromUnit(u);
  return fence ? { lines: [...r.lines, fence], refs: [...r.refs, null] } : r;
}

/** The text of a unit as `placed` writes it (an open code fence closed). */
export const placedText = (u: Unit): string => joinTrimmed(placed(u).lines);

/** A legacy `# ` heading in its comment: only the heading line comes from the source. */
function titleOf(u: Unit): Rendered {
  const lines = titleLines(u);
  if (lines.length === 1) return fromUnit(u);
  return { lines, refs: [null, { path: u.path, line: u.line }, null] };
}

const TITLE_NOTE = (path: string) => `<!-- copilot-onboard: top-level heading from ${path}, kept as a comment (one title per file):`;
const TITLE_NOTE_LINE = /^<!-- copilot-onboard: top-level heading from .*, kept as a comment \(one title per file\):$/;

/**
 * A legacy `# ` heading as it is written in Copilot's file: its line, byte for byte, inside a comment
 * of the tool's. A heading that would close the comment early is written as it is.
 */
export function titleLines(u: Unit): string[] {
  return u.lines[0]!.includes('-->') ? [...u.lines] : [TITLE_NOTE(u.path), u.lines[0]!, '-->'];
}

/** The text of a legacy `# ` heading once written into Copilot's file. */
export const titleText = (u: Unit): string => joinTrimmed(titleLines(u));

/**
 * The `# ` heading line the tool kept in a comment, whichever file's name the comment gives, or null.
 * The unit is read from a file already written, so the comment's words are all there is to read.
 */
export function keptTitle(u: Unit): string | null {
  const [note, line, close] = u.lines;
  const kept = u.kind === 'html' && u.lines.length === 3 && close!.trim() === '-->' && TITLE_NOTE_LINE.test(note!.trimEnd());
  return kept ? line!.trimEnd() : null;
}

/** A file's lines as they are, every non-blank one its own. */
export function asItIs(path: string, fileLines: string[]): Rendered {
  return { lines: [...fileLines], refs: fileLines.map((l, i) => (isBlank(l) ? null : { path, line: i + 1 })) };
}

/** Append `r` to `out`. */
export function push(out: Rendered, r: Rendered): void {
  out.lines.push(...r.lines);
  out.refs.push(...r.refs);
}

/** Take the blank lines off the end of `out`. */
export function trimEnd(out: Rendered): void {
  while (out.lines.length > 0 && isBlank(out.lines[out.lines.length - 1]!)) {
    out.lines.pop();
    out.refs.pop();
  }
}

/** `u` merged into `kept`; `repeat` when `u` repeats what its own file says before it in the same section. */
export function mergedEntry(u: Unit, kept: Unit, repeat = false): Merged {
  return {
    path: u.path,
    line: u.line,
    lines: u.lines.length,
    keptAt: { path: kept.path, line: kept.line },
    text: u.lines.join('\n'),
    ...(repeat ? { repeat: true as const } : {}),
  };
}
