import path from 'node:path';
import type { InstructionDoc } from '../model/model.js';
import { LineMap } from './render/line-map.js';
import { codeSpanTexts, linkDestinations, linkedPath, mdcDestinations, pathKeyed, splitDestination } from '../model/links.js';
import type { Problem } from '../model/problem.js';
import { fileThere, type ScanResult } from '../analysis/discovery/scan.js';

/**
 * Pointers at moved rules (issue 40): a line of moved text that sends its reader to a legacy file or a
 * folder of rule files whose rules the plan moves (sentry-java's "read the matching rule file in
 * `.cursor/rules/`", a link to `packages/core/AGENTS.md`, Cursor's `[api](mdc:.cursor/rules/api.mdc)`)
 * is rewritten to send Copilot where those rules now are (`.github/instructions/`). Only a link, an
 * `mdc:` link or a code span that is a path with a `/` is a pointer; a file named in prose, or a code
 * span of a bare name (`AGENTS.md`, often the file as a thing to edit), stays. A pointer at a file
 * whose rules land where the line itself lands stays as written: it still leads where it led.
 *
 * The plan rewrites the lines before rendering, so the units of a migrated legacy file are keyed as
 * written: a second plan finds them in Copilot's files and has nothing to do. The folder a pointer
 * names maps only when every file in it moves, all into one folder.
 */
export type Repoint = (fromFile: string, line: string) => string;

/**
 * `moved`: each legacy file whose rules the plan writes, and the file it writes them to; `ruleFiles`:
 * those of them that are a rule file in an assistant's rules folder (a `.mdc` of `.cursor/rules/`, not
 * an AGENTS.md, whose folder is a package's); `listing`: every file of the repository.
 */
export function repointer(moved: ReadonlyMap<string, string>, ruleFiles: ReadonlySet<string>, listing: readonly string[]): Repoint {
  if (moved.size === 0) return (_, line) => line;
  const folders = movedFolders(moved, ruleFiles, listing);
  const targetOf = (p: string | null) => (p === null ? null : (moved.get(p) ?? folders.get(p) ?? null));
  return (fromFile, line) => {
    if (!POINTER.test(line)) return line;
    const own = moved.get(fromFile);
    const edits: { start: number; end: number; text: string }[] = [];
    const edit = (at: { start: number; end: number }, written: string, to: string | null, relative: boolean) => {
      const target = targetOf(to);
      if (target === null || target === own) return;
      const { path: p, rest } = splitDestination(written);
      const slash = p.endsWith('/') ? '/' : '';
      const text = relative ? relativeTo(fromFile, target, p.startsWith('./')) : target;
      edits.push({ start: at.start, end: at.end, text: text + slash + rest });
    };
    for (const d of linkDestinations(line)) edit(d, line.slice(d.start, d.end), linkedPath(fromFile, line.slice(d.start, d.end)), true);
    for (const d of mdcDestinations(line)) edit(d, d.path, linkedPath('', d.path), true);
    for (const s of codeSpanTexts(line)) {
      const text = line.slice(s.start, s.end);
      if (!text.includes('/') || /\s/.test(text)) continue;
      const fromFolder = /^\.{1,2}\//.test(text);
      edit(s, text, linkedPath(fromFolder ? fromFile : '', text), fromFolder);
    }
    if (edits.length === 0) return line;
    let out = line;
    for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  };
}

/** What a line holds when it may point at a file: a link, an `mdc:` link, a code span. */
const POINTER = /\]\(|\]:|`|\b(?:href|src)\s*=/;

/** `target` as a path from `fromFile`'s folder (`./` kept when the pointer had it). */
function relativeTo(fromFile: string, target: string, dot: boolean): string {
  const rel = path.posix.relative(path.posix.dirname(fromFile), target) || '.';
  return dot && !rel.startsWith('../') ? `./${rel}` : rel;
}

/** The rules folders every file of which moves, all into one folder: the folder, and where its rules now are. */
function movedFolders(moved: ReadonlyMap<string, string>, ruleFiles: ReadonlySet<string>, listing: readonly string[]): Map<string, string> {
  const into = new Map<string, string | null>();
  for (const [from, to] of moved) {
    const folder = path.posix.dirname(from);
    if (folder === '.') continue;
    const dest = path.posix.dirname(to);
    into.set(folder, !ruleFiles.has(from) || (into.has(folder) && into.get(folder) !== dest) ? null : dest);
  }
  const out = new Map<string, string>();
  for (const [folder, dest] of into) {
    if (dest === null || dest === folder) continue;
    if (listing.every((f) => !f.startsWith(`${folder}/`) || moved.has(f))) out.set(folder, dest);
  }
  return out;
}

/**
 * The legacy documents with their pointers rewritten (`repoint`), and the lines so rewritten by path
 * and line: rendering and the line-by-line check read these instead of the file's own. Fenced code and
 * front matter are examples and fields, not pointers: they stay.
 */
export function repointedDocs(docs: readonly InstructionDoc[], repoint: Repoint): { docs: InstructionDoc[]; lines: LineMap<string> } {
  const lines = new LineMap<string>();
  const out = docs.map((doc) => {
    if (doc.role !== 'legacy') return doc;
    let changed = false;
    const units = doc.units.map((u) => {
      if (u.kind === 'code' || u.kind === 'frontmatter') return u;
      const now = u.lines.map((l) => repoint(doc.path, l));
      if (now.every((l, i) => l === u.lines[i])) return u;
      changed = true;
      now.forEach((l, i) => {
        if (l !== u.lines[i]) lines.set({ path: doc.path, line: u.line + i }, l);
      });
      return { ...u, lines: now };
    });
    return changed ? { ...doc, units } : doc;
  });
  return { docs: out, lines };
}

/**
 * The problems without those between a legacy line and the copy of it a plan wrote with its pointers
 * rewritten (a drifted copy `.github/instructions/` vs `.cursor/rules/`, or a near duplicate): the plan's
 * own rewrite, not the person's words. A problem stays unless a rewrite made its lines differ.
 */
export function withoutRepointedCopies<P extends Pick<Problem, 'type' | 'locations'>>(
  problems: P[],
  scan: Pick<ScanResult, 'docs' | 'files' | 'listing' | 'linkTargets'>,
  repointOf: () => Repoint,
): P[] {
  const legacy = new Set(scan.docs.filter((d) => d.role === 'legacy').map((d) => d.path));
  const copilot = new Set(scan.docs.filter((d) => d.role === 'copilot').map((d) => d.path));
  if (legacy.size === 0 || copilot.size === 0) return problems;
  const there = fileThere(scan);
  // Made only when a problem has a side in each kind of file: most repositories never need it.
  let repoint: Repoint | null = null;
  const split = new Map<string, string[]>();
  const textAt = (p: string, line: number) => {
    let lines = split.get(p);
    if (!lines) split.set(p, (lines = (scan.files.get(p)?.text ?? '').split(/\r?\n/)));
    return (lines[line - 1] ?? '').trim();
  };
  return problems.filter((p) => {
    if (!p.locations.some((l) => legacy.has(l.path)) || !p.locations.some((l) => copilot.has(l.path))) return true;
    let rewritten = false;
    const keys = new Set(
      p.locations.map((l) => {
        const text = textAt(l.path, l.line);
        const now = legacy.has(l.path) ? (repoint ??= repointOf())(l.path, text) : text;
        if (now !== text) rewritten = true;
        return pathKeyed(l.path, now, there);
      }),
    );
    return !(rewritten && keys.size === 1);
  });
}
