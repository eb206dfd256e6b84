import { BadInputError } from '../common/errors.js';
import { byCodeUnit } from '../common/collections.js';
import type { Certainty } from '../model/problem.js';
import { CERTAINTIES, CHECK_RULE_IDS, CHECK_RULES, type CheckRule } from '../model/findings.js';
import { mdCode } from '../show/markup.js';
import { showJson, showPath } from '../show/untrusted.js';
import { readNamedFile } from '../repo/named-file.js';

/**
 * `copilot-onboard fleet FILE...`: many `check --format json` results (one per repository, as an
 * organisation's workflow collects them) merged into one table with totals. Each FILE is read
 * through the safe reader (cli/named-file.ts). A result that is missing, unreadable or not a check
 * result is a row of its own, with what is wrong, never dropped; the totals add up the rows that
 * were read, and say how many were not.
 */

/** A rule's column: a count, or counts by certainty (contradictions). */
type FleetCount<R extends CheckRule> = (typeof CHECK_RULES)[R]['fleet'] extends { byCertainty: true } ? Record<Certainty, number> : number;
type FleetColumns = { [R in CheckRule as (typeof CHECK_RULES)[R]['fleet']['key']]: FleetCount<R> };

/** The counts of one result, or of all: its files, one column per check rule (model/findings.ts), and its findings. */
export type FleetCounts = { files: number } & FleetColumns & { findings: number };

export interface FleetRow extends Partial<FleetCounts> {
  repository: string;
  /** The result file as it was named. */
  file: string;
  status: 'ok' | 'missing' | 'malformed';
  /** What is wrong with a result that is not ok. */
  problem?: string;
  failed?: boolean;
  failOn?: string;
  version?: string;
}

export interface FleetReport {
  repositories: number;
  read: number;
  missing: number;
  malformed: number;
  failed: number;
  totals: FleetCounts;
  rows: FleetRow[];
}

/** The label of a result: the repository it names (GITHUB_REPOSITORY, as `check` writes it in Actions), else the file as named. */
function labelOf(json: Record<string, unknown> | null, file: string): string {
  return typeof json?.repository === 'string' && json.repository !== '' ? json.repository : file;
}

/** One result's row, from its bytes (null: missing). Never throws: what is wrong is the row's problem. */
export function fleetRow(file: string, bytes: Buffer | string | null, problem?: string): FleetRow {
  if (bytes === null) return { repository: file, file, status: 'missing', problem: problem ?? 'does not exist' };
  let json: unknown;
  try {
    const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
    json = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    return { repository: file, file, status: 'malformed', problem: 'is not valid JSON' };
  }
  const o = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  const findings = Array.isArray(o?.findings) ? (o.findings as unknown[]) : null;
  const counts = o?.counts !== null && typeof o?.counts === 'object' ? (o.counts as Record<string, unknown>) : null;
  if (!o || !findings || !counts || typeof o.failed !== 'boolean')
    return { repository: labelOf(o, file), file, status: 'malformed', problem: 'is not a copilot-onboard check --format json result' };
  const of = (rule: string) =>
    findings.filter((f): f is Record<string, unknown> => f !== null && typeof f === 'object' && (f as { rule?: unknown }).rule === rule);
  return {
    repository: labelOf(o, file),
    file,
    status: 'ok',
    ...counted(
      typeof o.files === 'number' ? o.files : 0,
      (rule, certainty) => of(rule).filter((f) => certainty === undefined || f.certainty === certainty).length,
      findings.length,
    ),
    failed: o.failed,
    failOn: typeof o.failOn === 'string' ? o.failOn : undefined,
    version: typeof o.version === 'string' ? o.version : undefined,
  };
}

/** The counts, in the columns' order: `count` gives a rule's findings, of one certainty when asked. */
function counted(files: number, count: (rule: CheckRule, certainty?: Certainty) => number, findings: number): FleetCounts {
  const columns = Object.fromEntries(
    CHECK_RULE_IDS.map((r) => {
      const column = CHECK_RULES[r].fleet;
      return [column.key, 'byCertainty' in column ? Object.fromEntries(CERTAINTIES.map((c) => [c, count(r, c)])) : count(r)];
    }),
  ) as FleetColumns;
  return { files, ...columns, findings };
}

/** A rule's column of a row or of the totals. */
const columnOf = (counts: Partial<FleetCounts>, r: CheckRule): number | Record<Certainty, number> | undefined =>
  (counts as Record<string, number | Record<Certainty, number> | undefined>)[CHECK_RULES[r].fleet.key];

/** A rule's cell: its count, or its counts by certainty as `high / medium / low`. */
function cellOf(counts: Partial<FleetCounts>, r: CheckRule): string {
  const value = columnOf(counts, r);
  return typeof value === 'object' ? CERTAINTIES.map((c) => value[c]).join(' / ') : String(value ?? 0);
}

/** The rows merged: a stable order (by repository, then file), and totals that are the sum of the rows read. */
export function mergeFleet(rows: FleetRow[]): FleetReport {
  const sorted = [...rows].sort((a, b) => byCodeUnit(a.repository, b.repository) || byCodeUnit(a.file, b.file));
  const ok = sorted.filter((r) => r.status === 'ok');
  const sum = (pick: (r: FleetRow) => number | undefined) => ok.reduce((n, r) => n + (pick(r) ?? 0), 0);
  return {
    repositories: sorted.length,
    read: ok.length,
    missing: sorted.filter((r) => r.status === 'missing').length,
    malformed: sorted.filter((r) => r.status === 'malformed').length,
    failed: ok.filter((r) => r.failed).length,
    totals: counted(
      sum((r) => r.files),
      (rule, certainty) =>
        sum((r) => {
          const v = columnOf(r, rule);
          return typeof v === 'object' ? v[certainty!] : v;
        }),
      sum((r) => r.findings),
    ),
    rows: sorted,
  };
}

export function fleetMarkdown(report: FleetReport): string {
  const t = report.totals;
  const lines = [
    '## copilot-onboard fleet',
    '',
    `${report.repositories} result${report.repositories === 1 ? '' : 's'}: ${report.read} read, ${report.failed} failed their check${report.missing ? `, **${report.missing} missing**` : ''}${report.malformed ? `, **${report.malformed} malformed**` : ''}.`,
    '',
    `| repository | result | files | ${CHECK_RULE_IDS.map((r) => CHECK_RULES[r].fleet.header).join(' | ')} | tool |`,
    `|---|---|---:|${CHECK_RULE_IDS.map((r) => ('byCertainty' in CHECK_RULES[r].fleet ? '---' : '---:')).join('|')}|---|`,
  ];
  const cell = (s: string) => mdCode(s, { inTable: true });
  const empty = CHECK_RULE_IDS.map(() => ' |').join('');
  for (const r of report.rows) {
    if (r.status !== 'ok') {
      lines.push(`| ${cell(r.repository)} | **${r.status}**: ${cell(`${r.file} ${r.problem ?? ''}`)} |${empty} | |`);
      continue;
    }
    const cells = CHECK_RULE_IDS.map((rule) => cellOf(r, rule)).join(' | ');
    lines.push(
      `| ${cell(r.repository)} | ${r.failed ? '❌ failed' : '✅ passed'} | ${r.files} | ${cells} | ${r.version ? cell(r.version) : '?'} |`,
    );
  }
  lines.push(
    `| **total** | ${report.failed} failed of ${report.read} | ${t.files} | ${CHECK_RULE_IDS.map((rule) => cellOf(t, rule)).join(' | ')} | |`,
  );
  return `${lines.join('\n')}\n`;
}

/** The command: each FILE read through the safe reader (relative to the working directory); exit 1 when a result is missing or malformed. */
export async function fleetCommand(files: string[], format: 'markdown' | 'json'): Promise<number> {
  if (files.length === 0) throw new BadInputError('fleet needs at least one FILE (a check --format json result).');
  const rows: FleetRow[] = [];
  for (const file of files) {
    try {
      rows.push(fleetRow(file, await readNamedFile('fleet', file, process.cwd())));
    } catch (err) {
      if (!(err instanceof BadInputError)) throw err;
      const missing = / does not exist$/.test(err.message);
      rows.push({
        repository: file,
        file,
        status: missing ? 'missing' : 'malformed',
        problem: missing ? 'does not exist' : err.message.replace(`fleet ${showPath(file)}`, '').trim(),
      });
    }
  }
  const report = mergeFleet(rows);
  process.stdout.write(format === 'json' ? `${showJson(report)}\n` : fleetMarkdown(report));
  return report.missing + report.malformed > 0 ? 1 : 0;
}
