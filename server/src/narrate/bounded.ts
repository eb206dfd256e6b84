/**
 * Replies and requests of bounded size. A repository of any size gives an MCP result (and a sampling
 * request) well under 1 MiB: what does not fit is cut, with the counts of what was left out, and the
 * whole stays on disk (the plan file, the analysis file), offered as MCP resources.
 */

/** The text block for the model: a summary, never the whole plan. */
export const MAX_TEXT_BYTES = 64 * 1024;
/** structuredContent: every small field whole, long lists and long texts cut. */
export const MAX_STRUCTURED_BYTES = 256 * 1024;
/** The facts a sampling request sends the client's model. */
export const MAX_SAMPLING_FACTS_BYTES = 32 * 1024;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Whether `s` is at most `max` bytes in UTF-8. A UTF-16 unit is 1 to 3 bytes, so the bytes are
 * counted only between those bounds (counting flattens a long string, a copy as large as it).
 */
export function fitsBytes(s: string, max: number): boolean {
  if (s.length > max) return false;
  return s.length * 3 <= max || bytes(s) <= max;
}

/** `text` whole when it fits in `max` bytes; else its start, cut at a line where one is near, and what follows says where the rest is. */
export function boundText(text: string, max: number, rest: string): string {
  if (fitsBytes(text, max)) return text;
  const total = bytes(text);
  const tail = (left: number) => `\n\n[… ${left} more bytes not shown here. ${rest}]`;
  const room = Math.max(0, max - bytes(tail(total)) - 16);
  // Text of one byte a character (most replies) is cut by characters: the same as cutting its bytes.
  let head =
    total === text.length
      ? text.slice(0, room)
      : Buffer.from(text, 'utf8')
          .subarray(0, room)
          .toString('utf8')
          .replace(/\uFFFD$/, '');
  const nl = head.lastIndexOf('\n');
  if (nl > head.length * 0.8) head = head.slice(0, nl);
  return `${head}${tail(total - bytes(head))}`;
}

export interface Bounded<T> {
  value: T;
  /** Lists that were cut, by their path in the value (`operations`, `problems[3].locations`): how many items there were. */
  omitted: Record<string, number> | null;
}

/** Each step cuts harder: at most this many items in a list, this many characters in a string. */
export const LEVELS = [
  { items: 500, chars: 64 * 1024 },
  { items: 100, chars: 16 * 1024 },
  { items: 25, chars: 4 * 1024 },
  { items: 10, chars: 1024 },
  { items: 3, chars: 256 },
  { items: 1, chars: 64 },
];

/**
 * A JSON value no larger than `max` bytes when serialized: long lists keep their first items, long
 * strings their start with a marker, every other field whole (shapes stay valid for the output
 * schema). `omitted` counts what each cut list held.
 */
export function boundJson<T>(value: T, max: number): Bounded<T> {
  if (fitsBytes(JSON.stringify(value), max)) return { value, omitted: null };
  for (const level of LEVELS) {
    const omitted: Record<string, number> = {};
    const cut = shrink(value, level.items, level.chars, '', omitted) as T;
    // A level that cuts nothing gives the value itself, which is already too large.
    if (cut === value) continue;
    const kept = limitKeys(omitted);
    if (fitsBytes(JSON.stringify(cut), max - bytes(JSON.stringify(kept)))) return { value: cut, omitted: kept };
  }
  // Nothing but the smallest fields: a value of many keys, each small. Keep the scalars that fit.
  const omitted: Record<string, number> = {};
  const last = shrink(value, 0, 64, '', omitted) as T;
  return { value: last, omitted: limitKeys(omitted) };
}

/**
 * `v` with long lists and strings cut. What nothing is cut in is given back itself, not copied
 * (its JSON is the same): only plain objects and arrays, since a copy of anything else (a Date, a
 * boxed string) is `{}` or its indexes in JSON, as it always was here.
 */
function shrink(v: unknown, items: number, chars: number, at: string, omitted: Record<string, number>): unknown {
  if (typeof v === 'string') return v.length <= chars ? v : `${v.slice(0, chars)}\n[… cut: ${v.length - chars} more characters]`;
  if (Array.isArray(v)) {
    if (v.length > items) omitted[at || '(list)'] = v.length;
    const n = Math.min(v.length, items);
    let out: unknown[] | null = v.length > items ? [] : null;
    for (let i = 0; i < n; i++) {
      const x: unknown = v[i];
      const y = shrink(x, items, chars, `${at}[${i}]`, omitted);
      if (out === null && y !== x) out = v.slice(0, i);
      out?.push(y);
    }
    return out ?? v;
  }
  if (v !== null && typeof v === 'object') {
    const proto: unknown = Object.getPrototypeOf(v);
    const plain = (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    let out: Record<string, unknown> | null = plain ? null : {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const x = o[k];
      const y = shrink(x, items, chars, at ? `${at}.${k}` : k, omitted);
      if (out === null && y !== x) {
        out = {};
        for (const before of keys.slice(0, i)) out[before] = o[before];
      }
      if (out !== null) out[k] = y;
    }
    return out ?? v;
  }
  return v;
}

/** At most 20 entries, the largest counts first. */
export function limitKeys(o: Record<string, number>): Record<string, number> {
  const entries = Object.entries(o).sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(entries.slice(0, 20));
}

/** Counts by a key (problem type, operation kind): the shape of a long list in a few numbers. */
export function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}
