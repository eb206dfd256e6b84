import { hash } from 'node:crypto';

/** One-shot crypto.hash: a fraction of the cost of a Hash object for the scan's many small files. */
export function sha256(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** JSON with sorted keys, so that a hash over it does not depend on property order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
