import type { Analysis } from '../analysis/analyze.js';
import { conflictWords, secondLookWords } from '../call/words.js';
import { shownProblems } from '../model/second-looks-shown.js';
import { MAX_CONFLICT_FIELDS } from '../planning/choices.js';
import { newReaders, readersOf, readFileOf, surfaceList } from '../analysis/scope/surfaces.js';
import { formatFacts } from '../model/formats.js';
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
 * Which Copilot surfaces read this file today (analysis/scope/surfaces.ts) and, for a file that is not
 * Copilot's own, which see its rules only once they are in the Copilot file they go to: the same
 * table and the same target as the approve form's note on keeping the file (planning/options.ts
 * legacyNote), so analyze, propose and the form name the same surfaces. `target`: where the plan
 * puts its rules; null for a file the plan leaves out (planning/plan.ts migratedTargets).
 */
function whoReads(sentences: Map<string, string>, kind: string, path: string, target: string | null): string {
  // The sentence depends on the kind, the row of the table the file is (readFileOf) and the kind of
  // its target, not on the rest of its path: worked out once per such key and report, not for each of many rules.
  const key = `${kind}\n${readFileOf(kind, path) ?? ''}\n${target?.startsWith('.github/instructions/') ?? ''}`;
  let sentence = sentences.get(key);
  if (sentence === undefined) {
    sentence = readersSentence(kind, path, target);
    sentences.set(key, sentence);
  }
  return sentence;
}

const SCOPED = '.github/instructions/x.instructions.md';

function readersSentence(kind: string, path: string, target: string | null): string {
  const now = readersOf(kind, path);
  const today = now.length === 0 ? 'no Copilot surface reads it today' : `read today by ${surfaceList(now)}`;
  if (formatFacts(kind)?.role === 'copilot' || target === null) return `${today}.`;
  const later = newReaders(kind, path, target);
  return later.length === 0 ? `${today}.` : `${today}; ${surfaceList(later)} will see its rules only after the migration.`;
}

/**
 * `targets`: for each legacy file whose rules move, the Copilot file they go to (no entry: a file left
 * as it is). Without it, every legacy file is taken to move into a scoped Copilot file.
 */
export function analysisReport(
  a: Pick<Analysis, 'pattern' | 'sources' | 'problems' | 'skipped'> & { patternDetail?: string },
  targets?: ReadonlyMap<string, string>,
): string {
  // analyze says what it found in words that fit (an AGENTS.md with headings is not "one flat list").
  const pattern = a.patternDetail ? `${a.pattern}: ${showLine(a.patternDetail)}` : PATTERN_WORDS[a.pattern];
  const out: string[] = [`Pattern: ${pattern}.`];
  if (a.sources.length === 0) out.push('No instruction files were found.');
  else {
    out.push(`Instruction files (${a.sources.length}):`);
    const sentences = new Map<string, string>();
    for (const s of a.sources)
      out.push(
        `- ${showPath(s.path)} (${s.kind}, ${s.bytes} bytes): ${whoReads(sentences, s.kind, s.path, targets ? (targets.get(s.path) ?? null) : SCOPED)}`,
      );
  }
  for (const s of a.skipped) out.push(`Not read: ${showLine(s.detail)}.`);
  if (a.problems.length === 0) out.push('No problems found.');
  else {
    // Pairs worth a second look past the first few are in the JSON output, not here (model/second-looks-shown.ts).
    const { shown, notShown } = shownProblems(a.problems);
    out.push(`Problems (${a.problems.length}):`);
    // The certainty and the rule that found it come last: people sort by the first, reviewers check the second.
    for (const p of shown)
      out.push(
        `- ${p.type === 'contradiction' && p.certainty === 'low' ? 'worth a second look' : p.type}: ${p.type === 'contradiction' ? conflictWords(p) : `${showLine(p.description)} at ${at(p.locations)}`}${p.certainty ? ` (certainty ${p.certainty}${p.kind ? `, ${p.kind}` : ''})` : ''}`,
      );
    if (notShown > 0)
      out.push(`- and ${notShown} more pair${notShown > 1 ? 's' : ''} worth a second look, ranked lower (listed in the JSON output)`);
  }
  return out.join('\n');
}

/** `targets`: where the plan puts each legacy file's rules (planning/plan.ts migratedTargets), the map analyze's report reads. */
export function planReport(plan: PlanFile, targets: ReadonlyMap<string, string>): string {
  const out: string[] = [analysisReport({ ...plan, skipped: [] }, targets)];
  if (plan.operations.length === 0) out.push('', 'Plan: nothing to do.');
  else {
    out.push('', `Plan ${plan.planHash.slice(0, 12)} (${plan.operations.length} file operation${plan.operations.length > 1 ? 's' : ''}):`);
    for (const op of plan.operations) out.push(`- ${op.op} ${showPath(op.path)}`);
    if (plan.merged.length > 0) {
      out.push(`Exact duplicates merged, written once (${plan.merged.length}):`);
      for (const m of plan.merged)
        out.push(
          `- ${showPath(m.path)}:${m.line} (${m.repeat ? 'repeats its own section' : 'a copy of another file'}; kept at ${showPath(m.keptAt.path)}:${m.keptAt.line})`,
        );
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
