import { createRequire } from 'node:module';

export type YamlParse = typeof import('yaml').parse;

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
 * takes `key: value` and `- item` lists as text. The YAML parser (the yaml package, a third of the
 * read-only bundle) is needed only for a block that is not flat (`needsYaml`): a scan asks that of
 * each file first, loads it once with `loadYaml` when one does, and passes it here; a caller that
 * passes none gets it loaded synchronously when a block needs it.
 */
export function readFrontMatter(lines: string[], yaml?: YamlParse): FrontMatter | null {
  const read = lastRead?.lines === lines ? lastRead : null;
  lastRead = undefined;
  if (read?.flat) return { data: read.flat, lineCount: read.close + 1, lenient: false };
  const close = read?.close ?? frontMatterEnd(lines);
  if (close < 0) return null;
  return parseBlock(lines.slice(1, close), close, yaml);
}

/**
 * What needsYaml read of the last lines it was asked about. A scan asks it of each file's lines and
 * then parses the same lines: the flat fields are read once, not twice (about 1 % of an analyze of
 * 500 rule files). One entry, taken by the next read: nothing stays behind.
 */
let lastRead: { lines: string[]; close: number; flat: Record<string, unknown> | null } | undefined;

/** The index of the line that closes the front matter block opening the lines, or -1 when there is none. */
export function frontMatterEnd(lines: string[]): number {
  if (lines[0]?.trim() !== '---') return -1;
  return lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
}

/** Whether the lines open with a front matter block that only the YAML parser reads (not flat: see flatFields). */
export function needsYaml(lines: string[]): boolean {
  const close = frontMatterEnd(lines);
  const flat = close < 0 ? null : flatFields(lines.slice(1, close));
  lastRead = { lines, close, flat };
  return close >= 0 && flat === null;
}

/** The YAML parser, loaded asynchronously (a file of its own beside the read-only bundle). */
export async function loadYaml(): Promise<YamlParse> {
  // The split bundle (scripts/bundle.mjs) gives a CommonJS package's exports as its default export alone.
  const yaml = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  return yaml.parse ?? yaml.default!.parse;
}

const requireYaml = (): YamlParse => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse;

function parseBlock(body: string[], close: number, yaml: YamlParse | undefined): FrontMatter {
  const simple = flatFields(body);
  if (simple !== null) return { data: simple, lineCount: close + 1, lenient: false };
  const parseYaml = yaml ?? requireYaml();
  try {
    const parsed = parseYaml(body.join('\n'), { strict: false, uniqueKeys: false, logLevel: 'error' });
    if (parsed === null || parsed === undefined) return { data: {}, lineCount: close + 1, lenient: false };
    if (typeof parsed === 'object' && !Array.isArray(parsed)) {
      return { data: parsed as Record<string, unknown>, lineCount: close + 1, lenient: false };
    }
  } catch {
    // fall through to the tolerant reader
  }
  return { data: lenientFields(body), lineCount: close + 1, lenient: true };
}

/** A key of a flat line: what comes before its first `:`. */
const FLAT_KEY = /^[A-Za-z_][\w-]*$/;
/** Characters that start something other than plain text in YAML, or a number. */
const NOT_PLAIN_START = /^[-?:,[\]{}#&*!|>'"%@`.+0-9]/;
/** A YAML null, bool, comment or mapping inside the value: left to the YAML parser. */
const NOT_PLAIN_TEXT = /^(?:~|null|Null|NULL)$|: |:$| #/;
/** Controls, C1, BOM, line and paragraph separators: left to the YAML parser. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const ODD_CHAR = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
const QUOTED_WITHOUT_ESCAPES = /^'([^']*)'$|^"([^"\\]*)"$/;
const TRUE = new Set(['true', 'True', 'TRUE']);
const FALSE = new Set(['false', 'False', 'FALSE']);
const NULL_OR_BOOL_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|__proto__)$/;

/**
 * The common front matter, one `key: value` per line with plain, quoted-without-escapes or boolean
 * values, read without the YAML parser: what it returns is what YAML returns for such a block (the
 * tests compare the two), at a fraction of the cost, which a scan of hundreds of rule files pays
 * once per file. Anything else (lists, nesting, numbers, comments, escapes, repeated keys) returns
 * null and goes to the YAML parser.
 */
export function flatFields(body: string[]): Record<string, unknown> | null {
  const data: Record<string, unknown> = {};
  for (let i = 0; i < body.length; i++) {
    const line = body[i]!;
    if (line === '') continue;
    if (ODD_CHAR.test(line)) return null;
    const kv = flatLine(line);
    if (kv === null || NULL_OR_BOOL_KEY.test(kv.key) || Object.hasOwn(data, kv.key)) return null;
    const value = flatValue(kv.text);
    if (value === undefined) return null;
    data[kv.key] = value;
  }
  return data;
}

/**
 * A `key: value` line's key and value text, as `^([A-Za-z_][\w-]*):(?:[ ]+(.*?))?[ ]*$` takes them
 * (after ODD_CHAR: no line breaks), or null: the key is what precedes the first colon, then nothing,
 * or spaces and the text up to any spaces at the end. Read by hand: a scan reads a line of front
 * matter of every file, and a match array is three objects.
 */
export function flatLine(line: string): { key: string; text: string } | null {
  const colon = line.indexOf(':');
  if (colon < 0) return null;
  const key = line.slice(0, colon);
  if (!FLAT_KEY.test(key)) return null;
  const from = colon + 1;
  if (from === line.length) return { key, text: '' };
  // `key:value` and `key:\tvalue` are no flat lines.
  if (line.charCodeAt(from) !== SPACE) return null;
  let start = from;
  while (start < line.length && line.charCodeAt(start) === SPACE) start++;
  let end = line.length;
  while (end > start && line.charCodeAt(end - 1) === SPACE) end--;
  return { key, text: line.slice(start, end) };
}

const SPACE = 0x20;

function flatValue(v: string): string | boolean | null | undefined {
  if (v === '') return null;
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  const quoted = QUOTED_WITHOUT_ESCAPES.exec(v);
  if (quoted) return quoted[1] ?? quoted[2]!;
  if (NOT_PLAIN_START.test(v) || NOT_PLAIN_TEXT.test(v)) return undefined;
  return v;
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

const QUOTED_GLOB = /^(['"])(.*)\1$/;

/** A globs value as a list: a string (comma-separated), a list, or nothing. */
export function globList(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  const items = Array.isArray(value) ? value.map(String) : splitOutsideBraces(String(value));
  return items.map((g) => g.trim().replace(QUOTED_GLOB, '$2')).filter((g) => g !== '');
}

/** Split a comma list of globs, keeping brace alternatives such as `*.{ts,tsx}` whole. */
function splitOutsideBraces(text: string): string[] {
  // Without a brace every comma splits (most globs have none; a scan reads one list per rule file).
  if (!text.includes('{')) return text.split(',');
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
