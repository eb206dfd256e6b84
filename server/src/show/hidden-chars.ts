/**
 * Which characters of untrusted text the display escapes (show/untrusted.ts lists them and says
 * why), found in one pass. Each code point is looked up once in the patterns below and its answer
 * kept in a table, so a long text costs a loop over its characters, not a pattern with some thousand
 * ranges (unassigned code points alone are hundreds) tried at every one of them; text that is plain
 * printable ASCII is passed over by one search.
 */

/** Escaped wherever it stands (but a control the caller keeps: newline and tab in text). */
const ALWAYS = 1;
/** A combining mark: escaped when nothing is before it to combine with. */
const MARK = 2;
/** A mark after it has nothing to combine with on screen: a space, a quote, a backslash. */
const NO_BASE = 4;
/** Looked up already: a table entry of 0 is one not looked up yet. */
const KNOWN = 8;

/** ALWAYS's pattern, made on first use: a text of plain ASCII never needs it, and it takes about half a millisecond to make. */
let always: RegExp | undefined;
/**
 * Controls, format characters, surrogates, private-use and unassigned code points, line and
 * paragraph separators, default-ignorable code points and the characters drawn blank; but the
 * variation selectors (U+FE00–U+FE0F and the Mongolian ones), which are combining marks that emoji
 * and Mongolian need after their base. Written with escapes only: the build stays ASCII.
 */
const alwaysPattern = () =>
  new RegExp(
    // eslint-disable-next-line no-misleading-character-class -- each character of the class is looked at on its own
    '[[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Co}\\p{Cn}\\p{Zl}\\p{Zp}\\p{Default_Ignorable_Code_Point}\\u2800\\u{1D159}\\u{16FE4}]' +
      '--[\\uFE00-\\uFE0F\\u180B-\\u180D\\u180F]]',
    'v',
  );
const MARK_PATTERN = /\p{M}/u;
const NO_BASE_PATTERN = /[\s"'`\\]/u;

function lookUp(c: string): number {
  return (
    KNOWN |
    ((always ??= alwaysPattern()).test(c) ? ALWAYS : 0) |
    (MARK_PATTERN.test(c) ? MARK : 0) |
    (NO_BASE_PATTERN.test(c) ? NO_BASE : 0)
  );
}

/** The first plane, one byte a code unit (a lone surrogate is looked up as itself: unpaired). */
const firstPlane = new Uint8Array(0x10000);
/** The other planes: the few code points a text holds (emoji, mostly), at most so many (a text of all of them keeps no more). */
const otherPlanes = new Map<number, number>();
const MAX_OTHER_PLANES = 4096;

function unitFlags(u: number): number {
  const known = firstPlane[u]!;
  return known !== 0 ? known : (firstPlane[u] = lookUp(String.fromCharCode(u)));
}

function codePointFlags(cp: number): number {
  const known = otherPlanes.get(cp);
  if (known !== undefined) return known;
  const flags = lookUp(String.fromCodePoint(cp));
  if (otherPlanes.size < MAX_OTHER_PLANES) otherPlanes.set(cp, flags);
  return flags;
}

/** What a caller keeps as it is: newline and tab in multi-line text, newline in JSON, nothing in a line. */
export type Keep = 'text' | 'line' | 'json';

/** The next character that is not plain printable ASCII (nor kept): between them, nothing is escaped. */
const NOT_PLAIN: Record<Keep, RegExp> = { text: /[^\x20-\x7E\n\t]/g, line: /[^\x20-\x7E]/g, json: /[^\x20-\x7E\n]/g };

const kept = (keep: Keep, u: number) => (keep === 'text' ? u === 0x0a || u === 0x09 : keep === 'json' && u === 0x0a);

/** JSON's own escapes end in a letter or a digit: a mark right after one would join the escape. */
const JSON_ESCAPE_BEFORE = /\\(?:[nrtbf]|u[0-9a-f]{4})$/;

/**
 * Calls `hit(at, end)` for each hidden character of `text` (one code point: `end` is `at` + 1 or 2),
 * in order. A combining mark is hidden when nothing is before it: the start, a space, a quote, a
 * backslash, or a hidden character (then its escape would be its base); so is every mark after it.
 */
export function eachHidden(text: string, keep: Keep, hit: (at: number, end: number) => void): void {
  const notPlain = NOT_PLAIN[keep];
  let at = 0;
  let nothingBefore = true;
  while (at < text.length) {
    const u = text.charCodeAt(at);
    if (u >= 0x20 && u < 0x7f) {
      // A run of plain ASCII: passed over by one search, which is much faster than this loop.
      notPlain.lastIndex = at;
      const next = notPlain.exec(text);
      if (!next) return;
      at = next.index;
      nothingBefore = (unitFlags(text.charCodeAt(at - 1)) & NO_BASE) !== 0;
      continue;
    }
    const pair = u >= 0xd800 && u <= 0xdbff && isLowSurrogate(text.charCodeAt(at + 1));
    const flags = pair ? codePointFlags(text.codePointAt(at)!) : unitFlags(u);
    const end = pair ? at + 2 : at + 1;
    const hidden =
      ((flags & ALWAYS) !== 0 && !kept(keep, u)) ||
      ((flags & MARK) !== 0 && (nothingBefore || (keep === 'json' && JSON_ESCAPE_BEFORE.test(text.slice(Math.max(0, at - 6), at)))));
    if (hidden) hit(at, end);
    nothingBefore = hidden || (flags & NO_BASE) !== 0;
    at = end;
  }
}

const isLowSurrogate = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/** Whether `text` holds a character that is escaped when it is shown so. */
export function hasHidden(text: string, keep: Keep): boolean {
  let found = false;
  eachHidden(text, keep, () => (found = true));
  return found;
}

/** Whether a character, shown on its own, is escaped (newline and tab included; a combining mark has nothing to combine with there). */
export function isHidden(c: string): boolean {
  return hasHidden(c, 'line');
}

/** What nearly every line holds: one list for all of them, not an empty list per line. */
const NONE_HIDDEN: readonly string[] = Object.freeze([]);

/** The hidden characters in a line of text (a rule), each once, in order of first appearance; a tab is not named. */
export function hiddenIn(line: string): readonly string[] {
  let found: Set<string> | undefined;
  eachHidden(line, 'line', (at, end) => {
    const c = line.slice(at, end);
    if (c !== '\t') (found ??= new Set()).add(c);
  });
  return found ? [...found] : NONE_HIDDEN;
}
