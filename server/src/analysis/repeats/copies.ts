import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { normalizeLine, type InstructionDoc, type Scope, type Unit } from '../../model/model.js';
import { pushTo } from '../../common/collections.js';
import { similarCandidates } from './similar-lines.js';

/**
 * Copies of a whole instruction file. People keep one file per tool with the same rules (CLAUDE.md
 * copied from AGENTS.md, a `.cursorrules` synced from the Copilot file); over time the copies drift.
 * Merging them line by line interleaves both versions. A copy is recognised instead, and the plan
 * keeps one source:
 *
 * - at least {@link SAME_SHARE} of the non-blank lines are the same (counted with repeats, against the
 *   longer file), both files having at least {@link MIN_LINES} such lines; or
 * - the file says so: "generated from X", "synced from X", "copied from X", "a copy of X",
 *   "keep in sync with X", X naming another instruction file.
 *
 * Only legacy files are compared: Copilot's own files are left alone. The kept source is, by default:
 * the copy whose every rule line Copilot's files already hold (a migration chose it before, so a
 * second plan stays a no-op), else the file a marked copy names, else the most complete one (most
 * non-blank lines; the first in report order on a tie). A copy is left out only when the kept file
 * applies wherever the copy does. The person may choose another copy of the group instead
 * ({@link keepInstead}, the approve form's `use-this`) when it applies wherever the kept file does.
 */
export const SAME_SHARE = 0.9;
export const MIN_LINES = 5;
/** The diff shown in the plan's notes is cut after this many lines. */
export const MAX_DIFF_LINES = 200;

export interface Copy {
  /**
   * `copy`: the file is a copy of keptPath, whose rules are migrated. `synced-source`: a Copilot file
   * (keptPath) says it is written from this file by hand (a distillation kept in sync): the Copilot file
   * is left as it is and this source is not merged into it. `twin`: the file already holds the rules
   * of a Copilot file (keptPath), generated from it or with the same body: Copilot reads them already,
   * so they are not appended again.
   */
  relation: 'copy' | 'synced-source' | 'twin';
  /** The file left out. */
  path: string;
  /** The file whose rules are migrated. */
  keptPath: string;
  /** Share of the same lines, 0..1. */
  same: number;
  /** Why it is a copy: the share, or the marker line that says so. */
  why: string;
  /** The differences of the bodies (front matter aside), as one unified diff from the kept file to the copy (cut at MAX_DIFF_LINES); empty for a synced source. */
  diff: string;
  /** The person may migrate this copy instead of keptPath: it applies wherever keptPath does. */
  swappable: boolean;
}

/** A Copilot file that names its source: "`AGENTS.md` is the source of truth", "kept in sync with AGENTS.md". */
const SYNCED = /source of truth|distill|kept in sync|keep in sync|synced from|generated from|derived from/i;

const MARKER =
  /\b(?:(?:auto-?)?generated|synced|synchroni[sz]ed|copied|mirrored)\s+from\s+[`"'[(]*([\w./-]+\.(?:md|mdc|txt)|\.\w+rules)\b|\b(?:a|an exact)\s+copy\s+of\s+[`"'[(]*([\w./-]+\.(?:md|mdc|txt)|\.\w+rules)\b|\bkeep\s+(?:this\s+file\s+)?in\s+sync\s+with\s+[`"'[(]*([\w./-]+\.(?:md|mdc|txt)|\.\w+rules)\b/i;

const MARKER_WORD = /from|copy|sync/i;

/** Rule lines, headings aside (a migration may turn a title or a pseudo-heading into another heading). */
function ruleLines(doc: InstructionDoc): string[] {
  return normalizedLines(doc.units.filter((u) => u.kind !== 'heading' && u.kind !== 'frontmatter'));
}

function bodyLines(doc: InstructionDoc): string[] {
  return normalizedLines(doc.units);
}

/**
 * The non-blank lines of the units, normalised, in one list (no list per unit: this runs for every
 * file). Indexed loops: an array's for-of allocates a result per step in code not yet optimised.
 */
function normalizedLines(units: readonly Unit[]): string[] {
  const out: string[] = [];
  for (let u = 0; u < units.length; u++) {
    const lines = units[u]!.lines;
    for (let i = 0; i < lines.length; i++) {
      const l = normalizeLine(lines[i]!);
      if (l !== '') out.push(l);
    }
  }
  return out;
}

/** Equal for files with the same lines in any order: how many, and the first and last by code unit. */
function linesKey(lines: readonly string[]): string {
  let min = lines[0]!;
  let max = lines[0]!;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l < min) min = l;
    if (l > max) max = l;
  }
  return `${lines.length}\0${min}\0${max}`;
}

function counts(lines: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) m.set(l, (m.get(l) ?? 0) + 1);
  return m;
}

/** Share of the same lines, against the longer file. */
export function sameShare(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const cb = counts(b);
  let common = 0;
  for (const [l, n] of counts(a)) common += Math.min(n, cb.get(l) ?? 0);
  return common / Math.max(a.length, b.length);
}

/** The instruction file a copy's marker names, when it is one of the documents. */
function markedSource(doc: InstructionDoc, text: string, known: Set<string>): { path: string; line: string } | null {
  // Every marker says "from", "copy" or "sync": most files say none of them, and are not split into lines.
  if (!MARKER_WORD.test(text)) return null;
  for (const line of text.split(/\r?\n/, 40)) {
    const m = MARKER.exec(line);
    if (!m) continue;
    const raw = (m[1] ?? m[2] ?? m[3])!.replace(/^\.\//, '');
    for (const base of [path.posix.dirname(doc.path), '.']) {
      const target = path.posix.normalize(path.posix.join(base, raw));
      if (target !== doc.path && known.has(target)) return { path: target, line: line.trim() };
    }
  }
  return null;
}

/**
 * A file that is only a link to another instruction file ("See [AGENTS.md](AGENTS.md).", under a
 * title at most): it points at that file, like an import or a symlink.
 */
function linkedFile(doc: InstructionDoc, known: Set<string>): string | null {
  // Given up at a third non-blank line: most files are longer, and no copy of their lines is made.
  const units: string[] = [];
  let count = 0;
  for (let u = 0; u < doc.units.length; u++) {
    const { kind, lines } = doc.units[u]!;
    if (kind === 'heading') continue;
    const said = lines.filter((l) => l.trim() !== '');
    count += said.length;
    if (count > 2) return null;
    if (said.length > 0) units.push(said.join(' '));
  }
  if (units.length === 0 || units.join(' ').length > 300) return null;
  // Every sentence points, or speaks of the one before ("It is the single source of truth."): a sentence
  // that names no instruction file is a rule of its own, and must land (issue 40).
  let first: string | null = null;
  for (const text of units) {
    for (const sentence of text.split(/(?<=[.!?])\s+(?=[A-Z*_`[])/)) {
      const target = namedFile(doc.path, sentence, known);
      if (target === null && (first === null || !/^[*_]*(?:it|this|that|these|they|there)\b/i.test(sentence))) return null;
      first ??= target;
    }
  }
  return first;
}

/** The instruction file a line links to or names in a code span, when it is one of the documents. */
function namedFile(from: string, line: string, known: Set<string>): string | null {
  const targets = [...line.matchAll(/\]\(\s*<?([^)\s>]+)>?\s*\)|`([^`\s]+)`/g)].map((m) =>
    (m[1] ?? m[2])!.replace(/^mdc:/, '').replace(/[#?].*$/, ''),
  );
  for (const raw of targets) {
    for (const base of [path.posix.dirname(from), '.']) {
      const target = path.posix.normalize(path.posix.join(base, raw.replace(/^\//, '')));
      if (target !== from && known.has(target)) return target;
    }
  }
  return null;
}

const scopeKey = (s: Scope) =>
  s.kind === 'repo' ? 'repo' : s.kind === 'globs' ? `globs:${s.globs.join(',')}` : `request:${s.description ?? ''}`;

/** The kept file applies wherever the copy does. */
const covers = (kept: Scope, copy: Scope) => kept.kind === 'repo' || scopeKey(kept) === scopeKey(copy);

/**
 * Find copies among the documents whose rules count (no alias, no left-out file, no imported file),
 * mark each copy left out (`notRule`) and return them, in report order.
 */
export function findCopies(docs: InstructionDoc[], textOf: (path: string) => string): Copy[] {
  const all = new Set(docs.filter((d) => d.kind !== 'imported').map((d) => d.path));
  // Among legacy files only: a legacy file kept after a migration is a copy of what the migration wrote,
  // and the next plan must still merge it away to nothing (a Copilot file is never a copy to leave out).
  const isLive = (d: InstructionDoc) => d.role === 'legacy' && d.aliasOf === null && d.notRule === null && d.kind !== 'imported';
  for (const d of docs) if (isLive(d)) d.aliasOf = linkedFile(d, all);
  const twins = copilotTwins(docs.filter(isLive), docs, textOf);
  const live = docs.filter(isLive);
  const known = new Set(live.map((d) => d.path));
  const lines = new Map(live.map((d) => [d.path, bodyLines(d)]));
  const index = new Map(live.map((d, i) => [d.path, i]));
  const byPath = new Map(live.map((d) => [d.path, d]));
  const inCopilot = new Set(docs.filter((d) => d.role === 'copilot').flatMap(ruleLines));

  // Groups (union-find) of files that are copies of one another.
  const parent = live.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const join = (a: number, b: number) => (parent[find(a)] = find(b));
  const marked = new Map<string, { path: string; line: string }>();
  for (const d of live) {
    const m = markedSource(d, textOf(d.path), known);
    if (m) {
      marked.set(d.path, m);
      join(index.get(d.path)!, index.get(m.path)!);
    }
  }
  // Files with the same lines (in any order) are copies of one another; one of them stands for the
  // rest below. The others are compared through an index of their rarest lines, never every pair.
  // By a short key (no sorted copy of each file's lines): files whose keys match are then compared.
  const sized: InstructionDoc[] = [];
  const sameKey = new Map<string, InstructionDoc[]>();
  for (const d of live) {
    const l = lines.get(d.path)!;
    if (l.length < MIN_LINES) continue;
    const key = linesKey(l);
    const alike = sameKey.get(key) ?? [];
    const first = alike.find((o) => sameShare(lines.get(o.path)!, l) === 1);
    if (first === undefined) {
      sameKey.set(key, [...alike, d]);
      sized.push(d);
    } else join(index.get(d.path)!, index.get(first.path)!);
  }
  for (const [i, j] of similarCandidates(
    sized.map((d) => lines.get(d.path)!),
    SAME_SHARE,
  )) {
    const x = index.get(sized[i]!.path)!;
    const y = index.get(sized[j]!.path)!;
    if (find(x) === find(y)) continue;
    const [a, b] = [lines.get(sized[i]!.path)!, lines.get(sized[j]!.path)!].sort((p, q) => p.length - q.length) as [string[], string[]];
    if (a.length < SAME_SHARE * b.length) continue;
    if (sameShare(a, b) >= SAME_SHARE) join(x, y);
  }

  const groups = new Map<number, InstructionDoc[]>();
  live.forEach((d, i) => pushTo(groups, find(i), d));
  const copies: Copy[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const named = group.map((d) => marked.get(d.path)?.path).find((p) => p !== undefined && !marked.has(p));
    const complete = (ds: InstructionDoc[]) =>
      [...ds].sort((a, b) => lines.get(b.path)!.length - lines.get(a.path)!.length || index.get(a.path)! - index.get(b.path)!)[0];
    const held = group.filter((d) => ruleLines(d).length > 0 && ruleLines(d).every((l) => inCopilot.has(l)));
    const kept =
      (held.length > 0 && held.length < group.length ? (held.find((d) => d.path === named) ?? complete(held)) : undefined) ??
      (named ? byPath.get(named)! : undefined) ??
      complete(group)!;
    for (const d of group) {
      if (d === kept || !covers(kept.scope, d.scope)) continue;
      const same = sameShare(lines.get(kept.path)!, lines.get(d.path)!);
      const marker = marked.get(d.path);
      const isCopy = same >= SAME_SHARE || marker !== undefined;
      if (!isCopy) continue;
      const why =
        marker && same < SAME_SHARE ? `it says "${marker.line.slice(0, 120)}"` : `${Math.floor(same * 100)}% of its lines are the same`;
      d.notRule = `a copy of ${kept.path} (${why}); the rules of ${kept.path} are migrated, and the differences are in the plan's notes`;
      copies.push({
        relation: 'copy',
        path: d.path,
        keptPath: kept.path,
        same,
        why,
        diff: diffOf(kept, d, textOf),
        swappable: covers(d.scope, kept.scope),
      });
    }
  }
  return inReportOrder([...copies, ...syncedSources(docs, live, textOf), ...twins], docs);
}

function inReportOrder(copies: Copy[], docs: InstructionDoc[]): Copy[] {
  const order = new Map(docs.map((d, i) => [d.path, i]));
  return copies.sort((a, b) => order.get(a.path)! - order.get(b.path)!);
}

/**
 * Legacy files that already hold the rules of a Copilot file applying wherever they do: a file that
 * says it is generated from (synced from, a copy of) that file, or whose rule lines (headings aside:
 * a generator may change the title) are at least {@link SAME_SHARE} the same without all being there.
 * Each is left out as its twin: appending it would write the Copilot file's rules a second time, or the
 * generator's banner and the lines it wrote differently.
 */
function copilotTwins(legacy: InstructionDoc[], docs: InstructionDoc[], textOf: (path: string) => string): Copy[] {
  const copilot = docs.filter((d) => d.role === 'copilot' && d.aliasOf === null && ruleLines(d).length > 0);
  if (copilot.length === 0) return [];
  const known = new Set(copilot.map((d) => d.path));
  const rules = new Map(copilot.map((d) => [d.path, ruleLines(d)]));
  // A file whose every rule line Copilot's files hold already merges away to nothing (a file a migration
  // kept is one): only a marker makes it a twin. One that differs in a line would be appended in part.
  const held = new Set([...rules.values()].flat());
  const out: Copy[] = [];
  for (const d of legacy) {
    const marker = markedSource(d, textOf(d.path), known);
    const own = ruleLines(d);
    // Lines compared only where the sizes allow a share of SAME_SHARE: most pairs are never counted.
    const alike = (c: InstructionDoc) => {
      const theirs = rules.get(c.path)!;
      const [a, b] = own.length < theirs.length ? [own, theirs] : [theirs, own];
      return own.length >= MIN_LINES && a.length >= SAME_SHARE * b.length && sameShare(own, theirs) >= SAME_SHARE;
    };
    const c = copilot.find((x) => covers(x.scope, d.scope) && (marker?.path === x.path || (alike(x) && !own.every((l) => held.has(l)))));
    if (!c) continue;
    const same = sameShare(own, rules.get(c.path)!);
    const why =
      marker?.path === c.path ? `it says "${marker.line.slice(0, 120)}"` : `${Math.floor(same * 100)}% of its rule lines are the same`;
    d.notRule = `a twin of ${c.path} (${why}): Copilot reads ${c.path} already, so its rules are not appended again`;
    out.push({ relation: 'twin', path: d.path, keptPath: c.path, same, why, diff: diffOf(c, d, textOf), swappable: false });
  }
  return out;
}

/**
 * Legacy files a Copilot file says it is written from by hand: merging the source into its own
 * distillation would undo the distillation (and the file says the two are kept apart on purpose).
 */
function syncedSources(docs: InstructionDoc[], live: InstructionDoc[], textOf: (path: string) => string): Copy[] {
  const out: Copy[] = [];
  for (const copilot of docs.filter((d) => d.role === 'copilot' && d.aliasOf === null)) {
    const head = textOf(copilot.path).split(/\r?\n/).slice(0, 15);
    for (const line of head.filter((l) => SYNCED.test(l))) {
      for (const source of live) {
        if (source.notRule !== null || !covers(copilot.scope, source.scope)) continue;
        const name = source.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (!new RegExp(`(^|[\\s\`'"(\\[/])(\\./)?${name}([\\s\`'")\\]:,.]|$)`).test(line)) continue;
        const said = line.trim().slice(0, 160);
        source.notRule = `the source ${copilot.path} says it is written from by hand ("${said}"): ${copilot.path} is left as it is and ${source.path} is not merged into it`;
        out.push({
          relation: 'synced-source',
          path: source.path,
          keptPath: copilot.path,
          same: 0,
          why: `${copilot.path} says "${said}"`,
          diff: '',
          swappable: false,
        });
      }
    }
  }
  return out;
}

/** The text of a document's body: from its first unit on (front matter is the format's business, not a rule). */
function bodyText(doc: InstructionDoc, textOf: (path: string) => string): string {
  const lines = textOf(doc.path).split(/\r?\n/);
  return doc.units.length === 0 ? '' : lines.slice(doc.units[0]!.line - 1).join('\n');
}

function diffOf(kept: InstructionDoc, copy: InstructionDoc, textOf: (path: string) => string): string {
  const a = bodyText(kept, textOf);
  const b = bodyText(copy, textOf);
  if (a.trimEnd() === b.trimEnd()) return '';
  const patch = createTwoFilesPatch(`a/${kept.path}`, `b/${copy.path}`, a, b, undefined, undefined, { context: 1 });
  const out = patch.split('\n').filter((l) => !l.startsWith('====='));
  if (out.length <= MAX_DIFF_LINES) return out.join('\n').replace(/\n$/, '');
  return [...out.slice(0, MAX_DIFF_LINES), `… ${out.length - MAX_DIFF_LINES} more lines of differences`].join('\n');
}

/** What choosing another copy of a group changes: the file migrated instead, and the files then left out. */
export interface CopySwap {
  /** The copy the person chose: migrated. */
  chosen: string;
  /** The file that was kept by default: now left out. */
  was: string;
  /** Every other file of the group, each left out as a copy of `chosen` (reason and diff from `chosen`). */
  copies: (Copy & { notRule: string })[];
}

/**
 * The person chose to migrate `chosen` (a swappable copy) instead of the file kept by default: the
 * group turns around. Every other file of the group is left out as a copy of `chosen`, with the diff
 * from `chosen` to it. Nothing in the documents changes (the scan stays as it was read).
 */
export function keepInstead(chosen: Copy, copies: Copy[], docs: InstructionDoc[], textOf: (path: string) => string): CopySwap {
  const byPath = new Map(docs.map((d) => [d.path, d]));
  const now = byPath.get(chosen.path)!;
  const rest = [
    chosen.keptPath,
    ...copies.filter((c) => c.relation === 'copy' && c.keptPath === chosen.keptPath && c.path !== chosen.path).map((c) => c.path),
  ];
  return {
    chosen: chosen.path,
    was: chosen.keptPath,
    copies: rest.map((p) => {
      const d = byPath.get(p)!;
      const same = sameShare(bodyLines(now), bodyLines(d));
      const why = `you chose to migrate ${now.path} instead (${Math.floor(same * 100)}% of their lines are the same)`;
      return {
        relation: 'copy' as const,
        path: p,
        keptPath: now.path,
        same,
        why,
        diff: diffOf(now, d, textOf),
        swappable: false,
        notRule: `a copy of ${now.path}: ${why}; the rules of ${now.path} are migrated, and the differences are in the plan's notes`,
      };
    }),
  };
}
