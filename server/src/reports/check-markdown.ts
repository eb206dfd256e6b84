import type { CheckReport } from '../steps/check.js';
import { CERTAINTIES, CHECK_RULE_IDS } from '../model/findings.js';
import { boundedLines, mdCode } from '../show/markup.js';
import { VERSION } from '../version.js';

/**
 * `check --format markdown`: the report for GitHub's job summary ($GITHUB_STEP_SUMMARY). A table of
 * the findings by rule and certainty, then each finding with its locations. Every path and message
 * is a code span (show/markup.ts), so a rule's text cannot close the table, add a link, inject HTML
 * or forge a heading. GitHub takes at most 1 MiB per step's summary: past that, whole findings are
 * left out and a line says how many and how to see them all.
 */

/** GitHub's limit for one step's job summary: 1 MiB. */
export const JOB_SUMMARY_BYTES = 1024 * 1024;

/** How many locations a finding lists in full; the rest are counted. */
const LOCATIONS_SHOWN = 10;

export function checkMarkdown(report: CheckReport, maxBytes = JOB_SUMMARY_BYTES): string {
  const verdict = report.failed ? '❌ failed' : '✅ passed';
  const head = [
    `## copilot-onboard check: ${verdict} (\`--fail-on ${report.failOn}\`)`,
    '',
    report.findings.length === 0
      ? 'No findings: the instruction files agree with each other and with Copilot’s layout.'
      : `${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}${baselineWords(report)}.`,
  ];
  if (report.findings.length > 0) {
    head.push('', '| rule | high | medium | low | total |', '|---|---:|---:|---:|---:|');
    for (const rule of CHECK_RULE_IDS) {
      const of = report.findings.filter((f) => f.rule === rule);
      head.push(`| ${rule} | ${CERTAINTIES.map((c) => of.filter((f) => f.certainty === c).length).join(' | ')} | ${of.length} |`);
    }
    head.push(
      `| **total** | ${CERTAINTIES.map((c) => report.findings.filter((f) => f.certainty === c).length).join(' | ')} | ${report.findings.length} |`,
      '',
      '### Findings',
      '',
    );
  }
  const body = report.findings.map((f, i) => {
    const shown = f.locations.slice(0, LOCATIONS_SHOWN).map((l) => mdCode(`${l.path}:${l.line}`));
    const more = f.locations.length > LOCATIONS_SHOWN ? ` and ${f.locations.length - LOCATIONS_SHOWN} more` : '';
    const target = f.target === undefined ? '' : ` (${mdCode(f.target)})`;
    return `${i + 1}. **${f.rule}**${target}, ${mdCode(f.kind)}, ${f.certainty} certainty${f.inBaseline ? ', in the baseline' : ''}: ${mdCode(f.message)} at ${shown.join(', ')}${more}`;
  });
  const tail = ['', `<sub>copilot-onboard ${VERSION} · see docs/ci.md for each rule</sub>`];
  return boundedLines(
    head,
    body,
    tail,
    { maxBytes },
    (left) =>
      `**${left} finding${left === 1 ? '' : 's'} not shown**: a job summary holds at most 1 MiB. \`copilot-onboard check --format json\` (or \`--format sarif\`) lists them all.`,
  ).text;
}

function baselineWords(report: CheckReport): string {
  const n = report.findings.filter((f) => f.inBaseline).length;
  return n === 0 ? '' : `, ${n} of them in the baseline (reported, not failing)`;
}
