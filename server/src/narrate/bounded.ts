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

/** `text` whole when it fits in `max` bytes; else its start, cut at a line where one is near, and what follows says where the rest is. */
export function boundText(text: string, max: number, rest: string): string {
  if (bytes(text) <= max) return text;
  const tail = (left: number) => `\n\n[… ${left} more bytes not shown here. ${rest}]`;
  const room = max - bytes(tail(bytes(text))) - 16;
  let head = Buffer.from(text, 'utf8')
    .subarray(0, Math.max(0, room))
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const nl = head.lastIndexOf('\n');
  if (nl > head.length * 0.8) head = head.slice(0, nl);
  return `${head}${tail(bytes(text) - bytes(head))}`;
}

export interface Bounded<T> {
  value: T;
  /** Lists that were cut, by their path in the value (`operations`, `problems[3].locations`): how many items there were. */
  omitted: Record<string, number> | null;
}

/** Each step cuts harder: at most this many items in a list, this many characters in a string. */
const LEVELS = [
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
  if (bytes(JSON.stringify(value)) <= max) return { value, omitted: null };
  for (const level of LEVELS) {
    const omitted: Record<string, number> = {};
    const cut = shrink(value, level.items, level.chars, '', omitted) as T;
    if (bytes(JSON.stringify(cut)) + bytes(JSON.stringify(limitKeys(omitted))) <= max) return { value: cut, omitted: limitKeys(omitted) };
  }
  // Nothing but the smallest fields: a value of many keys, each small. Keep the scalars that fit.
  const omitted: Record<string, number> = {};
  const last = shrink(value, 0, 64, '', omitted) as T;
  return { value: last, omitted: limitKeys(omitted) };
}

function shrink(v: unknown, items: number, chars: number, at: string, omitted: Record<string, number>): unknown {
  if (typeof v === 'string') return v.length <= chars ? v : `${v.slice(0, chars)}\n[… cut: ${v.length - chars} more characters]`;
  if (Array.isArray(v)) {
    if (v.length > items) omitted[at || '(list)'] = v.length;
    return v.slice(0, items).map((x, i) => shrink(x, items, chars, `${at}[${i}]`, omitted));
  }
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = shrink(x, items, chars, at ? `${at}.${k}` : k, omitted);
    return out;
  }
  return v;
}

/** At most 20 entries, the largest counts first. */
function limitKeys(o: Record<string, number>): Record<string, number> {
  const entries = Object.entries(o).sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(entries.slice(0, 20));
}

/** Counts by a key (problem type, operation kind): the shape of a long list in a few numbers. */
export function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}
