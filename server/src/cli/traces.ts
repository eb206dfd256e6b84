import { showJson, showLine } from '../show/untrusted.js';
import { listTraces } from '../trace/reader.js';
import { verifyTraces } from '../trace/verify.js';

/** Traces hold what clients and files sent (a client's name, messages): every cell and line is shown escaped. */

export async function tracesCommand(root: string, action: 'list' | 'show' | 'verify', id: string | undefined, json: boolean): Promise<number> {
  if (action === 'verify') {
    const report = await verifyTraces(root);
    if (json) process.stdout.write(`${showJson(report)}\n`);
    else if (report.ok) process.stdout.write(`${report.traces} traces verified: none is missing, edited or out of order.\n`);
    else process.stderr.write(`The traces do not verify (${report.problems.length} problem${report.problems.length > 1 ? 's' : ''}):\n${report.problems.map((p) => `- ${showLine(p)}`).join('\n')}\n`);
    return report.ok ? 0 : 2;
  }
  const traces = await listTraces(root);
  if (action === 'show') {
    const found = traces.find((t) => t.id === id || t.id.startsWith(id ?? '\0'));
    if (!found) {
      process.stderr.write(`No trace named ${id === undefined ? '(none given)' : showLine(id)}. Run copilot-onboard traces list.\n`);
      return 2;
    }
    process.stdout.write(`${showJson(found.data)}\n`);
    return 0;
  }
  if (json) {
    process.stdout.write(`${showJson(traces.map(({ data: _d, file: _f, ...t }) => t))}\n`);
    return 0;
  }
  if (traces.length === 0) {
    process.stdout.write('No traces yet.\n');
    return 0;
  }
  const rows = [['time', 'kind', 'step', 'outcome', 'ms', 'client', 'id'], ...traces.map((t) => [t.timestamp, t.kind, t.step, t.outcome, String(t.duration_ms ?? '-'), t.client, t.id].map(showLine))];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  process.stdout.write(`${rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n')}\n`);
  return 0;
}
