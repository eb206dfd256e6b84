import { BadInputError } from '../common/errors.js';
import { byCodeUnit } from '../common/collections.js';
import type { Certainty } from '../model/problem.js';
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

export interface FleetCounts {
  files: number;
  contradictions: Record<Certainty, number>;
  duplicates: number;
  drift: number;
  wouldChange: number;
  ambiguity: number;
  findings: number;
}

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

const CERTAINTIES: readonly Certainty[] = ['high', 'medium', 'low'];

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
  const contradictions = of('contradiction');
  return {
    repository: labelOf(o, file),
    file,
    status: 'ok',
    files: typeof o.files === 'number' ? o.files : 0,
    contradictions: Object.fromEntries(CERTAINTIES.map((c) => [c, contradictions.filter((f) => f.certainty === c).length])) as Record<
      Certainty,
      number
    >,
    duplicates: of('duplicate').length,
    drift: of('drift').length,
    wouldChange: of('would-change').length,
    ambiguity: of('ambiguity').length,
    findings: findings.length,
    failed: o.failed,
    failOn: typeof o.failOn === 'string' ? o.failOn : undefined,
    version: typeof o.version === 'string' ? o.version : undefined,
  };
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
    totals: {
      files: sum((r) => r.files),
      contradictions: Object.fromEntries(CERTAINTIES.map((c) => [c, sum((r) => r.contradictions?.[c])])) as Record<Certainty, number>,
      duplicates: sum((r) => r.duplicates),
      drift: sum((r) => r.drift),
      wouldChange: sum((r) => r.wouldChange),
      ambiguity: sum((r) => r.ambiguity),
      findings: sum((r) => r.findings),
    },
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
    '| repository | result | files | contradictions high / medium / low | duplicates | drift | would-change | ambiguity | tool |',
    '|---|---|---:|---|---:|---:|---:|---:|---|',
  ];
  const cell = (s: string) => mdCode(s, { inTable: true });
  for (const r of report.rows) {
    if (r.status !== 'ok') {
      lines.push(`| ${cell(r.repository)} | **${r.status}**: ${cell(`${r.file} ${r.problem ?? ''}`)} | | | | | | | |`);
      continue;
    }
    const c = r.contradictions!;
    lines.push(
      `| ${cell(r.repository)} | ${r.failed ? '❌ failed' : '✅ passed'} | ${r.files} | ${c.high} / ${c.medium} / ${c.low} | ${r.duplicates} | ${r.drift} | ${r.wouldChange} | ${r.ambiguity} | ${r.version ? cell(r.version) : '?'} |`,
    );
  }
  lines.push(
    `| **total** | ${report.failed} failed of ${report.read} | ${t.files} | ${t.contradictions.high} / ${t.contradictions.medium} / ${t.contradictions.low} | ${t.duplicates} | ${t.drift} | ${t.wouldChange} | ${t.ambiguity} | |`,
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
