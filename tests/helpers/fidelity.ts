import fs from 'node:fs';
import path from 'node:path';
import { linkedPath, movablePaths } from '../../server/src/model/links.js';
import { splitText } from '../../server/src/common/text.js';
import { managedBlocks as modelBlocks } from '../../server/src/model/managed-blocks.js';
import type { Plan } from '../../server/src/planning/plan.js';
import { emptyHeadings, fenced } from './debris.js';
import { noPlanCases, planFidelity, type PlanFidelity } from './plan-fidelity.js';

/**
 * Fidelity of a plan to what the person has (issue 40), measured on disk the same way by the tests
 * and `npm run quality`: links of moved text that resolved where they were written and still lead
 * to the same repository path from their new file; lines of an existing Copilot file moved or cut
 * apart; managed blocks (`<!-- BEGIN … -->` … `<!-- END … -->`) changed; headings left empty.
 * Each is a list of cases, so a count of 0 can be shown with what broke it.
 */
export interface Fidelity extends PlanFidelity {
  /** Links of moved text that resolved where they were written. */
  resolvedBefore: number;
  /** Of those, the ones that lead elsewhere or nowhere from their new file. */
  brokenLinks: string[];
  /** Paths of moved text written as `@path` or as a `./`/`../` code span that resolved where they were written. */
  referencesBefore: number;
  /** Of those, the ones that lead elsewhere or nowhere from their new file. */
  brokenReferences: string[];
  /** `./` and `../` paths (links or not) of moved text that are not in the repository, now naming another path. */
  folderPathsShifted: string[];
  /** Lines of an existing Copilot file written out of their order, or with the tool's text put between them. */
  copilotMoved: string[];
  /** Managed blocks of a source (any tool's paired markers) that its file no longer holds byte for byte. */
  blocksChanged: string[];
  /** A source's `# ` title kept as a comment, with the next line written after it from another file: one source's text split apart. */
  titlesApart: string[];
  /** Managed blocks of a source written into another file, where their tool would not keep them current. */
  blocksCopied: string[];
  emptyHeadings: string[];
}

/** Where each written line came from: `path:line` of the written file to source file and line. */
function sourceOf(plan: Plan): Map<string, { path: string; line: number }> {
  const at = new Map<string, { path: string; line: number }>();
  for (const s of plan.provenance)
    for (let k = 0; k <= s.to.endLine - s.to.startLine; k++)
      at.set(`${s.to.path}:${s.to.startLine + k}`, { path: s.from.path, line: s.from.startLine + k });
  return at;
}

/** A repository path that is there, and inside the repository once links on the way are followed. */
function resolves(repo: string, rel: string): boolean {
  try {
    const real = fs.realpathSync(path.join(repo, rel));
    const root = fs.realpathSync(repo);
    return real === root || real.startsWith(root + path.sep);
  } catch {
    return false;
  }
}

/** The managed blocks of a file's lines (model/managed-blocks.ts): 1-based start line and the block's text. */
export function managedBlocks(lines: string[]): { start: number; text: string }[] {
  return modelBlocks(lines).map((b) => ({ start: b.start + 1, text: lines.slice(b.start, b.end + 1).join('\n') }));
}

export function fidelity(repo: string, plan: Plan, name = ''): Fidelity {
  const f = emptyFidelity();
  const cache = new Map<string, string[]>();
  const sourceLines = (p: string) => {
    let l = cache.get(p);
    if (!l) cache.set(p, (l = fs.existsSync(path.join(repo, p)) ? splitText(fs.readFileSync(path.join(repo, p), 'utf8')).lines : []));
    return l;
  };
  const codeCache = new Map<string, boolean[]>();
  const inCode = (p: string, line: number) => {
    let c = codeCache.get(p);
    if (!c) codeCache.set(p, (c = fenced(sourceLines(p))));
    return c[line - 1] ?? false;
  };
  const source = sourceOf(plan);
  const rulesAt = rulesNowAt(plan);
  const written = plan.operations.filter((o) => o.content !== null);
  for (const o of written) {
    const lines = splitText(o.content!).lines;
    const own: number[] = [];
    lines.forEach((line, i) => {
      const from = source.get(`${o.path}:${i + 1}`);
      if (!from) return;
      if (from.path === o.path) own.push(i);
      if (from.path === o.path || inCode(from.path, from.line)) return;
      const before = sourceLines(from.path)[from.line - 1] ?? '';
      // Links and paths in their order on the line: an `@path` the plan writes as a Markdown link keeps its place.
      const was = movablePaths(before);
      const now = movablePaths(line);
      const show = `${name}: ${from.path}:${from.line} -> ${o.path}:${i + 1} ${JSON.stringify(line.trim().slice(0, 100))}`;
      was.forEach((d, k) => {
        const to = linkedPath(from.path, before.slice(d.start, d.end));
        if (to === null || !resolves(repo, to)) return;
        const n = now[k];
        const led = n ? linkedPath(o.path, line.slice(n.start, n.end)) : null;
        // A pointer at moved rules leads where the plan wrote them (planning/repoint.ts): that is where it led.
        const broken = led !== to && !(led !== null && rulesAt.get(to)?.has(led));
        if (d.form === undefined) {
          f.resolvedBefore++;
          if (broken) f.brokenLinks.push(show);
        } else {
          f.referencesBefore++;
          if (broken) f.brokenReferences.push(show);
        }
      });
      // A path written from its folder that the repository lacks still names one path: the same after the move.
      const explicit = (l: string, from: string) =>
        movablePaths(l)
          .filter((d) => d.explicit && /^\.{1,2}\//.test(l.slice(d.start, d.end)))
          .map((d) => linkedPath(from, l.slice(d.start, d.end)));
      const nowExplicit = explicit(line, o.path);
      explicit(before, from.path).forEach((to, k) => {
        if (to !== null && !resolves(repo, to) && nowExplicit[k] !== to) f.folderPathsShifted.push(show);
      });
    });
    f.copilotMoved.push(...ownLinesMoved(o.path, lines, own, source, sourceLines(o.path)).map((c) => `${name}: ${c}`));
    f.titlesApart.push(...titlesApart(o.path, lines, source).map((c) => `${name}: ${c}`));
    for (const i of emptyHeadings(lines)) {
      const from = source.get(`${o.path}:${i + 1}`);
      if (from && emptyHeadings(sourceLines(from.path)).includes(from.line - 1)) continue;
      f.emptyHeadings.push(`${name}: ${o.path}:${i + 1} ${JSON.stringify(lines[i])}`);
    }
  }
  // A source's managed block stays in its file byte for byte, and is written into no other file.
  const changedTo = new Map(plan.operations.map((o) => [o.path, o.content === null ? null : splitText(o.content).lines.join('\n')]));
  for (const s of plan.sources) {
    if (!changedTo.has(s.path) && !plan.provenance.some((p) => p.from.path === s.path)) continue;
    for (const b of managedBlocks(sourceLines(s.path))) {
      const shown = `${name}: ${s.path}:${b.start} ${JSON.stringify(b.text.split('\n')[0]!.slice(0, 80))}`;
      const now = changedTo.get(s.path);
      if (now !== undefined && !now?.includes(b.text)) f.blocksChanged.push(shown);
      const end = b.start + b.text.split('\n').length - 1;
      const copies = plan.provenance.filter(
        (p) => p.from.path === s.path && p.to.path !== s.path && p.from.startLine <= end && p.from.endLine >= b.start,
      );
      for (const to of new Set(copies.map((p) => p.to.path))) f.blocksCopied.push(`${shown} (copied into ${to})`);
    }
  }
  return { ...f, ...planFidelity(repo, plan, name, sourceLines) };
}

/** Every counter at zero: one repository's start, or a set's sum before its repositories are added. */
export const emptyFidelity = (): Fidelity => ({
  resolvedBefore: 0,
  brokenLinks: [],
  referencesBefore: 0,
  brokenReferences: [],
  folderPathsShifted: [],
  copilotMoved: [],
  blocksChanged: [],
  blocksCopied: [],
  titlesApart: [],
  emptyHeadings: [],
  ...noPlanCases(),
});

/** The kept-title comments of a written file whose next written line (blank lines aside) is another file's: `line "title" (then path:line)`. */
function titlesApart(target: string, lines: string[], source: Map<string, { path: string; line: number }>): string[] {
  const out: string[] = [];
  lines.forEach((l, i) => {
    const from = /^<!-- copilot-onboard: top-level heading from (.*), kept as a comment/.exec(l)?.[1];
    if (!from) return;
    let k = i + 1;
    while (k < lines.length && !/^-->\s*$/.test(lines[k]!)) k++;
    k++;
    while (k < lines.length && (lines[k]!.trim() === '' || !source.has(`${target}:${k + 1}`))) k++;
    const next = source.get(`${target}:${k + 1}`);
    if (next && next.path !== from) out.push(`${target}:${i + 1} "# ${from}" (then ${next.path}:${next.line})`);
  });
  return out;
}

/** A line the tool writes of its own (a conflict mark, a title kept as a comment): not the person's text, not a rule moved in. */
const TOOL_COMMENT = /^\s*<!-- copilot-onboard:/;
const HEADING = /^ {0,3}#{1,6}\s/;

/**
 * The lines of an existing file, as written by the plan, that moved: out of their order; cut from the
 * line before them (adjacent in the file, with text put between); or with text from elsewhere put above
 * the file's first section (new sections go after the person's).
 */
function ownLinesMoved(
  target: string,
  lines: string[],
  own: number[],
  source: Map<string, { path: string; line: number }>,
  before: string[],
): string[] {
  const out: string[] = [];
  const at = (i: number) => source.get(`${target}:${i + 1}`)!.line;
  const show = (l: number) => `${target}:${l} ${JSON.stringify(before[l - 1]!.trim().slice(0, 80))}`;
  const foreign = (from: number, to: number) =>
    lines
      .slice(from, to)
      .filter((l, k) => l.trim() !== '' && !TOOL_COMMENT.test(l) && source.get(`${target}:${from + k + 1}`)?.path !== target);
  for (let k = 1; k < own.length; k++) {
    const a = at(own[k - 1]!);
    const b = at(own[k]!);
    if (b < a) out.push(`${show(b)} (out of order)`);
    else if (b === a + 1 && foreign(own[k - 1]! + 1, own[k]!).length > 0) out.push(`${show(b)} (cut from the line before it)`);
    // Nothing is put between the person's heading and its first line of text, not even a line of the tool's.
    else if (
      HEADING.test(before[a - 1]!) &&
      !HEADING.test(before[b - 1]!) &&
      before.slice(a, b - 1).every((l) => l.trim() === '') &&
      lines.slice(own[k - 1]! + 1, own[k]!).some((l) => TOOL_COMMENT.test(l))
    )
      out.push(`${show(b)} (a line of the tool's put between it and the heading above it)`);
    // A title and the first text under it (blank lines between) are one: a heading put between splits them.
    else if (
      /^ {0,3}#\s/.test(before[a - 1]!) &&
      before.slice(a, b - 1).every((l) => l.trim() === '') &&
      foreign(own[k - 1]! + 1, own[k]!).length > 0
    )
      out.push(`${show(b)} (cut from the title above it)`);
  }
  const firstSection = own.find((i, k) => k > 0 && /^ {0,3}##/.test(lines[i]!) && HEADING.test(lines[i]!));
  if (firstSection !== undefined && foreign(0, firstSection).length > 0)
    out.push(`${show(at(firstSection))} (text put above the first section)`);
  // New text goes after the person's: a line brought in before their last line was put into their sections.
  const last = own[own.length - 1];
  const inside = last === undefined || firstSection === undefined ? [] : foreign(firstSection, last);
  if (inside.length > 0)
    out.push(`${show(at(last!))} (text put among the person's sections: ${JSON.stringify(inside[0]!.trim().slice(0, 60))})`);
  return out;
}

/** Where the plan wrote each source's rules, by source path, and each source folder's, by folder (for pointers at moved rules). */
function rulesNowAt(plan: Plan): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    let at = out.get(from);
    if (!at) out.set(from, (at = new Set()));
    at.add(to);
  };
  for (const p of plan.provenance) {
    add(p.from.path, p.to.path);
    add(path.posix.dirname(p.from.path), path.posix.dirname(p.to.path));
  }
  return out;
}
