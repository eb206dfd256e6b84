import { valueText } from '../common/text.js';
import { diffLineKinds } from '../show/diff-lines.js';
import { listTraces, type TraceEntry } from '../state/traces/reader.js';
import { chainOf, type ChainName } from '../state/traces/chains.js';
import { verifyTraces, type VerifyReport } from '../state/traces/verify.js';
import { VERSION } from '../version.js';
import { machinePaths, relativeToRepo } from '../state/traces/writer.js';
import { roleOf } from '../call/field-roles.js';

/**
 * `traces report`: the facts a reviewer of a migration pull request needs, from the trace files as
 * they are (read, never obeyed): each gated step in chain order (who asked, what the person was
 * shown, what they answered and when, what was written), the client model's narration apart, and
 * whether the chain verifies (cli/traces.ts's verify). Everything in it is untrusted text: the
 * renderers (trace-report-markdown.ts, trace-report-html.ts) escape every string.
 */

export interface ReportChoice {
  field: string;
  title: string;
  options: { value: string; title: string }[];
  default: string | null;
}

export interface ReportFile {
  path: string;
  added: number;
  removed: number;
}

export interface ReportStep {
  seq: number | null;
  /** Repository-relative path of the trace file. */
  file: string;
  step: string;
  /** approve's first round asks the choices, its second the approval. */
  round: 'choices' | 'approval' | null;
  /** The MCP tool the step runs (`onboarding_<step>`), or null for the CLI's own records (acknowledge, prune). */
  tool: string | null;
  client: { name: string; version: string } | null;
  startedAt: string | null;
  answeredAt: string;
  durationMs: number | null;
  planHash: string | null;
  shown: { chars: number; lines: number; files: ReportFile[]; diffLines: { added: number; removed: number }; choices: ReportChoice[] };
  /** The message exactly as the person was shown it. */
  message: string;
  answer: { action: string; content: Record<string, unknown> | null } | null;
  outcome: string;
  /** What was done after the answer, or why nothing was. */
  written: string | null;
  /** acknowledge: the reason the person gave and the problems acknowledged; prune: its reason. */
  reason: string | null;
  acknowledged: string[];
  /** Set when the trace could not be read: the rest is empty. */
  unreadable: boolean;
}

export interface ReportNarration {
  seq: number | null;
  file: string;
  /** `read-only`: this machine's read-only chain, which git ignores (state/traces/chains.ts); `gated`: an earlier version's, in the committed chain. */
  chain: ChainName;
  intent: string;
  /** `opinion`: propose's question about the second-look pairs; `narration`: a step's narration. */
  about: 'narration' | 'opinion';
  timestamp: string;
  outcome: string;
  /** The model the client said it used, when one answered. */
  model: string | null;
  /** True when the text shown came from the built-in report, not the model. */
  fallback: boolean;
  text: string;
}

export interface TraceReport {
  tool: 'copilot-onboard';
  toolVersion: string;
  chain: VerifyReport;
  steps: ReportStep[];
  narration: ReportNarration[];
}

const TOOL_OF: Record<string, string> = { approve: 'onboarding_approve', migrate: 'onboarding_migrate', rollback: 'onboarding_rollback' };

export async function traceReport(root: string): Promise<TraceReport> {
  const chain = await verifyTraces(root);
  const paths = await machinePaths(root);
  // A trace an earlier version wrote may name this machine's paths: a reviewer reads none of them.
  const traces = (await listTraces(root))
    .map((t) => (t.data ? { ...t, data: relativeToRepo(t.data, paths) as TraceEntry['data'] } : t))
    .sort((a, b) => (seqOf(a) ?? Infinity) - (seqOf(b) ?? Infinity) || (a.id < b.id ? -1 : 1));
  return {
    tool: 'copilot-onboard',
    toolVersion: VERSION,
    chain,
    steps: traces.filter((t) => t.kind === 'elicitation').map(stepOf),
    // From both chains, in the order they were written: an earlier version's (committed) and this machine's read-only ones.
    narration: traces
      .filter((t) => t.kind === 'sampling' && t.data !== null)
      .map(narrationOf)
      .sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0)),
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const seqOf = (t: TraceEntry): number | null => (typeof t.data?.seq === 'number' ? t.data.seq : null);

function stepOf(t: TraceEntry): ReportStep {
  const d = t.data ?? {};
  const message = str(d.message) ?? '';
  const schema = obj(d.schema);
  const props = obj(schema?.properties) ?? {};
  const client = obj(d.client);
  const response = obj(d.response);
  const acknowledged = obj(d.acknowledged);
  const pruned = obj(d.pruned);
  const step = str(d.action) ?? t.step;
  const duration = typeof d.duration_ms === 'number' ? d.duration_ms : null;
  const timestamp = str(d.timestamp) ?? '';
  const started =
    duration !== null && !Number.isNaN(Date.parse(timestamp)) ? new Date(Date.parse(timestamp) - duration).toISOString() : null;
  return {
    seq: seqOf(t),
    file: t.file,
    step,
    round: step !== 'approve' ? null : Object.keys(props).some((name) => roleOf(name) === 'confirm') ? 'approval' : 'choices',
    tool: TOOL_OF[step] ?? null,
    client: client ? { name: valueText(client.name ?? ''), version: valueText(client.version ?? '') } : null,
    startedAt: started,
    answeredAt: timestamp,
    durationMs: duration,
    planHash: str(d.planHash),
    shown: {
      chars: message.length,
      lines: message === '' ? 0 : message.split('\n').length,
      ...filesOf(message),
      choices: choicesOf(props),
    },
    message,
    answer: response ? { action: valueText(response.action ?? ''), content: obj(response.content) } : null,
    outcome: str(d.outcome) ?? t.outcome,
    written: str(d.detail),
    reason: str(acknowledged?.reason) ?? str(pruned?.reason),
    acknowledged: Array.isArray(acknowledged?.problems) ? acknowledged.problems.map((p) => valueText(p)) : [],
    unreadable: t.data === null,
  };
}

/** The files of the diffs in what the person was shown, with the lines each adds and removes (counted by position: show/diff-lines.ts). */
function filesOf(message: string): { files: ReportFile[]; diffLines: { added: number; removed: number } } {
  const lines = message.split('\n');
  const kinds = diffLineKinds(lines);
  const files: ReportFile[] = [];
  for (let i = 0; i < lines.length; i++) {
    const k = kinds[i];
    if (k === 'file' && lines[i]!.startsWith('+++ ')) {
      const to = lines[i]!.slice(4);
      const from = lines[i - 1]?.startsWith('--- ') ? lines[i - 1]!.slice(4) : to;
      const name = to === '/dev/null' ? from : to;
      files.push({ path: name.replace(/^[ab]\//, '').replace(/\t.*$/, ''), added: 0, removed: 0 });
    } else if (k === 'added' && files.length > 0) files[files.length - 1]!.added++;
    else if (k === 'removed' && files.length > 0) files[files.length - 1]!.removed++;
  }
  return {
    files,
    diffLines: { added: files.reduce((n, f) => n + f.added, 0), removed: files.reduce((n, f) => n + f.removed, 0) },
  };
}

/** The form's choices: each field with options (`oneOf` titles or an `enum`), with its default. */
function choicesOf(props: Record<string, unknown>): ReportChoice[] {
  const out: ReportChoice[] = [];
  for (const [field, raw] of Object.entries(props)) {
    const p = obj(raw);
    if (!p) continue;
    const oneOf = Array.isArray(p.oneOf) ? p.oneOf.map(obj).filter((o) => o !== null) : null;
    const options = oneOf
      ? oneOf.map((o) => ({ value: valueText(o.const ?? ''), title: valueText(o.title ?? o.const ?? '') }))
      : Array.isArray(p.enum)
        ? p.enum.map((v, i) => ({ value: valueText(v), title: valueText((Array.isArray(p.enumNames) ? p.enumNames[i] : undefined) ?? v) }))
        : null;
    if (!options) continue;
    out.push({ field, title: valueText(p.title ?? field), options, default: p.default === undefined ? null : valueText(p.default) });
  }
  return out;
}

function narrationOf(t: TraceEntry): ReportNarration {
  const d = t.data ?? {};
  const response = obj(d.response);
  const content = response?.content;
  const text = Array.isArray(content)
    ? content.map((c) => str(obj(c)?.text) ?? '').join('\n')
    : (str(obj(content)?.text) ?? (typeof content === 'string' ? content : ''));
  return {
    seq: seqOf(t),
    file: t.file,
    chain: chainOf('sampling', d),
    intent: str(d.intent) ?? t.step,
    about: d.intent === 'second-look' ? 'opinion' : 'narration',
    timestamp: str(d.timestamp) ?? '',
    outcome: str(d.outcome) ?? t.outcome,
    model: str(response?.model),
    fallback: d.fallback === true,
    text,
  };
}
