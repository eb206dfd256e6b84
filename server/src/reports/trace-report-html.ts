import { valueText } from '../common/text.js';
import { htmlText } from '../show/markup.js';
import type { ReportStep, TraceReport } from './trace-report.js';

/**
 * `traces report --format html`: the same page as one self-contained file: no script, no link to
 * fetch (styles inline), readable without a network. A Content-Security-Policy that allows no
 * script, no fetch and no form says so to the browser too. Every untrusted string is a text node
 * (show/markup.ts's htmlText); nothing in a trace becomes an attribute a browser acts on.
 */

const CSS = `body{font:15px/1.5 system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#1f2328}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #d0d7de;padding:.3em .6em;text-align:left;vertical-align:top}
code,pre{font:13px/1.4 ui-monospace,monospace;background:#f6f8fa}pre{padding:.8em;overflow:auto;white-space:pre-wrap;word-break:break-all}
.ok{color:#1a7f37}.bad{color:#cf222e}.model{border-left:4px solid #8250df;padding-left:1em}section{border-top:1px solid #d0d7de;margin-top:1.5em}`;

const c = (s: string) => `<code>${htmlText(s)}</code>`;

export function traceReportHtml(report: TraceReport): string {
  const { chain } = report;
  const out = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    '<title>copilot-onboard: traces report</title>',
    `<style>${CSS}</style></head><body>`,
    '<h1>copilot-onboard: what the person was asked, and what changed</h1>',
    chain.ok
      ? `<p class="ok"><strong>Trace chain verifies</strong> (${chain.traces} traces: none is missing, edited or out of order).</p>`
      : `<p class="bad"><strong>Trace chain does not verify</strong> (${chain.problems.length} problems): what follows may not be what happened.</p>`,
    list(chain.problems),
    chain.acknowledged.length ? `<p>Gaps a person acknowledged:</p>${list(chain.acknowledged)}` : '',
  ];
  if (report.steps.length) {
    out.push(
      '<table><thead><tr><th>#</th><th>answered (UTC)</th><th>step</th><th>client</th><th>answer</th><th>outcome</th><th>plan</th></tr></thead><tbody>',
      ...report.steps.map(
        (s) =>
          `<tr><td>${s.seq ?? '?'}</td><td>${c(s.answeredAt)}</td><td>${c(s.step)}${s.round ? ` (${s.round})` : ''}</td><td>${s.client ? c(`${s.client.name} ${s.client.version}`) : 'none'}</td><td>${s.answer ? c(s.answer.action) : 'no answer'}</td><td>${c(s.outcome)}</td><td>${s.planHash ? c(s.planHash.slice(0, 12)) : '-'}</td></tr>`,
      ),
      '</tbody></table>',
    );
  } else out.push('<p>No gated step has been traced yet.</p>');
  out.push(...report.steps.map(stepSection));
  for (const n of report.narration) {
    if (n.text === '' && n.model === null) continue;
    out.push(
      `<section class="model"><h2>${n.about === 'opinion' ? "The client model's opinion of the second-look pairs" : `Narration for ${c(n.intent)}`} (seq ${n.seq ?? '?'}${n.chain === 'read-only' ? ' of the read-only chain, kept on this machine' : ''})</h2>`,
      n.about === 'opinion' && n.outcome !== 'ok'
        ? `<p>The answer was not used (${c(n.outcome)}): the pairs kept the tool's own rank. The model's words, quoted:</p>`
        : n.fallback
          ? `<p>The tool's built-in report was shown (${c(n.outcome)}).</p>`
          : `<p><strong>The client model's words, quoted, not the tool's facts</strong> (model ${n.model ? c(n.model) : 'not named'}, ${c(n.timestamp)}, ${c(n.file)}):</p>`,
      `<blockquote><pre>${htmlText(n.text, true)}</pre></blockquote></section>`,
    );
  }
  out.push(`<p><small>copilot-onboard ${htmlText(report.toolVersion)} · copilot-onboard traces report</small></p>`, '</body></html>');
  return `${out.filter((l) => l !== '').join('\n')}\n`;
}

function list(items: readonly string[]): string {
  return items.length ? `<ul>${items.map((p) => `<li>${c(p)}</li>`).join('')}</ul>` : '';
}

function stepSection(s: ReportStep): string {
  const out = [`<section><h2>${s.seq ?? '?'}. ${c(s.step)}${s.round ? ` (${s.round} round)` : ''}: ${c(s.outcome)}</h2>`];
  if (s.unreadable) return `${out[0]}<p>The trace ${c(s.file)} could not be read; traces verify says why.</p></section>`;
  const items = [
    `<li><strong>Asked by</strong>: client ${s.client ? c(`${s.client.name} ${s.client.version}`) : '<em>none named</em>'}${s.tool ? `, tool ${c(s.tool)}` : ', from the command line'}${s.startedAt ? `, from ${c(s.startedAt)}` : ''}</li>`,
    s.shown.chars > 0
      ? `<li><strong>Shown</strong>: ${s.planHash ? `plan ${c(s.planHash)}, ` : ''}a message of ${s.shown.lines} lines (${s.shown.chars} characters)${s.shown.files.length ? `, with the diff of ${s.shown.files.length} file${s.shown.files.length === 1 ? '' : 's'}: +${s.shown.diffLines.added} −${s.shown.diffLines.removed} lines: ${s.shown.files.map((f) => `${c(f.path)} (+${f.added} −${f.removed})`).join(', ')}` : ''}</li>`
      : '<li><strong>Shown</strong>: nothing (no form could be shown)</li>',
  ];
  for (const ch of s.shown.choices) {
    const answered = s.answer?.content?.[ch.field];
    const titled = (v: unknown) => ch.options.find((o) => o.value === v)?.title ?? valueText(v);
    items.push(
      `<li>asked ${c(ch.title)}; options ${ch.options.map((o) => c(o.title)).join(', ')}; default ${ch.default === null ? 'none' : c(titled(ch.default))}; answered ${answered === undefined ? '<em>not given: the default</em>' : c(titled(answered))}</li>`,
    );
  }
  const content = s.answer?.content ? Object.entries(s.answer.content).filter(([k]) => !s.shown.choices.some((x) => x.field === k)) : [];
  items.push(
    `<li><strong>Answered</strong>: ${s.answer ? `${c(s.answer.action)}${content.map(([k, v]) => `, ${c(k)} = ${c(JSON.stringify(v))}`).join('')}` : 'no answer came'} at ${c(s.answeredAt)}${s.durationMs === null ? '' : ` (${s.durationMs} ms after asking)`}</li>`,
  );
  if (s.written) items.push(`<li><strong>Done</strong>: ${c(s.written)}</li>`);
  if (s.reason !== null) items.push(`<li><strong>Reason given</strong>: ${c(s.reason)}</li>`);
  for (const p of s.acknowledged) items.push(`<li>acknowledged: ${c(p)}</li>`);
  items.push(`<li><strong>Trace</strong>: ${c(s.file)}</li>`);
  out.push(`<ul>${items.join('\n')}</ul>`);
  if (s.shown.chars > 0) out.push(`<details><summary>What the person was shown</summary><pre>${htmlText(s.message, true)}</pre></details>`);
  out.push('</section>');
  return out.join('\n');
}
