import { parse as parseYaml } from 'yaml';

export interface FrontMatter {
  /** Parsed fields; values are strings, booleans, numbers or string lists. */
  data: Record<string, unknown>;
  /** Number of lines the block takes, both `---` lines included. */
  lineCount: number;
  /** Set when strict YAML failed and the tolerant reader was used. */
  lenient: boolean;
}

/**
 * Read a `---` front matter block at the top of a file. Real rule files hold YAML that strict
 * parsers reject (`globs: **\/*.ts` is an alias in YAML); those fall back to a line reader that
 * takes `key: value` and `- item` lists as text.
 */
export function readFrontMatter(lines: string[]): FrontMatter | null {
  if (lines[0]?.trim() !== '---') return null;
  const close = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
  if (close < 0) return null;
  const body = lines.slice(1, close);
  const text = body.join('\n');
  // A format's parse and splitUnits read the same block of the same lines one after the other.
  if (last !== null && last.lines === lines && last.text === text) return last.result;
  const result = parseBlock(body, text, close);
  last = { lines, text, result };
  return result;
}

let last: { lines: string[]; text: string; result: FrontMatter } | null = null;

function parseBlock(body: string[], text: string, close: number): FrontMatter {
  try {
    const parsed = parseYaml(text, { strict: false, uniqueKeys: false, logLevel: 'error' }) as unknown;
    if (parsed === null || parsed === undefined) return { data: {}, lineCount: close + 1, lenient: false };
    if (typeof parsed === 'object' && !Array.isArray(parsed)) {
      return { data: parsed as Record<string, unknown>, lineCount: close + 1, lenient: false };
    }
  } catch {
    // fall through to the tolerant reader
  }
  return { data: lenientFields(body), lineCount: close + 1, lenient: true };
}

function lenientFields(body: string[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  let listKey: string | null = null;
  for (const raw of body) {
    const item = /^\s+-\s*(.*)$|^-\s+(.*)$/.exec(raw);
    if (item && listKey) {
      const list = Array.isArray(data[listKey]) ? (data[listKey] as string[]) : [];
      list.push(unquote((item[1] ?? item[2] ?? '').trim()));
      data[listKey] = list;
      continue;
    }
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(raw);
    if (!kv) continue;
    const [, key, value] = kv as unknown as [string, string, string];
    const v = value.trim();
    listKey = v === '' ? key : null;
    data[key] = v === '' ? null : v === 'true' ? true : v === 'false' ? false : unquote(v);
  }
  return data;
}

function unquote(v: string): string {
  return /^(['"]).*\1$/.test(v) ? v.slice(1, -1) : v;
}

/** A globs value as a list: a string (comma-separated), a list, or nothing. */
export function globList(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  const items = Array.isArray(value) ? value.map(String) : splitOutsideBraces(String(value));
  return items.map((g) => g.trim().replace(/^(['"])(.*)\1$/, '$2')).filter((g) => g !== '');
}

/** Split a comma list of globs, keeping brace alternatives such as `*.{ts,tsx}` whole. */
function splitOutsideBraces(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
