import { analyze } from '../analysis/analyze.js';
import { contentDocs, scanRepository, type ScanResult } from '../analysis/discovery/scan.js';
import { buildPlan, defaultRepoint } from '../planning/plan.js';
import { withoutRepointedCopies } from '../planning/repoint.js';
import type { Certainty, Location } from '../model/problem.js';
import {
  CHECK_RULE_IDS,
  CHECK_RULES,
  rulesFailedAt,
  ruleOfType,
  type CheckRule,
  type FailOn,
  type FindingKind,
} from '../model/findings.js';
import { shownProblems } from '../model/second-looks-shown.js';
import type { SkipReason } from '../repo/source-file.js';
import type { PlanOperation, Provenance } from '../model/plan.js';
import { sha256 } from '../common/hash.js';
import { VERSION } from '../version.js';
import { byCodeUnit } from '../common/collections.js';
import { managedLineNumbers } from '../model/managed-blocks.js';
import { copilotHolds, ruleLinesOf, supersededNow, withoutCopies } from './superseded.js';
import type { FlowContext } from '../call/context.js';
import { showLine, showPath, showText } from '../show/untrusted.js';
import { result, resultForError, type StepResult } from './result.js';

/**
 * `check`: what CI asks on every pull request. Read-only: it scans, analyzes and builds the plan in
 * memory (never through the propose step, which writes .copilot-state/), and reads the state only
 * to know which legacy files a migration left in place. Nothing is written anywhere.
 */

export type { CheckRule, FailOn };

export interface CheckFinding {
  rule: CheckRule;
  /** Which rule of analysis found it (analyze's `kind`), or the check's own ("legacy-only", "create", ...): model/findings.ts. */
  kind: FindingKind;
  certainty: Certainty;
  message: string;
  /** The first is where the finding is reported; the others are its other sides. */
  locations: Location[];
  /** Stable across line moves: the rule, the kind, the paths and the trimmed text of each location. */
  fingerprint: string;
  /** Set when a baseline holds this finding: it is reported but does not fail the check. */
  inBaseline?: boolean;
  /** would-change only: the file propose would create, change or remove (its locations are where to look now). */
  target?: string;
  /** Contradictions: the side each location is on (parallel to locations); locations on one side agree. */
  sides?: number[];
}

export interface CheckReport {
  /** Who made the report, for `fleet` (which merges many): always copilot-onboard, at this version. */
  tool: 'copilot-onboard';
  version: string;
  /** How many instruction files the scan found. */
  files: number;
  failOn: FailOn;
  failed: boolean;
  counts: Record<CheckRule, number>;
  findings: CheckFinding[];
}

export async function runCheck(
  root: string,
  failOn: FailOn = 'contradiction',
  baseline: ReadonlySet<string> = new Set(),
): Promise<CheckReport> {
  const scan = await scanRepository(root);
  const analysis = analyze(scan);
  const superseded = await supersededNow(root, scan);
  // Nor a kept legacy line against its copy whose pointers the migration rewrote (planning/repoint.ts).
  const problems = withoutRepointedCopies(withoutCopies(analysis.problems, superseded), scan, () => defaultRepoint(scan));
  const lineText = lineReader(scan);
  const findings: CheckFinding[] = [];
  // `keyedAt`: the locations the fingerprint is made of, when they are not the ones shown (would-change).
  const add = (f: Omit<CheckFinding, 'fingerprint'>, keyedAt: Location[] = f.locations) => {
    const key = [f.rule, f.kind, ...keyedAt.map((l) => `${l.path}\n${lineText(l)}`)].join('\n\n');
    findings.push({ ...f, fingerprint: sha256(key) });
  };
  // At most a few pairs worth a second look, the highest ranked (model/second-looks-shown.ts).
  for (const p of shownProblems(problems).shown) {
    add({
      rule: ruleOfType(p.type),
      kind: p.kind,
      certainty: p.certainty,
      message: p.description,
      locations: p.locations.map(({ path, line }) => ({ path, line })),
      ...(p.type === 'contradiction' && p.sides.length === p.locations.length ? { sides: [...p.sides] } : {}),
    });
  }
  for (const d of findDrift(scan)) add(d);
  for (const u of unreadFindings(scan)) add(u);
  const plan = buildPlan(scan, analysis);
  for (const op of plan.operations) {
    const verb = op.op === 'create' ? 'would create' : op.op === 'update' ? 'would change' : 'would remove';
    // Shown where a reader can look: a file to create does not exist yet, so at the sources it
    // would be made from; the fingerprint stays the target's, as before, so baselines still match.
    add(
      {
        rule: 'would-change',
        kind: op.op,
        certainty: 'high',
        message: `propose ${verb} ${op.path}`,
        target: op.path,
        locations: wouldChangeAt(op, plan.provenance),
      },
      [{ path: op.path, line: 1 }],
    );
  }
  findings.sort(byFinding);
  for (const f of findings) if (baseline.has(f.fingerprint)) f.inBaseline = true;
  const counts = Object.fromEntries(CHECK_RULE_IDS.map((r) => [r, findings.filter((f) => f.rule === r).length])) as Record<
    CheckRule,
    number
  >;
  // A contradiction worth a second look (low certainty) is shown, and fails only at --fail-on any.
  const fails = rulesFailedAt(failOn);
  const failed = findings.some(
    (f) => !f.inBaseline && fails.has(f.rule) && !(f.rule === 'contradiction' && f.certainty === 'low' && failOn !== 'any'),
  );
  return { tool: 'copilot-onboard', version: VERSION, files: scan.sources.length, failOn, failed, counts, findings };
}

/**
 * Where a would-change finding is shown: a file to create at the first line each source gives it
 * (in the plan's order), since it does not exist yet; a file to change at the first line the diff
 * changes; a file to remove at its line 1. A file to create that no source feeds (none in the
 * provenance) is shown at its own name, line 1, as before.
 */
function wouldChangeAt(op: PlanOperation, provenance: readonly Provenance[]): Location[] {
  if (op.op === 'update') return [{ path: op.path, line: firstChangedLine(op.diff) }];
  if (op.op === 'delete') return [{ path: op.path, line: 1 }];
  const seen = new Map<string, number>();
  for (const p of provenance) if (p.to.path === op.path && !seen.has(p.from.path)) seen.set(p.from.path, Math.max(1, p.from.startLine));
  return seen.size === 0 ? [{ path: op.path, line: 1 }] : [...seen].map(([path, line]) => ({ path, line }));
}

/** The old file's line where a unified diff's first change is: its first hunk's start, past the context lines. */
function firstChangedLine(diff: string): number {
  const lines = diff.split('\n');
  const at = lines.findIndex((l) => l.startsWith('@@ -'));
  if (at < 0) return 1;
  let line = Number(/^@@ -(\d+)/.exec(lines[at]!)?.[1] ?? 1);
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith(' ')) break;
    line++;
  }
  return Math.max(1, line);
}

/**
 * Drift, kept simple: a legacy instruction file that stands beside Copilot's files and holds rule
 * lines that no Copilot file holds (compared line by line, trimmed, headings aside). One finding per
 * such file, at its first such line, the other such lines as further locations. The opposite
 * direction (a rule only in Copilot's files) is not reported: Copilot's files legitimately gather
 * the rules of several legacy files, so a line missing from one of them says nothing.
 */
function findDrift(scan: ScanResult): Omit<CheckFinding, 'fingerprint'>[] {
  const docs = contentDocs(scan);
  const copilot = docs.filter((d) => d.role === 'copilot');
  if (copilot.length === 0) return [];
  // A line whose links a move rewrote to lead where they led, or whose `@path` it wrote as a link, is held.
  const held = copilotHolds(scan, copilot);
  const out: Omit<CheckFinding, 'fingerprint'>[] = [];
  for (const doc of docs) {
    if (doc.role !== 'legacy') continue;
    // A managed block stays in its file on purpose (planning/managed-stays.ts): its lines are no drift.
    const text = scan.files.get(doc.path)?.text ?? '';
    const managed = text.includes('<!--') ? managedLineNumbers(text.split('\n')) : null;
    const missing = ruleLinesOf(doc.units).filter((l) => !managed?.has(l.line) && !held(doc.path, l.text));
    if (missing.length === 0) continue;
    const n = missing.length;
    out.push({
      rule: 'drift',
      kind: 'legacy-only',
      certainty: 'high',
      message: `${doc.path} holds ${n} rule line${n === 1 ? '' : 's'} that none of Copilot's instruction files holds: first "${missing[0]!.text.slice(0, 120)}"`,
      locations: missing.map((l) => ({ path: doc.path, line: l.line })),
    });
  }
  return out;
}

/** The kind of an unread finding, by why the file was skipped: each a row of model/findings.ts (`unread`'s own kinds). */
const UNREAD_KINDS = {
  too_large: 'too-large',
  binary: 'binary',
  not_utf8: 'not-utf8',
  symlink_outside: 'symlink-outside',
  not_a_file: 'not-a-file',
  unreadable: 'unreadable',
} as const satisfies Record<SkipReason, keyof (typeof CHECK_RULES)['unread']['ownKinds']>;

/**
 * Every instruction file the scan skipped (too large, binary, not UTF-8, a name that is not UTF-8,
 * a link leaving the repository, not a regular file, unreadable): one finding each, at its line 1.
 * The agents may still read what check did not, so a check that passes must have read everything.
 */
function unreadFindings(scan: ScanResult): Omit<CheckFinding, 'fingerprint'>[] {
  return scan.skipped.map((s) => ({
    rule: 'unread',
    kind: UNREAD_KINDS[s.reason],
    certainty: 'high',
    message: `${showPath(s.path)} ${s.why}: check did not read it, so it cannot vouch for what it says (an assistant may still read it)`,
    locations: [{ path: s.path, line: 1 }],
  }));
}

function lineReader(scan: ScanResult): (l: Location) => string {
  const split = new Map<string, string[]>();
  return (l) => {
    const file = scan.files.get(l.path);
    if (!file) return '';
    let lines = split.get(l.path);
    if (!lines) split.set(l.path, (lines = file.text.split(/\r?\n/)));
    return (lines[l.line - 1] ?? '').trim();
  };
}

function byFinding(a: CheckFinding, b: CheckFinding): number {
  const la = a.locations[0];
  const lb = b.locations[0];
  return (
    CHECK_RULE_IDS.indexOf(a.rule) - CHECK_RULE_IDS.indexOf(b.rule) ||
    byCodeUnit(la?.path ?? '', lb?.path ?? '') ||
    (la?.line ?? 0) - (lb?.line ?? 0) ||
    byCodeUnit(a.fingerprint, b.fingerprint)
  );
}

/** The baseline file: the fingerprints of the findings a team accepts for now. */
export interface BaselineFile {
  version: 1;
  tool: 'copilot-onboard';
  findings: { fingerprint: string; rule: CheckRule; path: string; message: string }[];
}

export function baselineOf(report: CheckReport): BaselineFile {
  return {
    version: 1,
    tool: 'copilot-onboard',
    findings: report.findings.map((f) => ({
      fingerprint: f.fingerprint,
      rule: f.rule,
      path: f.locations[0]?.path ?? '',
      message: f.message,
    })),
  };
}

/**
 * The fingerprints of a baseline file's text. A file that is not one throws an error that says what
 * is wrong and where (`is not valid JSON (line 3, column 7)`), never what is there: V8's own
 * message quotes the text, and a baseline may be a link to a secret.
 */
export function parseBaseline(text: string): Set<string> {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let json: Partial<BaselineFile> | null;
  try {
    json = JSON.parse(body) as Partial<BaselineFile> | null;
  } catch (err) {
    throw new Error(`is not valid JSON${jsonErrorPlace(body, err)}`);
  }
  if (json?.tool !== 'copilot-onboard' || json.version !== 1 || !Array.isArray(json.findings))
    throw new Error('is not a copilot-onboard baseline (version 1)');
  return new Set(
    json.findings.map((f: unknown, i) => {
      const fingerprint = (f as { fingerprint?: unknown } | null)?.fingerprint;
      if (typeof fingerprint !== 'string') throw new Error(`is not a copilot-onboard baseline: findings[${i}] has no fingerprint`);
      return fingerprint;
    }),
  );
}

/** ` (line L, column C)` where JSON.parse stopped, when its message gives the position; its words quote the text, so only the number is taken. */
function jsonErrorPlace(text: string, err: unknown): string {
  const at = /at position (\d+)/.exec(err instanceof Error ? err.message : '');
  if (!at) return '';
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return ` (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
}

/**
 * The report as text for a person, one finding a line; the same input gives the same bytes. Every
 * path is shown quoted when odd and every message as one line (show/untrusted.ts): a name holding a
 * line break cannot start a line of its own, so no line can be read by a CI runner as a command (`::error`).
 */
export function checkText(report: CheckReport): string {
  const lines = report.findings.map((f) => {
    const at =
      f.locations
        .map((l) => `${showPath(l.path)}:${l.line}`)
        .slice(0, 4)
        .join(', ') + (f.locations.length > 4 ? `, … (${f.locations.length} places)` : '');
    return `${f.inBaseline ? '(baseline) ' : ''}${f.rule} [${showLine(f.kind)}, ${f.certainty}] ${at}: ${showLine(f.message)}`;
  });
  const summary = CHECK_RULE_IDS.map((r) => `${report.counts[r]} ${r}`).join(', ');
  const verdict = report.failed ? `FAILED (--fail-on ${report.failOn})` : `passed (--fail-on ${report.failOn})`;
  return [...lines, `${report.findings.length === 0 ? 'No findings' : summary}: ${verdict}`].join('\n');
}

/** The MCP tool `onboarding_check`: the check at --fail-on contradiction, without a baseline. */
export async function checkStep(ctx: FlowContext): Promise<StepResult> {
  try {
    const report = await runCheck(ctx.root, 'contradiction');
    return result('checked', showText(checkText(report)), { ...report });
  } catch (err) {
    return resultForError(err);
  }
}
