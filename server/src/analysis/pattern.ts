import { COPILOT_INSTRUCTIONS_PATH } from './formats/copilot-instructions.js';
import type { InstructionDoc } from '../model/model.js';
import type { Pattern } from '../model/analysis.js';
import type { Problem } from '../model/problem.js';
import { fileNames, NAMED_IN_FULL } from '../show/file-names.js';
import type { ScanResult } from './discovery/scan.js';
import { nestedScope } from './scope/nested-scope.js';
import { allInManagedBlocks } from '../model/managed-blocks.js';

/**
 * The pattern label, from the facts the plan is built from (planning/plan.ts, `layout`): the legacy
 * files whose rules move (content, not an alias, not left out, not the file Copilot's linked file
 * shows), the files it groups (a flat legacy file), Copilot's own files it leaves as they are (a flat
 * `.github/copilot-instructions.md` included: the person's text), and the files left out as copies. So the label never says
 * what the plan does not do (tests/planning/pattern-agrees.test.ts holds it on the whole corpus).
 */
export interface PatternFacts {
  pattern: Pattern;
  /** Files with rules (front matter alone is none). */
  withContent: InstructionDoc[];
  /** Legacy files whose rules the plan moves into Copilot's files. */
  moving: InstructionDoc[];
  /** Legacy files whose rules stand outside headed sections and that the plan groups. */
  grouped: InstructionDoc[];
  /** Copilot's own files (the main one, scoped ones) whose rules stand outside headed sections: the plan leaves them as they are. */
  flatKept: InstructionDoc[];
  /** Legacy files whose rules stand outside headed sections and move, as they are, into a scoped file. */
  flatScoped: InstructionDoc[];
  /** Files left out as copies of another (analysis/repeats/copies.ts), and the file each copies. */
  copies: { path: string; of: string }[];
  /** Contradictions reported (a pair only worth a second look is not). */
  contradictions: number;
}

export function patternFacts(
  scan: ScanResult,
  docs: InstructionDoc[],
  problems: Problem[],
  structured: Record<string, boolean>,
): PatternFacts {
  // A legacy file's managed blocks stay where they are (planning/managed-stays.ts): rules, but none that move.
  const withContent = docs.filter(
    (d) =>
      d.units.some((u) => u.kind !== 'frontmatter') &&
      !(d.role === 'legacy' && allInManagedBlocks(d.units, scan.files.get(d.path)?.text ?? '')),
  );
  // The file a linked Copilot file shows is what Copilot reads already: its rules do not move.
  const shown = scan.files.get(COPILOT_INSTRUCTIONS_PATH)?.link
    ? scan.docs.find((d) => d.path === COPILOT_INSTRUCTIONS_PATH)?.aliasOf
    : null;
  const moving = withContent.filter((d) => d.role === 'legacy' && d.path !== shown);
  const flat = (d: InstructionDoc) => !structured[d.path];
  // Only Copilot's own file is assembled in sections; a scoped file takes each body as it is (planning/render/target.ts).
  const file = scan.files.get(COPILOT_INSTRUCTIONS_PATH);
  const blocked = (file?.linkTarget ?? null) !== null || scan.skipped.some((s) => s.path === COPILOT_INSTRUCTIONS_PATH);
  const repoWide = (d: InstructionDoc) => !blocked && (d.scope.kind === 'repo' || nestedScope(d)?.decided === 'repo');
  const grouped = withContent.filter((d) => flat(d) && moving.includes(d) && repoWide(d));
  // Copilot's own files are the person's text: a flat one is left as they wrote it, never sorted (issue 40).
  const flatKept = withContent.filter((d) => flat(d) && d.role === 'copilot');
  const flatScoped = moving.filter((d) => flat(d) && !grouped.includes(d));
  const copies = scan.copies.filter((c) => c.relation === 'copy').map((c) => ({ path: c.path, of: c.keptPath }));
  const contradictions = problems.filter((p) => p.type === 'contradiction' && p.certainty !== 'low').length;
  const facts = { withContent, moving, grouped, flatKept, flatScoped, copies, contradictions };
  return { pattern: classify(facts), ...facts };
}

/**
 * Which rule decides the pattern, first match wins: clean: no instructions at all. messy: a
 * repository with contradictions, or with copies of one file (the plan migrates one and leaves the
 * others out). structured: no file the plan groups, and most files organised in sections (a few flat
 * ones that move as they are into a scoped file, or Copilot files left as they are, do not make a
 * monorepo of headed files unstructured: issue 40). unstructured: otherwise. Repeats within files
 * alone do not make a repository messy: the plan merges them.
 */
function classify(f: Omit<PatternFacts, 'pattern'>): Pattern {
  if (f.withContent.length === 0) return 'clean';
  if (f.contradictions > 0 || f.copies.length > 0) return 'messy';
  return f.grouped.length === 0 && mostlySectioned(f) ? 'structured' : 'unstructured';
}

/** Fewer than half the files with rules stand outside headed sections. */
const mostlySectioned = (f: Omit<PatternFacts, 'pattern'>) => (f.flatKept.length + f.flatScoped.length) * 2 < f.withContent.length;

const names = (list: InstructionDoc[]) => fileNames(list.map((d) => d.path));

/** The pattern in words that fit the facts, naming its rule ("(rule: ...)"). */
export function describePattern(f: PatternFacts): string {
  if (f.pattern === 'clean') return 'there are no instructions to migrate';
  const movingPart = f.moving.length ? [`the rules in ${names(f.moving)} are not in Copilot's files yet`] : [];
  if (f.pattern === 'messy') return messyWords(f);
  const flat = f.flatKept.length + f.flatScoped.length > 0;
  if (f.pattern === 'structured' && !flat) {
    const rule = 'rule: a file with headings is structured';
    return f.moving.length === 0
      ? `the instructions are already in Copilot's files, organised in sections (${rule})`
      : [`every file is organised in sections (${rule})`, ...movingPart].join('; ');
  }
  const lead =
    f.pattern === 'structured'
      ? ['most files are organised in sections, and the plan groups none (rule: a repository the plan does not group is structured)']
      : [];
  // In a structured repository the few flat files are named, without the rule of the unstructured one.
  const rule = f.pattern === 'structured' ? '' : ' (rule: a file without headings is unstructured)';
  const parts = [...lead, ...movingPart];
  // When the files just counted are the same ones, they are not counted and named a second time.
  const who = (list: InstructionDoc[]) =>
    list.length === f.moving.length && list.every((d, i) => d === f.moving[i]) && list.length > NAMED_IN_FULL
      ? `those ${list.length} files`
      : names(list);
  if (f.grouped.length > 0) {
    parts.push(
      `${who(f.grouped)} ${f.grouped.length === 1 ? 'holds rules' : 'hold rules'} outside headed sections that can be grouped (rule: a file without headings is unstructured)`,
    );
  }
  if (f.flatScoped.length > 0) {
    const one = f.flatScoped.length === 1;
    parts.push(
      `${who(f.flatScoped)} ${one ? 'holds rules' : 'hold rules'} outside headed sections, which move as they are into ${one ? 'its' : 'their'} scoped file${one ? '' : 's'}${rule}`,
    );
  }
  if (f.flatKept.length > 0) {
    const one = f.flatKept.length === 1;
    const main = f.flatKept.some((d) => d.path === COPILOT_INSTRUCTIONS_PATH);
    const what = main ? `Copilot's own file${one ? '' : 's'}` : `Copilot scoped file${one ? '' : 's'}`;
    parts.push(
      `${names(f.flatKept)} ${one ? 'holds rules' : 'hold rules'} outside headed sections; ${one ? `it is ${main ? '' : 'a '}` : 'they are '}${what}, which the plan leaves as ${one ? 'it is' : 'they are'}${rule}`,
    );
  }
  return parts.join('; ');
}

/**
 * The label of a repository the plan leaves as it is: already in Copilot's layout. Planning settles
 * on it (planning/plan.ts, analysisLabel) when no legacy file's rules move and the plan has no
 * operation, so a flat Copilot file with nothing to group is not called "unstructured".
 */
export function describeUnchanged(f: PatternFacts): string {
  const flat = [...f.grouped, ...f.flatKept];
  const rest =
    flat.length === 0
      ? ''
      : `; ${names(flat)} ${flat.length === 1 ? 'holds' : 'hold'} rules outside headed sections, which the plan leaves as they are`;
  return `the instructions are already in Copilot's layout, and the plan changes nothing (rule: a repository the plan leaves as it is is structured)${rest}`;
}

function messyWords(f: PatternFacts): string {
  const parts: string[] = [];
  if (f.contradictions > 0)
    parts.push(
      `${f.contradictions === 1 ? 'one contradiction was' : `${f.contradictions} contradictions were`} found (rule: a repository with contradictions is messy)`,
    );
  if (f.copies.length > 0) {
    const one = f.copies.length === 1;
    const of = [...new Set(f.copies.map((c) => c.of))];
    parts.push(
      `${fileNames(f.copies.map((c) => c.path))} ${one ? 'is a copy' : 'are copies'} of ${fileNames(of)}: the plan migrates ${of.length === 1 ? 'that file' : 'those files'} and leaves the ${one ? 'copy' : 'copies'} out (rule: copies of one file are messy)`,
    );
  }
  return parts.join('; ');
}
