import path from 'node:path';
import { ASSISTANT, otherAssistantLines, type OtherAssistantLine } from '../analysis/discovery/other-assistants.js';
import { aboutAssistantSections, type AboutAssistantSection } from '../analysis/discovery/about-assistant.js';
import { selfDescriptionLines } from '../analysis/discovery/self-description.js';
import { harnessLines } from '../analysis/discovery/harness-lines.js';
import { unreachableFileLines } from '../analysis/discovery/unreachable-files.js';
import { workingNotes } from '../analysis/discovery/working-notes.js';
import type { InstructionDoc } from '../model/model.js';
import type { AssistantFate, AssistantOption, PlanChoices } from '../model/plan.js';
import type { DroppedLine } from './choices.js';
import type { Note } from './notes.js';
import { LineMap } from './render/line-map.js';
import type { IsManaged } from './render/managed.js';

/** At most this many files are asked about in approve's form; the others keep their lines as written. */
export const MAX_ASSISTANT_FIELDS = 20;

/** A line rewritten for Copilot: what it says in its source, and what the plan writes instead. */
export interface Rewrite {
  from: string;
  to: string;
  /** The words cut from the line's end (a last sentence about the file itself), instead of a rewrite for Copilot. */
  cut?: string;
}

/** What the person's choices do to lines written for another assistant: the options, lines rewritten, lines left out, and a note per file. */
export interface AssistantChoices {
  options: AssistantOption[];
  rewrites: LineMap<Rewrite>;
  leftOut: LineMap<DroppedLine>;
  notes: Note[];
}

const ADDRESSING = new RegExp(String.raw`\b(guidance to|instructions for|written for|rules for)\s+(?:${ASSISTANT})\b`, 'g');
const ADDRESSED = new RegExp(String.raw`\b(?:${ASSISTANT})(\s+(?:should|must|cannot|can't|won't|doesn't|is not able|has no)\b)`, 'g');
const MDC_LINK = /\]\(mdc:([^)\s]*)\)/g;
const BARE_MDC = /(?<![\w/])mdc:([\w./-]+)/g;

/**
 * A line as written for Copilot, or null when the tool has no rewrite for it: the assistant it
 * addresses becomes GitHub Copilot ("guidance to Claude Code (claude.ai/code)" -> "guidance to
 * GitHub Copilot"), an `mdc:` link (a path from the repository root) a relative link from `target`,
 * unless it would lead out of the repository (then it stays as written). The working folder plays no part.
 */
export function copilotRewrite(text: string, target: string): string | null {
  // Both paths from the repository root, made absolute at `/` so that path.posix.relative never
  // resolves them against the working folder; a path that climbs above the root leaves the
  // repository: its link is not rewritten (null here keeps the match as written).
  const from = path.posix.join('/', path.posix.dirname(target));
  const rel = (p: string): string | null => {
    const to = p.replace(/^\/+/, '');
    const inside = path.posix.normalize(to === '' ? '.' : to);
    if (inside === '..' || inside.startsWith('../')) return null;
    return (path.posix.relative(from, path.posix.join('/', inside)) || '.') + (to.endsWith('/') && to.length > 1 ? '/' : '');
  };
  // Code spans are examples (`[x](mdc:path)` in a rule about writing rules): left as written.
  const out = text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\s*\(claude\.ai\/code\)/g, '')
            .replace(ADDRESSING, '$1 GitHub Copilot')
            .replace(ADDRESSED, 'GitHub Copilot$1')
            .replace(MDC_LINK, (link, p: string) => {
              const to = rel(p);
              return to === null ? link : `](${to})`;
            })
            .replace(BARE_MDC, (bare, p: string) => rel(p) ?? bare),
    )
    .join('');
  return out === text ? null : out;
}

/**
 * The lines `leave_out` drops, each with why: each line found, the whole section under a heading titled
 * for another assistant, and every line of a section about an assistant itself.
 */
function leftOutLines(
  doc: InstructionDoc,
  found: { line: number; names: string; keep?: string }[],
  about: AboutAssistantSection[],
  managed: IsManaged,
): { line: number; text: string; why: string }[] {
  const lines = new Map<number, { text: string; why: string }>();
  for (const f of found) {
    const i = doc.units.findIndex((u) => u.line <= f.line && f.line < u.line + u.lines.length);
    const u = doc.units[i];
    if (!u) continue;
    lines.set(f.line, { text: u.lines[f.line - u.line]!, why: f.names });
    // A section under a title (`# `) is the whole file: only the title line goes.
    if (u.kind !== 'heading' || (u.level ?? 1) < 2 || !f.names.startsWith('a section for')) continue;
    for (const next of doc.units.slice(i + 1)) {
      if (next.kind === 'heading' && (next.level ?? 1) <= (u.level ?? 1)) break;
      next.lines.forEach((text, k) => lines.set(next.line + k, { text, why: f.names }));
    }
  }
  for (const s of about) for (const l of s.lines) if (!lines.has(l.line)) lines.set(l.line, { text: l.text, why: s.names });
  // A line whose end only is found stays, cut (assistantChoices).
  for (const f of found) if (f.keep !== undefined) lines.delete(f.line);
  // A line inside a managed block stays whatever is chosen: its tool would put it back.
  for (const line of [...lines.keys()]) if (managed({ path: doc.path, line })) lines.delete(line);
  emptiedHeadings(doc, lines);
  return [...lines].sort((a, b) => a[0] - b[0]).map(([line, l]) => ({ line, ...l }));
}

/** A heading whose every line under it is left out goes too: no heading is written with nothing under it. Deepest first. */
function emptiedHeadings(doc: InstructionDoc, lines: Map<number, { text: string; why: string }>): void {
  for (let i = doc.units.length - 1; i >= 0; i--) {
    const u = doc.units[i]!;
    if (u.kind !== 'heading' || lines.has(u.line)) continue;
    const under: number[] = [];
    for (const next of doc.units.slice(i + 1)) {
      if (next.kind === 'heading' && (next.level ?? 1) <= (u.level ?? 1)) break;
      next.lines.forEach((text, k) => {
        if (text.trim() !== '') under.push(next.line + k);
      });
    }
    if (under.length > 0 && under.every((l) => lines.has(l)))
      lines.set(u.line, { text: u.lines[0]!, why: 'a heading with nothing left under it' });
  }
}

/**
 * The migrated files with lines written for another assistant, each a choice: keep them as written
 * (the default), rewrite them for Copilot (offered when the tool has a rewrite for one of them), or
 * leave them out of Copilot's files. Nothing is rewritten without that choice.
 */
export function assistantChoices(
  docs: InstructionDoc[],
  targetOf: (d: InstructionDoc) => string,
  choices: PlanChoices,
  managed: IsManaged,
  resolves: (repoPath: string) => boolean,
  restated: ReadonlyMap<string, AboutAssistantSection> = new Map(),
): AssistantChoices {
  const out: AssistantChoices = { options: [], rewrites: new LineMap(), leftOut: new LineMap(), notes: [] };
  for (const doc of docs.filter((d) => d.role === 'legacy')) {
    // Sections about an assistant itself, notes on a piece of work, a guide its target already holds in other words: each offered with all its lines.
    const guide = restated.get(doc.path);
    const about = [...aboutAssistantSections(doc), ...workingNotes(doc), ...(guide ? [guide] : [])];
    const found: (OtherAssistantLine & { keep?: string })[] = [...otherAssistantLines(doc)];
    for (const a of about) if (!found.some((f) => f.line === a.line)) found.push({ line: a.line, text: a.text, names: a.names });
    // Lines Copilot cannot act on: the file describing itself, orders to the agent's harness, files it cannot reach.
    for (const s of [...selfDescriptionLines(doc), ...harnessLines(doc), ...unreachableFileLines(doc, resolves)])
      if (!found.some((f) => f.line === s.line)) found.push(s);
    found.sort((a, b) => a.line - b.line);
    if (found.length === 0) continue;
    const target = targetOf(doc);
    const lines: AssistantOption['lines'] = found.map((l) =>
      managed({ path: doc.path, line: l.line })
        ? { ...l, rewrite: null, managed: true }
        : { ...l, rewrite: copilotRewrite(l.text, target) },
    );
    const canRewrite = lines.some((l) => l.rewrite !== null);
    const dropped = leftOutLines(doc, found, about, managed);
    const fates: AssistantFate[] = [
      'keep',
      ...(canRewrite ? (['rewrite'] as const) : []),
      ...(dropped.length > 0 ? (['leave_out'] as const) : []),
    ];
    const option: AssistantOption = { path: doc.path, target, fates, lines, leftOut: dropped.map(({ line, text }) => ({ line, text })) };
    // Every line inside a managed block: nothing to choose, the note says why they stay.
    if (fates.length > 1) out.options.push(option);
    const asked = choices.assistants?.[doc.path];
    const fate: AssistantFate = asked !== undefined && fates.includes(asked) ? asked : 'keep';
    if (asked === 'leave_out' || asked === 'rewrite')
      for (const l of lines.filter((x) => x.managed))
        out.notes.push({
          kind: 'managed-kept',
          at: { path: doc.path, line: l.line },
          text: l.text,
          why: `a line you chose to ${asked === 'rewrite' ? 'rewrite for Copilot' : 'leave out'} (${l.names})`,
        });
    if (fate === 'rewrite')
      for (const l of lines) if (l.rewrite !== null) out.rewrites.set({ path: doc.path, line: l.line }, { from: l.text, to: l.rewrite });
    if (fate === 'leave_out')
      for (const f of found)
        if (f.keep !== undefined && !managed({ path: doc.path, line: f.line }))
          out.rewrites.set({ path: doc.path, line: f.line }, { from: f.text, to: f.keep, cut: f.text.slice(f.keep.length).trimStart() });
    if (fate === 'leave_out')
      for (const l of dropped)
        out.leftOut.set(
          { path: doc.path, line: l.line },
          { path: doc.path, line: l.line, text: l.text, reason: `${l.why}: left out as you chose` },
        );
    out.notes.push({
      kind: 'other-assistant',
      path: doc.path,
      lines: found,
      fate,
      rewritable: lines.filter((l) => l.rewrite !== null).length,
      offered: fates.length > 1,
    });
  }
  return out;
}

/**
 * A document without the units the person left out whole: a heading-less file whose every line is
 * left out then brings no heading of its own (the one built from its description) with nothing under it.
 */
export function withoutLeftOut(doc: InstructionDoc, leftOut: LineMap<unknown>): InstructionDoc {
  if (leftOut.size === 0) return doc;
  const units = doc.units.filter((u) => !u.lines.every((_, k) => leftOut.has({ path: u.path, line: u.line + k })));
  return units.length === doc.units.length ? doc : { ...doc, units };
}

/**
 * The notes and options about lines for another assistant, without the lines the plan does not write
 * (`merged`: the same line of another file is written instead, spring-ai's `@CONTRIBUTING.md` line): no
 * note says such a line is migrated, and approve offers no choice about a line that is not in the diff.
 */
export function aboutWrittenLines(
  notes: Note[],
  options: AssistantOption[],
  merged: readonly { path: string; line: number; lines: number }[],
): { notes: Note[]; options: AssistantOption[] } {
  if (merged.length === 0) return { notes, options };
  const gone = new LineMap<true>();
  for (const m of merged) for (let i = 0; i < m.lines; i++) gone.set({ path: m.path, line: m.line + i }, true);
  const written = <L extends { line: number }>(p: string, lines: L[]) => lines.filter((l) => !gone.has({ path: p, line: l.line }));
  return {
    notes: notes.flatMap((n): Note[] => {
      if (n.kind !== 'other-assistant') return [n];
      const lines = written(n.path, n.lines);
      if (lines.length === n.lines.length) return [n];
      return lines.length === 0 ? [] : [{ ...n, lines, rewritable: Math.min(n.rewritable, lines.length) }];
    }),
    options: options.flatMap((o): AssistantOption[] => {
      const lines = written(o.path, o.lines);
      // What leave out takes is what is written of the file: a line merged into another file's is not in the diff.
      return lines.length === 0 ? [] : [{ ...o, lines, leftOut: written(o.path, o.leftOut) }];
    }),
  };
}
