import { valueText } from '../../common/text.js';
import { sha256 } from '../../common/hash.js';
import type * as Schemas from '../schema.js';
import type { ChainHead } from '../chain-head-schema.js';
import { traceFiles } from './reader.js';
import { fileStamp, machinePaths, readChainHead, relativeToRepo, repoRelative, writeElicitationTrace } from './writer.js';
import { CHAINS, chainOf, type ChainName, type TraceChain } from './chains.js';

export interface VerifyReport {
  ok: boolean;
  traces: number;
  /** What is wrong and not acknowledged: each fails verify. */
  problems: string[];
  /** Problems a person acknowledged (`traces acknowledge`), with the acknowledging trace: they no longer fail verify. */
  acknowledged: string[];
}

interface Entry {
  chain: ChainName;
  file: string;
  bytes: Buffer;
  seq: number | null;
  prev: string | null;
  timestamp: string;
  chainBreak: string[];
  /** On an acknowledge trace: the problems it acknowledges. */
  acknowledges: string[] | null;
  /** On a prune trace: the runs of traces it removed. */
  pruned: { from: number; to: number; lastSha256: string }[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Check the trace chain: every trace parses and matches its schema and carries its own file name,
 * seq runs 1..n with no gap or repeat, each prev is the sha256 of the trace before, timestamps do
 * not go back (they are taken when a trace is written), and the chain head names the last trace.
 * Anything else means a trace was removed, edited, reordered or forged. A trace written after a
 * break in the chain (`chainBreak`) keeps the break reported, as does anything odd in the trace
 * folders (a folder, FIFO or link named `*.json`), until an acknowledge trace lists it.
 */
export async function verifyTraces(root: string): Promise<VerifyReport> {
  const problems: string[] = [];
  const entries = await readEntries(root, problems);
  for (const e of entries.filter((x) => x.seq === null)) problems.push(`${e.file} has no place in the chain (no seq).`);
  // Each chain on its own (chains.ts): the gated one, which may be committed, and this machine's read-only one.
  for (const chain of CHAINS) {
    const chained = entries.filter((e) => e.seq !== null && e.chain === chain.name).sort((a, b) => a.seq! - b.seq!);
    const { head, problem } = await readChainHead(root, chain);
    problems.push(...chainProblems(chained, head?.prunedThrough));
    problems.push(...headProblems(chain, head, problem, chained));
  }
  // A break found when a trace was written stays reported: a new trace never re-roots the chain quietly.
  for (const e of entries.filter((x) => x.chainBreak.length > 0)) problems.push(breakProblem(e));
  // What a person acknowledged (an acknowledge trace lists it, or is itself the trace after the break) no longer fails.
  const paths = await machinePaths(root);
  const found = [...new Set(problems.map((p) => relativeToRepo(p, paths) as string))];
  const acknowledged = new Set<string>();
  for (const e of entries) {
    if (e.acknowledges === null) continue;
    for (const p of e.acknowledges) acknowledged.add(p);
    if (e.chainBreak.length > 0) {
      // The acknowledge trace is itself the first after the break: the gap or edit just before it is the one acknowledged.
      acknowledged.add(breakProblem(e));
      for (const p of found)
        if (p.endsWith(` missing before ${e.file}.`) || p.includes(` after ${e.file} was written `)) acknowledged.add(p);
    }
  }
  const open = found.filter((p) => !acknowledged.has(p));
  return { ok: open.length === 0, traces: entries.length, problems: open, acknowledged: found.filter((p) => acknowledged.has(p)) };
}

const breakProblem = (e: Entry) => `${e.file} was written after a break in the trace chain: ${e.chainBreak.join('; ')}.`;

/** Every trace file as an entry of the chain; what is wrong with one on its own goes to `problems`. */
async function readEntries(root: string, problems: string[]): Promise<Entry[]> {
  // The trace schemas (and zod) load when there is a trace to check.
  let schemas: typeof Schemas | null = null;
  const entries: Entry[] = [];
  for (const t of await traceFiles(root)) {
    if (!t.bytes) {
      problems.push(`${t.problem}.`);
      continue;
    }
    const { file, bytes, name } = t;
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      problems.push(`${file} is not valid JSON (edited or truncated).`);
      continue;
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) {
      problems.push(`${file} is not a trace (not a JSON object).`);
      continue;
    }
    schemas ??= await import('../schema.js');
    const parsed = (t.kind === 'elicitation' ? schemas.ElicitationTrace : schemas.SamplingTrace).safeParse(json);
    if (!parsed.success) {
      problems.push(
        `${file} does not match the trace schema (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}).`,
      );
    }
    const j = json as TraceFields;
    const own = typeof j.timestamp === 'string' ? `${fileStamp(j.timestamp)}-${valueText(j.action ?? j.intent)}.json` : null;
    if (own !== name)
      problems.push(`${file} does not carry its own name${own ? ` (its timestamp and step make ${own})` : ''}: renamed or swapped.`);
    // Only a gated trace can acknowledge or record a prune: a read-only trace, which git ignores and nobody reviews, never can.
    const gated = t.kind === 'elicitation';
    entries.push({
      chain: chainOf(t.kind, json),
      file,
      bytes,
      seq: typeof j.seq === 'number' ? j.seq : null,
      prev: typeof j.prev === 'string' ? j.prev : null,
      timestamp: typeof j.timestamp === 'string' ? j.timestamp : '',
      chainBreak: strings(j.chainBreak?.problems),
      acknowledges: gated && j.action === 'acknowledge' ? strings(j.acknowledged?.problems) : null,
      pruned: gated && j.action === 'prune' && parsed.success ? ((parsed.data as Schemas.ElicitationTrace).pruned?.traces ?? []) : [],
    });
  }
  return entries;
}

/** The fields of a trace the chain is checked by, as they are in the file (any of them may be off). */
interface TraceFields {
  seq?: unknown;
  prev?: unknown;
  timestamp?: unknown;
  action?: unknown;
  intent?: unknown;
  chainBreak?: { problems?: unknown };
  acknowledged?: { problems?: unknown };
  pruned?: { traces?: unknown };
}

/** The chain in seq order: no gap but what a prune trace recorded, no repeat, each prev the sha256 of the one before, no date going back. */
function chainProblems(chained: Entry[], prunedThrough?: { seq: number; sha256: string }): string[] {
  const problems: string[] = [];
  // Traces the retention policy removed, as a later prune trace (or the read-only chain's head) recorded them: not missing.
  const runs = chained.flatMap((e) => e.pruned.map((r) => ({ ...r, by: e.seq! })));
  if (prunedThrough) runs.push({ from: 1, to: prunedThrough.seq, lastSha256: prunedThrough.sha256, by: Infinity });
  const prunedRun = (seq: number) => runs.find((r) => r.from <= seq && seq <= r.to && r.by > seq);
  const unpruned = (from: number, to: number): number[] => {
    const out: number[] = [];
    for (let seq = from; seq <= to; seq++) {
      const run = prunedRun(seq);
      if (run) seq = run.to;
      else out.push(seq);
    }
    return out;
  };
  let expected = 1;
  for (let i = 0; i < chained.length; i++) {
    const e = chained[i]!;
    const before = chained[i - 1];
    if (before && before.seq === e.seq) {
      problems.push(`${before.file} and ${e.file} both claim seq ${e.seq}.`);
      continue;
    }
    const missing = e.seq! > expected ? unpruned(expected, e.seq! - 1) : [];
    if (missing.length > 0) problems.push(`trace${missing.length > 1 ? 's' : ''} ${missingText(missing)} missing before ${e.file}.`);
    expected = e.seq! + 1;
    const prevEntry = before && before.seq === e.seq! - 1 ? before : undefined;
    const prevRun = prevEntry ? undefined : prunedRun(e.seq! - 1);
    if (prevRun && prevRun.to === e.seq! - 1 && e.prev !== prevRun.lastSha256)
      problems.push(`${e.file} names a previous trace that is not the one a prune trace recorded removing (seq ${e.seq! - 1}).`);
    if (e.seq === 1 && e.prev !== null) problems.push(`${e.file} is first but names a previous trace.`);
    if (prevEntry && e.prev !== sha256(prevEntry.bytes))
      problems.push(`${prevEntry.file} was edited or replaced after ${e.file} was written (its sha256 no longer matches).`);
    if (before && e.timestamp < before.timestamp)
      problems.push(`${e.file} is dated before ${before.file}, which comes earlier in the chain (reordered).`);
  }
  return problems;
}

/** The chain head names the newest trace, and the breaks the chain carries. */
function headProblems(chain: TraceChain, head: ChainHead | null, problem: string | null, chained: Entry[]): string[] {
  const problems: string[] = [];
  const last = chained[chained.length - 1];
  if (!head && chained.length > 0) problems.push(`the chain head (${chain.head}) is ${problem}.`);
  if (head && last) {
    if (head.seq > last.seq!)
      problems.push(`trace${head.seq - last.seq! > 1 ? 's' : ''} ${last.seq! + 1}..${head.seq} missing at the end of the chain.`);
    else if (head.seq === last.seq && head.sha256 !== sha256(last.bytes))
      problems.push(`${last.file}, the newest trace, was edited after it was written.`);
    for (const seq of head.breaks ?? []) {
      const e = chained.find((x) => x.seq === seq);
      if (e && e.chainBreak.length === 0)
        problems.push(`${e.file} no longer carries the break in the chain that the chain head records for it (edited).`);
    }
  } else if (head && head.seq > 0 && !last && !(head.prunedThrough && head.prunedThrough.seq >= head.seq)) {
    problems.push(`all ${head.seq} traces are missing.`);
  }
  return problems;
}

/** `3..7` for a run, `3, 5` for single seqs. */
function missingText(seqs: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < seqs.length; i++) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1] === seqs[j]! + 1) j++;
    parts.push(j > i ? `${seqs[i]}..${seqs[j]}` : `${seqs[i]}`);
    i = j;
  }
  return parts.join(', ');
}

/**
 * A person acknowledges what `traces verify` reports now (they removed traces themselves, or know
 * why the chain broke): an `acknowledge` trace records their reason and every problem it covers,
 * and verify passes again until something new is found. Null when there is nothing to acknowledge.
 */
export async function acknowledgeTraces(root: string, reason: string): Promise<{ trace: string; problems: string[] } | null> {
  const report = await verifyTraces(root);
  if (report.ok) return null;
  const n = report.problems.length;
  const file = await writeElicitationTrace(root, {
    action: 'acknowledge',
    message: `Acknowledge ${n} problem${n === 1 ? '' : 's'} that traces verify reported:\n${report.problems.map((p) => `- ${p}`).join('\n')}`,
    schema: {},
    response: null,
    outcome: 'acknowledged',
    duration_ms: 0,
    planHash: null,
    client: null,
    detail: `Acknowledged on the command line (copilot-onboard traces acknowledge), with this reason: ${reason}`,
    acknowledged: { reason, problems: report.problems },
  });
  return { trace: repoRelative(root, file), problems: report.problems };
}
