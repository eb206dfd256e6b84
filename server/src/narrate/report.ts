import type { Analysis } from '../analysis/analyze.js';
import { conflictWords, secondLookWords } from '../call/words.js';
import { MAX_CONFLICT_FIELDS } from '../planning/choices.js';
import { newReaders, readersOf, readFileOf, surfaceList } from '../analysis/surfaces.js';
import { showLine, showPath } from '../show/untrusted.js';
import type { PlanFile } from '../state/schema.js';
import type { FlowOptions } from '../call/context.js';
import { stepName } from '../call/words.js';

/**
 * The built-in report: what a person reads when no model narrates. Plain, complete, deterministic.
 * Paths are quoted when they hold anything but plain printable characters; descriptions and notes,
 * which quote rules and name files, are shown as one line each (show/untrusted.ts).
 */

const PATTERN_WORDS: Record<Analysis['pattern'], string> = {
  clean: 'clean: there are no instructions to migrate',
  structured: 'structured: the instructions are already organised in sections',
  unstructured: 'unstructured: the instructions are one flat list that can be grouped into sections',
  messy: 'messy: the instructions repeat or contradict each other',
};

const at = (locations: { path: string; line: number }[]) => locations.map((l) => `${showPath(l.path)}:${l.line}`).join(', ');

/**
 * Which Copilot surfaces read this file today (analysis/surfaces.ts) and, for a file that is not
 * Copilot's own, which see its rules only once they are in Copilot's files (every Copilot file is
 * read by the surfaces that read `.github/instructions/`; code review in VS Code reads only the
 * repo-wide file, so it is not promised here).
 */
function whoReads(kind: string, path: string): string {
  // The sentence depends on the kind and on the row of the table the file is (readFileOf), not on
  // the rest of its path: worked out once per pair, not for each of a repository's many rules.
  const key = `${kind}\n${readFileOf(kind, path) ?? ''}`;
  let sentence = sentences.get(key);
  if (sentence === undefined) {
    sentence = readersSentence(kind, path);
    sentences.set(key, sentence);
  }
  return sentence;
}

const sentences = new Map<string, string>();

function readersSentence(kind: string, path: string): string {
  const now = readersOf(kind, path);
  const today = now.length === 0 ? 'no Copilot surface reads it today' : `read today by ${surfaceList(now)}`;
  if (kind === 'copilot-instructions' || kind === 'copilot-path-instructions') return `${today}.`;
  const later = newReaders(kind, path, '.github/instructions/x.instructions.md');
  return later.length === 0 ? `${today}.` : `${today}; ${surfaceList(later)} will see its rules only after the migration.`;
}

export function analysisReport(a: Pick<Analysis, 'pattern' | 'sources' | 'problems' | 'skipped'> & { patternDetail?: string }): string {
  // analyze says what it found in words that fit (an AGENTS.md with headings is not "one flat list").
  const pattern = a.patternDetail ? `${a.pattern}: ${showLine(a.patternDetail)}` : PATTERN_WORDS[a.pattern];
  const out: string[] = [`Pattern: ${pattern}.`];
  if (a.sources.length === 0) out.push('No instruction files were found.');
  else {
    out.push(`Instruction files (${a.sources.length}):`);
    for (const s of a.sources) out.push(`- ${showPath(s.path)} (${s.kind}, ${s.bytes} bytes): ${whoReads(s.kind, s.path)}`);
  }
  for (const s of a.skipped) out.push(`Not read: ${showLine(s.detail)}.`);
  if (a.problems.length === 0) out.push('No problems found.');
  else {
    out.push(`Problems (${a.problems.length}):`);
    // The certainty and the rule that found it come last: people sort by the first, reviewers check the second.
    for (const p of a.problems)
      out.push(
        `- ${p.type === 'contradiction' && p.certainty === 'low' ? 'worth a second look' : p.type}: ${p.type === 'contradiction' ? conflictWords(p) : `${showLine(p.description)} at ${at(p.locations)}`}${p.certainty ? ` (certainty ${p.certainty}${p.kind ? `, ${p.kind}` : ''})` : ''}`,
      );
  }
  return out.join('\n');
}

export function planReport(plan: PlanFile): string {
  const out: string[] = [analysisReport({ ...plan, skipped: [] })];
  if (plan.operations.length === 0) out.push('', 'Plan: nothing to do.');
  else {
    out.push('', `Plan ${plan.planHash.slice(0, 12)} (${plan.operations.length} file operation${plan.operations.length > 1 ? 's' : ''}):`);
    for (const op of plan.operations) out.push(`- ${op.op} ${showPath(op.path)}`);
    if (plan.merged.length > 0) {
      out.push(`Exact duplicates from other files merged (${plan.merged.length}):`);
      for (const m of plan.merged) out.push(`- ${showPath(m.path)}:${m.line} (kept at line ${m.keptAt.line})`);
    }
    const choosable = plan.legacy.filter((l) => l.fates.length > 1);
    if (choosable.length > 0) {
      out.push('Legacy files (approve lets the person keep, remove or point each one; the default keeps it):');
      for (const l of choosable)
        out.push(
          `- ${showPath(l.path)} ${l.linkTarget !== undefined ? `is a symlink to ${showPath(l.linkTarget)}` : `-> ${showPath(l.target)}`} (choices: ${l.fates.join(', ')})`,
        );
    }
    if (plan.conflicts.length > 0) {
      const notAsked = plan.conflicts.slice(MAX_CONFLICT_FIELDS);
      out.push(
        notAsked.length === 0
          ? 'Contradictions (approve asks which rule stands; the default keeps all and marks them):'
          : `Contradictions (approve asks which rule stands for the first ${MAX_CONFLICT_FIELDS}; the default keeps all and marks them; the last ${notAsked.length} are not asked and keep all their rules, marked):`,
      );
      plan.conflicts.forEach((c, i) =>
        out.push(`- ${conflictWords(c)}${i >= MAX_CONFLICT_FIELDS ? ' (not asked: all kept)' : ''}${secondLookWords(c)}`),
      );
    }
    for (const op of plan.operations) out.push('', op.diff.trimEnd());
  }
  for (const n of plan.notes) out.push(`Note: ${showLine(n)}`);
  return out.join('\n');
}

/** Propose's last line: said after any cut of the report (see StepResult.end). */
export function planNext(plan: Pick<PlanFile, 'operations'>, options?: FlowOptions): string | null {
  return plan.operations.length > 0 ? `Next: ${stepName(options, 'approve')} asks the person to approve this exact plan.` : null;
}
