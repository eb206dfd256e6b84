import { byCodeUnit } from '../core/collections.js';
import fs from 'fs-extra';
import path from 'node:path';
import { statePaths } from '../state/paths.js';

export interface TraceEntry {
  id: string;
  kind: 'elicitation' | 'sampling';
  file: string;
  timestamp: string;
  step: string;
  outcome: string;
  duration_ms: number | null;
  client: string;
  data: Record<string, unknown> | null;
}

/** Every trace file of a repository, oldest first. An unreadable file is listed, not skipped. */
export async function listTraces(root: string): Promise<TraceEntry[]> {
  const sp = statePaths(root);
  const entries: TraceEntry[] = [];
  for (const [kind, dir] of [['elicitation', sp.elicitationTraces], ['sampling', sp.samplingTraces]] as const) {
    if (!(await fs.pathExists(dir))) continue;
    for (const name of await fs.readdir(dir)) {
      if (!name.endsWith('.json')) continue;
      const file = path.join(dir, name);
      let data: Record<string, unknown> | null = null;
      try {
        data = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
      } catch {
        data = null;
      }
      const client = data?.client as { name?: string; version?: string } | null | undefined;
      entries.push({
        id: name.replace(/\.json$/, ''),
        kind,
        file,
        timestamp: typeof data?.timestamp === 'string' ? data.timestamp : '',
        step: String(data?.action ?? data?.intent ?? '?'),
        outcome: data ? String(data.outcome) : 'unreadable',
        duration_ms: typeof data?.duration_ms === 'number' ? data.duration_ms : null,
        client: client?.name ? `${client.name} ${client.version ?? ''}`.trim() : '-',
        data,
      });
    }
  }
  return entries.sort((a, b) => byCodeUnit(a.id, b.id) || byCodeUnit(a.kind, b.kind));
}
