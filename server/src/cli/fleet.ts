import { BadInputError } from '../common/errors.js';
import { byCodeUnit } from '../common/collections.js';
import type { Certainty } from '../model/problem.js';
import { CERTAINTIES, CHECK_RULE_IDS, CHECK_RULES, type CheckRule } from '../model/findings.js';
import { mdCode } from '../show/markup.js';
import { JOB_SUMMARY_BYTES } from '../reports/check-markdown.js';
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

/**
 * The largest count a result may hold: a billion. Far past any repository (a check reads at most
 * a few thousand files), and small enough that a million results still add up exactly (2^53).
 */
export const MAX_COUNT = 1_000_000_000;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_COUNT;

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
  // Every count is a whole number a check could have written: `1e999` parses as Infinity and would make every total Infinity.
  const named: [string, unknown][] = [
    ['files', o.files ?? 0],
    ...Object.entries(counts).map(([k, v]): [string, unknown] => [`counts.${k}`, v]),
  ];
  const bad = named.find(([, v]) => !isCount(v));
  if (bad)
    return {
      repository: labelOf(o, file),
      file,
      status: 'malformed',
      problem: `has ${bad[0]} that is not a whole number from 0 to ${MAX_COUNT.toLocaleString('en')}`,
    };
  const of = (rule: string) =>
    findings.filter((f): f is Record<string, unknown> => f !== null && typeof f === 'object' && (f as { rule?: unknown }).rule === rule);
  return {
    repository: labelOf(o, file),
    file,
    status: 'ok',
    ...counted(
      (o.files as number | undefined) ?? 0,
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

/** How many characters of a name a cell shows: one long name must not push the table past the job summary's limit. */
const CELL_CHARS = 200;
/** How many names the lists above the table show (the table has them all). */
const LISTED = 50;

const shortened = (s: string) => (s.length > CELL_CHARS ? `${s.slice(0, CELL_CHARS)}… (${s.length.toLocaleString('en')} characters)` : s);

/**
 * The merged table for the job summary: the results not read and the repositories that failed
 * first (a platform team looks for those), then one row per result and the total row. GitHub drops
 * a step's whole summary past 1 MiB, so the text stays under `maxBytes`: a long name is cut in its
 * cell, and past the limit whole rows are left out, with a line saying how many (the JSON has all).
 */
export function fleetMarkdown(report: FleetReport, maxBytes = JOB_SUMMARY_BYTES): string {
  const t = report.totals;
  const cell = (s: string) => mdCode(shortened(s), { inTable: true });
  const names = (rows: FleetRow[]) =>
    rows
      .slice(0, LISTED)
      .map((r) => mdCode(shortened(r.repository)))
      .join(', ') + (rows.length > LISTED ? ` and ${rows.length - LISTED} more` : '');
  const notRead = report.rows.filter((r) => r.status !== 'ok');
  const failed = report.rows.filter((r) => r.status === 'ok' && r.failed);
  const head = [
    '## copilot-onboard fleet',
    '',
    `${report.repositories} result${report.repositories === 1 ? '' : 's'}: ${report.read} read, ${report.failed} failed their check${report.missing ? `, **${report.missing} missing**` : ''}${report.malformed ? `, **${report.malformed} malformed**` : ''}.`,
  ];
  if (notRead.length > 0) head.push('', `**Not read** (${notRead.length}): ${names(notRead)}.`);
  if (failed.length > 0) head.push('', `**Failed their check** (${failed.length}): ${names(failed)}.`);
  head.push(
    '',
    `| repository | result | files | ${CHECK_RULE_IDS.map((r) => CHECK_RULES[r].fleet.header).join(' | ')} | tool |`,
    `|---|---|---:|${CHECK_RULE_IDS.map((r) => ('byCertainty' in CHECK_RULES[r].fleet ? '---' : '---:')).join('|')}|---|`,
  );
  const empty = CHECK_RULE_IDS.map(() => ' |').join('');
  const body = report.rows.map((r) => {
    if (r.status !== 'ok') return `| ${cell(r.repository)} | **${r.status}**: ${cell(`${r.file} ${r.problem ?? ''}`)} |${empty} | |`;
    const cells = CHECK_RULE_IDS.map((rule) => cellOf(r, rule)).join(' | ');
    return `| ${cell(r.repository)} | ${r.failed ? '❌ failed' : '✅ passed'} | ${r.files} | ${cells} | ${r.version ? cell(r.version) : '?'} |`;
  });
  const total = `| **total** | ${report.failed} failed of ${report.read} | ${t.files} | ${CHECK_RULE_IDS.map((rule) => cellOf(t, rule)).join(' | ')} | |`;
  // Bounded by hand rather than with boundedLines: the notice must come after the table, and the total row stay in it.
  const notice = (left: number) =>
    `**${left} row${left === 1 ? '' : 's'} not shown**: a job summary holds at most 1 MiB. \`copilot-onboard fleet --format json\` lists them all.`;
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8') + 1;
  let used = [...head, total, '', notice(body.length)].reduce((n, l) => n + bytes(l), 0);
  const kept: string[] = [];
  for (const row of body) {
    if (used + bytes(row) > maxBytes) break;
    kept.push(row);
    used += bytes(row);
  }
  const left = body.length - kept.length;
  return `${[...head, ...kept, total, ...(left > 0 ? ['', notice(left)] : [])].join('\n')}\n`;
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
