import { byCodeUnit } from '../../common/collections.js';
import { errorMessage } from '../../common/errors.js';
import { valueText } from '../../common/text.js';
import { listFolder, readFile } from '../../repo/safe-fs.js';
import { TRACE_FOLDERS } from './writer.js';
import { READ_ONLY_CHAIN } from './chains.js';

export interface TraceEntry {
  id: string;
  kind: 'elicitation' | 'sampling';
  /** Repository-relative path of the trace file. */
  file: string;
  timestamp: string;
  step: string;
  outcome: string;
  duration_ms: number | null;
  client: string;
  data: Record<string, unknown> | null;
}

/** One `.json` entry of a trace folder, read through no link: its bytes, or why it could not be read. */
export interface TraceFile {
  kind: 'elicitation' | 'sampling';
  name: string;
  /** Repository-relative path. */
  file: string;
  bytes: Buffer | null;
  /** Set when `bytes` is null: a folder, FIFO, link or device of that name, or a read that failed. */
  problem: string | null;
}

/**
 * Every `.json` entry of both trace folders, sorted by name. Entries that are not regular files are
 * listed with their problem and never opened: a FIFO does not block, a link is not followed.
 */
export async function traceFiles(root: string): Promise<TraceFile[]> {
  const out: TraceFile[] = [];
  for (const [kind, folder] of TRACE_FOLDERS) {
    const entries = (await listFolder(root, folder)) ?? [];
    for (const entry of entries.sort((a, b) => byCodeUnit(a.name, b.name))) {
      const file = `${folder}/${entry.name}`;
      if (!entry.name.endsWith('.json') || file === READ_ONLY_CHAIN.head) continue;
      if (!entry.isFile()) {
        const what = entry.isSymbolicLink()
          ? 'a symlink'
          : entry.isDirectory()
            ? 'a folder'
            : entry.isFIFO()
              ? 'a FIFO'
              : entry.isSocket()
                ? 'a socket'
                : 'a device or an odd entry';
        out.push({ kind, name: entry.name, file, bytes: null, problem: `${file} is ${what}, not a trace file` });
        continue;
      }
      try {
        out.push({ kind, name: entry.name, file, bytes: await readFile(root, file), problem: null });
      } catch (err) {
        out.push({ kind, name: entry.name, file, bytes: null, problem: `${file} cannot be read (${errorMessage(err)})` });
      }
    }
  }
  return out.map((f) => (f.bytes === null && f.problem === null ? { ...f, problem: `${f.file} disappeared while it was read` } : f));
}

/** Every trace file of a repository, oldest first. An unreadable file is listed, not skipped. */
export async function listTraces(root: string): Promise<TraceEntry[]> {
  const entries: TraceEntry[] = [];
  for (const t of await traceFiles(root)) {
    let data: Record<string, unknown> | null = null;
    try {
      data = t.bytes ? (JSON.parse(t.bytes.toString('utf8')) as Record<string, unknown>) : null;
    } catch {
      data = null;
    }
    if (data !== null && (typeof data !== 'object' || Array.isArray(data))) data = null;
    const client =
      data?.client !== null && typeof data?.client === 'object' ? (data.client as { name?: unknown; version?: unknown }) : null;
    entries.push({
      id: t.name.replace(/\.json$/, ''),
      kind: t.kind,
      file: t.file,
      timestamp: typeof data?.timestamp === 'string' ? data.timestamp : '',
      // A committed trace is read, never trusted: any value is shown as text (valueText never throws).
      step: valueText(data?.action ?? data?.intent ?? '?'),
      outcome: data ? valueText(data.outcome) : 'unreadable',
      duration_ms: typeof data?.duration_ms === 'number' ? data.duration_ms : null,
      client: client?.name ? `${valueText(client.name)} ${valueText(client.version ?? '')}`.trim() : '-',
      data,
    });
  }
  return entries.sort((a, b) => byCodeUnit(a.id, b.id) || byCodeUnit(a.kind, b.kind));
}
