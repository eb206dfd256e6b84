import { valueText } from '../common/text.js';
import { boundedLines, mdCode, mdFence } from '../show/markup.js';
import type { ReportStep, TraceReport } from './trace-report.js';

/**
 * `traces report --format markdown`: one page for a pull-request comment. Every untrusted string (a
 * path, a client's name, a rule in a choice, the model's words) is a code span or a fenced block
 * (show/markup.ts), so nothing in a trace can close a table, add a link, inject HTML or forge a
 * heading. At most 65,536 characters, GitHub's limit for a comment (a job summary's 1 MiB is more):
 * whole steps are kept in order while they fit, and a line says how many were left out and where
 * they are.
 */

/** GitHub's limit for a pull-request comment, in characters. */
export const COMMENT_CHARS = 65_536;

/** What a step shows of the message the person saw, in characters; the trace file holds all of it. */
const MESSAGE_SHOWN = 3000;
/** What a narration shows of the model's words; the sampling trace holds all of them. */
const NARRATION_SHOWN = 2000;
/** Files listed in full per step; the rest are counted. */
const FILES_SHOWN = 20;

export function traceReportMarkdown(report: TraceReport, maxChars = COMMENT_CHARS): string {
  const { chain } = report;
  const head = [
    '## copilot-onboard: what the person was asked, and what changed',
    '',
    chain.ok
      ? `**Trace chain: ✅ verifies** (${chain.traces} trace${chain.traces === 1 ? '' : 's'}: none is missing, edited or out of order).`
      : `**Trace chain: ❌ does not verify** (${chain.problems.length} problem${chain.problems.length === 1 ? '' : 's'}): what follows may not be what happened.`,
    ...chain.problems.map((p) => `- ${mdCode(p)}`),
    ...(chain.acknowledged.length
      ? [
          '',
          'Gaps a person acknowledged (the acknowledge step below gives the reason):',
          ...chain.acknowledged.map((p) => `- ${mdCode(p)}`),
        ]
      : []),
    '',
  ];
  if (report.steps.length > 0) {
    head.push('| # | answered (UTC) | step | client | answer | outcome | plan |', '|---:|---|---|---|---|---|---|');
    for (const s of report.steps) {
      head.push(
        `| ${s.seq ?? '?'} | ${mdCode(s.answeredAt, { inTable: true })} | ${stepName(s)} | ${s.client ? mdCode(`${s.client.name} ${s.client.version}`, { inTable: true }) : 'none'} | ${s.answer ? mdCode(s.answer.action, { inTable: true }) : 'no answer'} | ${mdCode(s.outcome, { inTable: true })} | ${s.planHash ? mdCode(s.planHash.slice(0, 12), { inTable: true }) : '-'} |`,
      );
    }
    head.push('');
  } else head.push('No gated step has been traced yet.', '');

  const body = report.steps.map(stepBlock);
  for (const n of report.narration) {
    if (n.text === '' && n.model === null) continue;
    const shown =
      n.text.length > NARRATION_SHOWN ? `${n.text.slice(0, NARRATION_SHOWN)}\n[cut here: the rest is in the trace file]` : n.text;
    body.push(
      [
        `### ${n.about === 'opinion' ? "The client model's opinion of the second-look pairs" : `Narration for ${mdCode(n.intent)}`} (seq ${n.seq ?? '?'}${n.chain === 'read-only' ? ' of the read-only chain, kept on this machine' : ''})`,
        '',
        n.about === 'opinion' && n.outcome !== 'ok'
          ? `The answer was not used (${mdCode(n.outcome)}): the pairs kept the tool's own rank. The model's words, quoted:`
          : n.fallback
            ? `The tool's built-in report was shown (${mdCode(n.outcome)}); the model's words, if any, are quoted below.`
            : `**The client model's words, quoted, not the tool's facts** (model ${n.model ? mdCode(n.model) : 'not named'}, ${mdCode(n.timestamp)}, ${mdCode(n.file)}):`,
        '',
        mdFence(shown),
        '',
      ].join('\n'),
    );
  }
  const tail = [
    '',
    `<sub>copilot-onboard ${report.toolVersion} · \`copilot-onboard traces report\` · the traces are in \`.copilot-state/\`</sub>`,
  ];
  return boundedLines(
    head,
    body,
    tail,
    { maxChars },
    (left) =>
      `**${left} more section${left === 1 ? '' : 's'} not shown** (a pull-request comment holds at most 65,536 characters): the whole report is \`copilot-onboard traces report --format html --out report.html\`, and every trace is in \`.copilot-state/elicitation-traces/\` and \`.copilot-state/sampling-traces/\`.`,
  ).text;
}

function stepName(s: ReportStep): string {
  return s.round ? `${mdCode(s.step, { inTable: true })} (${s.round})` : mdCode(s.step, { inTable: true });
}

function stepBlock(s: ReportStep): string {
  const lines = [`### ${s.seq ?? '?'}. ${mdCode(s.step)}${s.round ? ` (${s.round} round)` : ''}: ${mdCode(s.outcome)}`, ''];
  if (s.unreadable) {
    lines.push(`The trace ${mdCode(s.file)} could not be read; \`traces verify\` says why.`, '');
    return lines.join('\n');
  }
  lines.push(
    `- **Asked by**: client ${s.client ? mdCode(`${s.client.name} ${s.client.version}`) : '*none named*'}${s.tool ? `, tool ${mdCode(s.tool)}` : ', from the command line'}${s.startedAt ? `, from ${mdCode(s.startedAt)}` : ''}`,
  );
  if (s.shown.chars > 0) {
    const files = s.shown.files.slice(0, FILES_SHOWN).map((f) => `${mdCode(f.path)} (+${f.added} −${f.removed})`);
    const more = s.shown.files.length > FILES_SHOWN ? ` and ${s.shown.files.length - FILES_SHOWN} more` : '';
    lines.push(
      `- **Shown**: ${s.planHash ? `plan ${mdCode(s.planHash)}, ` : ''}a message of ${s.shown.lines} lines (${s.shown.chars} characters)${
        s.shown.files.length
          ? `, with the diff of ${s.shown.files.length} file${s.shown.files.length === 1 ? '' : 's'}: +${s.shown.diffLines.added} −${s.shown.diffLines.removed} lines: ${files.join(', ')}${more}`
          : ''
      }`,
    );
  } else lines.push('- **Shown**: nothing (no form could be shown)');
  for (const c of s.shown.choices) {
    const answered = s.answer?.content?.[c.field];
    // In the form's words: the question and the options' titles, never its field ids or option codes.
    const titled = (v: unknown) => c.options.find((o) => o.value === v)?.title ?? valueText(v);
    lines.push(
      `  - asked ${mdCode(c.title)}; options ${c.options.map((o) => mdCode(o.title)).join(', ')}; default ${c.default === null ? 'none' : mdCode(titled(c.default))}; answered ${answered === undefined ? '*(not given: the default)*' : mdCode(titled(answered))}`,
    );
  }
  const content = s.answer?.content ? Object.entries(s.answer.content).filter(([k]) => !s.shown.choices.some((c) => c.field === k)) : [];
  lines.push(
    `- **Answered**: ${s.answer ? `${mdCode(s.answer.action)}${content.length ? `, ${content.map(([k, v]) => `${mdCode(k)} = ${mdCode(JSON.stringify(v))}`).join(', ')}` : ''}` : 'no answer came'} at ${mdCode(s.answeredAt)}${s.durationMs === null ? '' : ` (${s.durationMs} ms after asking)`}`,
  );
  if (s.written) lines.push(`- **Done**: ${mdCode(s.written)}`);
  if (s.reason !== null) lines.push(`- **Reason given**: ${mdCode(s.reason)}`);
  for (const p of s.acknowledged) lines.push(`  - acknowledged: ${mdCode(p)}`);
  lines.push(`- **Trace**: ${mdCode(s.file)}`);
  if (s.shown.chars > 0) {
    const cut = s.message.length > MESSAGE_SHOWN;
    lines.push(
      '',
      '<details><summary>What the person was shown</summary>',
      '',
      mdFence(
        cut
          ? `${s.message.slice(0, MESSAGE_SHOWN)}\n[cut here: ${s.message.length - MESSAGE_SHOWN} more characters in the trace file]`
          : s.message,
      ),
      '',
      '</details>',
    );
  }
  lines.push('');
  return lines.join('\n');
}
