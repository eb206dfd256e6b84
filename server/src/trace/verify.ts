import fs from 'fs-extra';
import path from 'node:path';
import { sha256 } from '../core/hash.js';
import { statePaths } from '../state/paths.js';
import { ElicitationTrace, SamplingTrace } from '../state/schema.js';
import { chainHeadPath, fileStamp, repoRelative, type ChainHead } from './writer.js';

export interface VerifyReport {
  ok: boolean;
  traces: number;
  problems: string[];
}

interface Entry {
  file: string;
  bytes: Buffer;
  seq: number | null;
  prev: string | null;
  timestamp: string;
}

/**
 * Check the trace chain: every trace parses and matches its schema and carries its own file name,
 * seq runs 1..n with no gap or repeat, each prev is the sha256 of the trace before, timestamps do
 * not go back (they are taken when a trace is written), and the chain head names the last trace. Anything else means a trace was removed, edited, reordered or forged.
 */
export async function verifyTraces(root: string): Promise<VerifyReport> {
  const sp = statePaths(root);
  const problems: string[] = [];
  const entries: Entry[] = [];
  for (const [dir, schema] of [
    [sp.elicitationTraces, ElicitationTrace],
    [sp.samplingTraces, SamplingTrace],
  ] as const) {
    if (!(await fs.pathExists(dir))) continue;
    for (const name of (await fs.readdir(dir)).sort()) {
      if (!name.endsWith('.json')) continue;
      const abs = path.join(dir, name);
      const file = repoRelative(root, abs);
      const bytes = await fs.readFile(abs);
      let json: unknown;
      try {
        json = JSON.parse(bytes.toString('utf8'));
      } catch {
        problems.push(`${file} is not valid JSON (edited or truncated).`);
        continue;
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        problems.push(`${file} does not match the trace schema (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}).`);
      }
      const j = json as { seq?: unknown; prev?: unknown; timestamp?: unknown; action?: unknown; intent?: unknown };
      const own = typeof j.timestamp === 'string' ? `${fileStamp(j.timestamp)}-${String(j.action ?? j.intent)}.json` : null;
      if (own !== name) problems.push(`${file} does not carry its own name${own ? ` (its timestamp and step make ${own})` : ''}: renamed or swapped.`);
      entries.push({
        file,
        bytes,
        seq: typeof j.seq === 'number' ? j.seq : null,
        prev: typeof j.prev === 'string' ? j.prev : null,
        timestamp: typeof j.timestamp === 'string' ? j.timestamp : '',
      });
    }
  }
  for (const e of entries.filter((x) => x.seq === null)) problems.push(`${e.file} has no place in the chain (no seq).`);
  const chained = entries.filter((e) => e.seq !== null).sort((a, b) => a.seq! - b.seq!);
  let expected = 1;
  for (let i = 0; i < chained.length; i++) {
    const e = chained[i]!;
    const before = chained[i - 1];
    if (before && before.seq === e.seq) {
      problems.push(`${before.file} and ${e.file} both claim seq ${e.seq}.`);
      continue;
    }
    if (e.seq! > expected) problems.push(`trace${e.seq! - expected > 1 ? 's' : ''} ${expected}${e.seq! - expected > 1 ? `..${e.seq! - 1}` : ''} missing before ${e.file}.`);
    expected = e.seq! + 1;
    const prevEntry = before && before.seq === e.seq! - 1 ? before : undefined;
    if (e.seq === 1 && e.prev !== null) problems.push(`${e.file} is first but names a previous trace.`);
    if (prevEntry && e.prev !== sha256(prevEntry.bytes)) problems.push(`${prevEntry.file} was edited or replaced after ${e.file} was written (its sha256 no longer matches).`);
    if (before && e.timestamp < before.timestamp) problems.push(`${e.file} is dated before ${before.file}, which comes earlier in the chain (reordered).`);
  }
  const last = chained[chained.length - 1];
  let head: ChainHead | null = null;
  try {
    head = JSON.parse(await fs.readFile(chainHeadPath(root), 'utf8')) as ChainHead;
  } catch {
    if (chained.length > 0) problems.push('the chain head (.copilot-state/trace-chain.json) is missing or unreadable.');
  }
  if (head && last) {
    if (head.seq > last.seq!) problems.push(`trace${head.seq - last.seq! > 1 ? 's' : ''} ${last.seq! + 1}..${head.seq} missing at the end of the chain.`);
    else if (head.seq === last.seq && head.sha256 !== sha256(last.bytes)) problems.push(`${last.file}, the newest trace, was edited after it was written.`);
  } else if (head && head.seq > 0 && !last) {
    problems.push(`all ${head.seq} traces are missing.`);
  }
  return { ok: problems.length === 0, traces: entries.length, problems };
}
