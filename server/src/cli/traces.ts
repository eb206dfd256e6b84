import path from 'node:path';
import { BadInputError } from '../common/errors.js';
import { withLock } from '../state/lock.js';
import { prune, RETENTION } from '../state/retention.js';
import { showJson, showLine, showPath } from '../show/untrusted.js';
import { listTraces } from '../state/traces/reader.js';
import { acknowledgeTraces, verifyTraces } from '../state/traces/verify.js';

/** Traces hold what clients and files sent (a client's name, messages): every cell and line is shown escaped. */
export type TracesAction = 'list' | 'show' | 'verify' | 'acknowledge' | 'prune' | 'report';
export const REPORT_FORMATS = ['markdown', 'html', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export async function tracesCommand(
  root: string,
  action: TracesAction,
  id: string | undefined,
  json: boolean,
  reason?: string,
  report: { format?: string; out?: string } = {},
  /** How to list the traces again, as the person can type it where they stand. */
  listCommand = 'copilot-onboard traces list',
): Promise<number> {
  if (action === 'report') return reportCommand(root, json ? 'json' : (report.format ?? 'markdown'), report.out);
  if (report.format !== undefined || report.out !== undefined)
    throw new BadInputError('--format and --out go with traces report only. Nothing was written.');
  if (action === 'verify') return verifyCommand(root, json);
  if (action === 'prune') return pruneCommand(root, json, reason);
  if (action === 'acknowledge') return acknowledgeCommand(root, json, reason);
  const traces = await listTraces(root);
  if (action === 'show') {
    const found = traces.find((t) => t.id === id || t.id.startsWith(id ?? '\0'));
    if (!found) {
      process.stderr.write(`No trace named ${id === undefined ? '(none given)' : showLine(id)}. Run ${listCommand} to see their names.\n`);
      return 2;
    }
    process.stdout.write(`${showJson(found.data)}\n`);
    return 0;
  }
  if (json) process.stdout.write(`${showJson(traces.map(({ data: _d, file: _f, ...t }) => t))}\n`);
  else process.stdout.write(traces.length === 0 ? 'No traces yet.\n' : traceTable(traces));
  return 0;
}

/** One row a trace, in aligned columns. */
function traceTable(traces: Awaited<ReturnType<typeof listTraces>>): string {
  const rows = [
    ['time', 'kind', 'step', 'outcome', 'ms', 'client', 'id'],
    ...traces.map((t) => [t.timestamp, t.kind, t.step, t.outcome, String(t.duration_ms ?? '-'), t.client, t.id].map(showLine)),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

async function verifyCommand(root: string, json: boolean): Promise<number> {
  const report = await verifyTraces(root);
  if (json) process.stdout.write(`${showJson(report)}\n`);
  else if (report.ok) {
    const acknowledged = report.acknowledged.length;
    process.stdout.write(
      acknowledged === 0
        ? `${report.traces} traces verified: none is missing, edited or out of order.\n`
        : `${report.traces} traces verified, with ${acknowledged} problem${acknowledged > 1 ? 's' : ''} a person acknowledged (traces list shows the acknowledge trace):\n${report.acknowledged.map((p) => `- ${showLine(p)}`).join('\n')}\n`,
    );
  } else {
    process.stderr.write(
      `The traces do not verify (${report.problems.length} problem${report.problems.length > 1 ? 's' : ''}):\n${report.problems.map((p) => `- ${showLine(p)}`).join('\n')}\n` +
        'When you know why (you removed or edited traces yourself), record it: copilot-onboard traces acknowledge --reason "..." writes a trace saying so.\n',
    );
  }
  return report.ok ? 0 : 2;
}

/** The retention policy now, down to its limits: gated traces stay, and so does every backup that can still be rolled back. */
async function pruneCommand(root: string, json: boolean, reason: string | undefined): Promise<number> {
  const done = await withLock(root, 'operation', 'traces prune', () =>
    prune(root, reason?.trim() || 'copilot-onboard traces prune, from the command line.', { force: true }),
  );
  if (json) process.stdout.write(`${showJson(done ?? { trace: null, traces: 0, backups: [] })}\n`);
  else if (!done)
    process.stdout.write(
      `Nothing to prune: at most ${RETENTION.readOnlyTraces} read-only traces and the backups of the last ${RETENTION.backups} rolled-back migrations are kept, and every gated trace. Nothing was written.\n`,
    );
  else {
    const trace = done.trace === null ? null : path.relative(root, done.trace).split(path.sep).join('/');
    const record = trace === null ? "the read-only chain's head records" : `${showLine(trace)} records`;
    process.stdout.write(
      `Pruned ${done.traces} read-only trace${done.traces === 1 ? '' : 's'}${done.backups.length ? ` and ${done.backups.length} backup${done.backups.length === 1 ? '' : 's'} (${done.backups.map(showLine).join(', ')})` : ''}; ${record} what was removed, so traces verify still verifies the chain.\n`,
    );
  }
  return 0;
}

async function acknowledgeCommand(root: string, json: boolean, reason: string | undefined): Promise<number> {
  if (reason === undefined || reason.trim() === '') {
    throw new BadInputError(
      'traces acknowledge needs --reason "why the chain broke": the reason goes into the acknowledge trace. Nothing was written.',
    );
  }
  const done = await acknowledgeTraces(root, reason.trim());
  if (json) process.stdout.write(`${showJson(done ?? { trace: null, problems: [] })}\n`);
  else if (!done) process.stdout.write('The traces verify: there is nothing to acknowledge, and nothing was written.\n');
  else
    process.stdout.write(
      `Acknowledged ${done.problems.length} problem${done.problems.length > 1 ? 's' : ''} in ${done.trace}:\n${done.problems.map((p) => `- ${showLine(p)}`).join('\n')}\n`,
    );
  return 0;
}

/**
 * `traces report`: one page for the reviewer of a migration pull request (cli/trace-report.ts), in
 * Markdown (a pull-request comment), HTML (one self-contained file) or JSON. Printed, or written to
 * `--out FILE` through the safe writer (cli/named-file.ts), as `check --write-baseline` is. Exits 0
 * whether or not the chain verifies (the page says which; `traces verify` is the gate).
 */
async function reportCommand(root: string, format: string, out: string | undefined): Promise<number> {
  if (!(REPORT_FORMATS as readonly string[]).includes(format))
    throw new BadInputError(`traces report --format ${showLine(format)}: use ${REPORT_FORMATS.join(', ')}. Nothing was written.`);
  const { traceReport } = await import('../reports/trace-report.js');
  const report = await traceReport(root);
  const text =
    format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : format === 'html'
        ? (await import('../reports/trace-report-html.js')).traceReportHtml(report)
        : (await import('../reports/trace-report-markdown.js')).traceReportMarkdown(report);
  if (out === undefined) {
    process.stdout.write(format === 'json' ? `${showJson(report)}\n` : text);
    return 0;
  }
  const { writeNamedFile } = await import('../repo/named-file.js');
  await writeNamedFile('--out', out, root, text);
  process.stderr.write(
    `Wrote the traces report (${format}) to ${showPath(out)}: ${report.steps.length} gated step${report.steps.length === 1 ? '' : 's'}, the chain ${report.chain.ok ? 'verifies' : 'does not verify'}.\n`,
  );
  return 0;
}
