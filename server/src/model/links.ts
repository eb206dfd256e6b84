/**
 * The relative link destinations of one Markdown line, where they stand in it: inline links and
 * images (`[t](dest "title")`, `![a](<dest>)`), a reference definition (`[id]: dest`) and HTML
 * `href`/`src` attributes. Code spans are examples, not links; what a URL scheme (`https:`,
 * `mailto:`, Cursor's `mdc:`), a `/`, `#`, `?` or `~` starts is not relative to the file and is left
 * out. CommonMark autolinks (`<https://…>`) always carry a scheme, so none is relative. The caller
 * leaves out lines of fenced code and front matter (the block reader knows them: model/markdown-units.ts).
 *
 * Hand-written rather than micromark/mdast: the project reads blocks itself, and a rewrite must
 * touch only the destination's characters, byte for byte around them; a line scan does that with
 * no parser loaded on the planning path.
 */
export interface LinkDestination {
  /** Where the destination stands in the line (angle brackets excluded): `line.slice(start, end)`. */
  start: number;
  end: number;
}

/** `](`, then a destination in angle brackets or one with balanced parentheses, then an optional title, then `)`. */
const INLINE = /\]\(\s*(?:<([^<>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+))(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)/dg;
const DEFINITION = /^ {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*(?:<([^<>\n]*)>|(\S+))/d;
const ATTRIBUTE = /<[a-zA-Z][\w-]*\s[^>]*?\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/dg;
/** What makes a destination not relative to the file it is written in. */
const NOT_RELATIVE = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|[/#?~\\]|$)/;

/** Every relative link destination in `line`, left to right. */
export function linkDestinations(line: string): LinkDestination[] {
  if (!line.includes('](') && !line.includes(']:') && !/\b(?:href|src)\s*=/.test(line)) return [];
  const masked = maskCodeSpans(line);
  const out: LinkDestination[] = [];
  const take = (m: RegExpExecArray | null) => {
    if (!m?.indices) return;
    const at = m.indices[1] ?? m.indices[2];
    if (!at) return;
    const dest = line.slice(at[0], at[1]);
    if (!NOT_RELATIVE.test(dest)) out.push({ start: at[0], end: at[1] });
  };
  take(DEFINITION.exec(masked));
  for (const re of [INLINE, ATTRIBUTE]) {
    re.lastIndex = 0;
    for (let m = re.exec(masked); m; m = re.exec(masked)) take(m);
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * A path written in prose rather than as a link, relative to its file like one: an `@path` reference
 * (Claude Code and Gemini CLI read `@docs/a.md` from the file's folder) and a code span that is one
 * path starting with `./` or `../` (`./.github/skills/x/SKILL.md`). `explicit` when it starts with
 * `./` or `../`: it is a path whether or not it is there. Otherwise only a path that resolves from its
 * file is one (the caller checks: `@v2.1` or `@types/node` name nothing). A code span naming a
 * program to run (`./gradlew`, `../scripts/test.sh`) is a command, read from where it is run, not
 * from the file: it is left out.
 */
export interface PathReference extends LinkDestination {
  form: 'at' | 'code';
  explicit: boolean;
}

const AT_REFERENCE = /(?:^|[\s([{"'])@((?:[^\s`@()[\]{}<>"',;*|]|\([^\s()]*\))+)/dg;
const EXPLICIT = /^\.{1,2}\//;
const COMMAND_FILE = /(?:^|\/)(?:[^./]+|[^/]*\.(?:sh|bash|zsh|ps1|psm1|bat|cmd|exe|py|rb|pl|js|mjs|cjs))$/i;

/** Every `@path` reference and every code span that is one relative path, in `line`, left to right. */
export function pathReferences(line: string): PathReference[] {
  const out: PathReference[] = [];
  if (line.includes('@')) {
    const masked = maskCodeSpans(line);
    AT_REFERENCE.lastIndex = 0;
    for (let m = AT_REFERENCE.exec(masked); m; m = AT_REFERENCE.exec(masked)) {
      const [start, end0] = m.indices![1]!;
      // A sentence's full stop or colon after the path is not part of it.
      let end = end0;
      while (end > start && /[.:!?]/.test(line[end - 1]!)) end--;
      const dest = line.slice(start, end);
      if (/[./]/.test(dest) && !NOT_RELATIVE.test(dest) && !dest.startsWith('/'))
        out.push({ start, end, form: 'at', explicit: EXPLICIT.test(dest) });
    }
  }
  if (line.includes('`./') || line.includes('`../') || line.includes('` ./') || line.includes('` ../'))
    for (const span of codeSpans(line)) {
      const text = line.slice(span.start, span.end);
      const lead = text.length - text.trimStart().length;
      const dest = text.trim();
      if (!EXPLICIT.test(dest) || /^[./]+$/.test(dest) || /\s/.test(dest) || (!dest.endsWith('/') && COMMAND_FILE.test(dest))) continue;
      out.push({ start: span.start + lead, end: span.start + lead + dest.length, form: 'code', explicit: true });
    }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The destinations of a line that a move rewrites: its relative links, and the paths it writes as
 * `@path` or as a `./`/`../` code span. `explicit` when it is a path whether or not
 * it resolves (a link, a `./` or `../` start): one that leads nowhere is named in the notes.
 */
/** A path a line names (a link's destination, an `@path`, a `./` code span), as movablePaths finds it. */
export type MovablePath = LinkDestination & { explicit: boolean; form?: PathReference['form'] };

export function movablePaths(line: string): MovablePath[] {
  // Most lines hold none: passed over by one search instead of two readers and their lists (a scan
  // and a plan ask this of every line).
  if (!MAY_HOLD_PATH.test(line)) return [];
  const refs = pathReferences(line);
  const links = linkDestinations(line).map((d) => ({ ...d, explicit: true }));
  return refs.length === 0 ? links : [...links, ...refs].sort((a, b) => a.start - b.start);
}

/** What a line holds when linkDestinations or pathReferences may find something in it (their own first checks, together). */
const MAY_HOLD_PATH = /\]\(|\]:|[@`]|\b(?:href|src)\s*=/;

/** Where each code span stands in `line`: `open`..`close` its backticks included, `start`..`end` its text. */
function codeSpans(line: string): { open: number; start: number; end: number; close: number }[] {
  const out: { open: number; start: number; end: number; close: number }[] = [];
  let i = line.indexOf('`');
  while (i >= 0 && i < line.length) {
    let n = 0;
    while (line[i + n] === '`') n++;
    const fence = '`'.repeat(n);
    // The span closes at the next run of exactly as many backticks; with none, the backticks are literal.
    let close = -1;
    for (let j = line.indexOf(fence, i + n); j >= 0; j = line.indexOf(fence, j + 1)) {
      if (line[j - 1] !== '`' && line[j + n] !== '`') {
        close = j;
        break;
      }
    }
    if (close < 0) {
      i = line.indexOf('`', i + n);
      continue;
    }
    out.push({ open: i, start: i + n, end: close, close: close + n });
    i = line.indexOf('`', close + n);
  }
  return out;
}

/** The line with every code span's characters blanked out (same length), so nothing in one is read as a link. */
function maskCodeSpans(line: string): string {
  if (!line.includes('`')) return line;
  let out = '';
  let from = 0;
  for (const s of codeSpans(line)) {
    out += line.slice(from, s.open) + ' '.repeat(s.close - s.open);
    from = s.close;
  }
  return out + line.slice(from);
}

/** A destination's path part and the rest (`#anchor`, `?query`), which a move keeps as written. */
export function splitDestination(dest: string): { path: string; rest: string } {
  const cut = dest.search(/[#?]/);
  return cut < 0 ? { path: dest, rest: '' } : { path: dest.slice(0, cut), rest: dest.slice(cut) };
}

/**
 * The repository path a relative destination written in `fromFile` names (percent-escapes read,
 * `.` and `..` resolved), or null when it climbs out of the repository or names nothing.
 */
export function linkedPath(fromFile: string, dest: string): string | null {
  const raw = splitDestination(dest).path;
  if (raw === '') return null;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A lone `%` is a character of the name.
  }
  const parts: string[] = [];
  const folder = fromFile.includes('/') ? fromFile.slice(0, fromFile.lastIndexOf('/')).split('/') : [];
  for (const seg of [...folder, ...decoded.split('/')]) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.length === 0 ? null : parts.join('/');
}

/**
 * `line` with each path it names (a relative link, an `@path`, a `./` code span) written as the repository
 * path it leads to from `fromFile`, the way a move rewrites it (planning/render/links.ts): the same line
 * moved into another folder, its links rewritten to lead where they led, gives the same key, and so does
 * an `@path` written as a link named by its path. A path that is not there and not written from its folder
 * (`@v2`, `[x](missing.md)`) stays as written, as a move leaves it. For comparing lines, never for writing.
 */
export function pathKeyed(fromFile: string, line: string, resolves: (repoPath: string) => boolean): string {
  return replacePaths(line, (d, dest) => {
    const to = linkedPath(fromFile, dest);
    if (to === null) return null;
    const there = resolves(to);
    // An `@path` that is not there is written as it stands, as the link `[path](path)` the plan finds it under (planning/render/rendered.ts).
    if (!there && !/^\.{1,2}\//.test(dest)) return d.form === 'at' ? { text: `[${dest}](${dest})`, atSign: true } : null;
    const key = `\u0000${to}${splitDestination(dest).rest}`;
    return d.form === 'at' && there ? { text: `[${to}](${key})`, atSign: true } : { text: key, atSign: false };
  });
}

/** What stands for a path of a line: `text` in its place, and in place of the `@` before it too with `atSign`. */
export interface PathReplacement {
  text: string;
  atSign: boolean;
}

/** `line` with each path it names (movablePaths) that `replace` gives a replacement for replaced; the others as written. */
export function replacePaths(line: string, replace: (d: MovablePath, dest: string) => PathReplacement | null): string {
  const found = movablePaths(line);
  let out = '';
  let from = 0;
  for (const d of found) {
    const r = replace(d, line.slice(d.start, d.end));
    if (r === null) continue;
    out += line.slice(from, r.atSign ? d.start - 1 : d.start) + r.text;
    from = d.end;
  }
  return from === 0 ? line : out + line.slice(from);
}

/** Where the text of each code span stands in `line`, spaces around it aside. */
export function codeSpanTexts(line: string): LinkDestination[] {
  if (!line.includes('`')) return [];
  return codeSpans(line).flatMap((s) => {
    const text = line.slice(s.start, s.end);
    const start = s.start + (text.length - text.trimStart().length);
    const end = s.start + text.trimEnd().length;
    return end > start ? [{ start, end }] : [];
  });
}

const MDC_LINK = /\]\(\s*mdc:([^\s()]+)\)/dg;

/** Cursor's `mdc:` link destinations, `mdc:` included in the place (`[api](mdc:.cursor/rules/api.mdc)`): paths from the repository root. */
export function mdcDestinations(line: string): (LinkDestination & { path: string })[] {
  if (!line.includes('mdc:')) return [];
  const masked = maskCodeSpans(line);
  const out: (LinkDestination & { path: string })[] = [];
  MDC_LINK.lastIndex = 0;
  for (let m = MDC_LINK.exec(masked); m; m = MDC_LINK.exec(masked)) {
    const [start, end] = m.indices![1]!;
    out.push({ start: start - 'mdc:'.length, end, path: line.slice(start, end) });
  }
  return out;
}
