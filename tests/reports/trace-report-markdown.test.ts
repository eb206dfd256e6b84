import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportNarration, TraceReport } from '../../server/src/reports/trace-report.js';
import { traceReportMarkdown } from '../../server/src/reports/trace-report-markdown.js';
import { traceReportHtml } from '../../server/src/reports/trace-report-html.js';

/** The trace report names each sampling exchange by what it asked: a narration, or the model's opinion of the second-look pairs. */

const narration = (over: Partial<ReportNarration>): ReportNarration => ({
  seq: 3,
  file: '.copilot-state/sampling-traces/x.json',
  chain: 'read-only',
  intent: 'propose',
  about: 'narration',
  timestamp: '2026-11-28T00:00:00.000Z',
  outcome: 'ok',
  model: 'test-model',
  fallback: false,
  text: 'words',
  ...over,
});

const report = (n: ReportNarration[]): TraceReport => ({
  tool: 'copilot-onboard',
  toolVersion: '0.0.0',
  chain: { ok: true, traces: 0, problems: [], acknowledged: [] } as unknown as TraceReport['chain'],
  steps: [],
  narration: n,
});

test('an opinion trace is titled as the model opinion of the second-look pairs, a narration as a narration', () => {
  const md = traceReportMarkdown(
    report([
      narration({}),
      narration({ intent: 'second-look', about: 'opinion', text: '{"verdicts":[]}' }),
      narration({ intent: 'second-look', about: 'opinion', outcome: 'error', text: 'not json' }),
    ]),
  );
  const headings = md.split('\n').filter((l) => l.startsWith('### '));
  assert.deepEqual(headings, [
    '### Narration for ` propose ` (seq 3 of the read-only chain, kept on this machine)',
    "### The client model's opinion of the second-look pairs (seq 3 of the read-only chain, kept on this machine)",
    "### The client model's opinion of the second-look pairs (seq 3 of the read-only chain, kept on this machine)",
  ]);
  assert.match(
    md,
    /The answer was not used \(` error `\): the pairs kept the tool's own rank\. The model's words, quoted:\n\n```text\nnot json\n```/,
  );
  assert.equal(md.match(/The client model's words, quoted, not the tool's facts/g)?.length, 2);

  const html = traceReportHtml(report([narration({ intent: 'second-look', about: 'opinion', outcome: 'error', text: 'x' })]));
  assert.match(html, /<h2>The client model's opinion of the second-look pairs \(seq 3/);
  assert.match(html, /<p>The answer was not used \(<code>error<\/code>\)/);
});
