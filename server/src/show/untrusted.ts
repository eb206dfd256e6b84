/**
 * The one way to show untrusted text (file contents, paths, a client's name, a model's words) to a
 * person or a client. Characters that a terminal or a renderer would act on, or that cannot be
 * seen, are shown as the escape a JavaScript string literal would use:
 *
 * - C0 and C1 controls and DEL (ESC is `\x1b`, a lone carriage return `\r`, NUL `\x00`),
 * - format characters: bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C), zero-width
 *   characters (U+200B–U+200D, U+2060, U+FEFF), soft hyphen, tag characters (`\u{e0041}`),
 * - line and paragraph separators (U+2028, U+2029), unpaired surrogates,
 * - characters drawn as nothing: Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the combining
 *   grapheme joiner (U+034F), the supplementary variation selectors (U+E0100–U+E01EF).
 *
 * Below U+0100 the escape is `\xHH`, in the first plane `\uHHHH`, beyond it `\u{HHHHH}`; `\n`,
 * `\r` and `\t` keep their short names. Multi-line text keeps its newlines and tabs (a CR that
 * ends a line, CRLF, is shown as the line end). Every other character is kept, in order. What is
 * written to a file never passes through here: this is for display only.
 */

/** What is escaped, besides newline and tab (those only in single-line text). */
// eslint-disable-next-line no-misleading-character-class -- U+034F is a character of its own here, not combined
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u034F\u115F\u1160\u3164\uFFA0\u{E0100}-\u{E01EF}]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu'); // eslint-disable-line no-misleading-character-class -- as above
/**
 * HIDDEN without what is kept as it is: newline and tab in multi-line text, newline in JSON
 * (\p{Cc} is exactly U+0000–U+001F and U+007F–U+009F). A long report or JSON then has no match per
 * line to hand back unchanged, which was most of the cost of showing it.
 */
const NOT_CC = HIDDEN.source.replace('[\\p{Cc}', '');
const HIDDEN_IN_TEXT = new RegExp(`[\\0-\\x08\\x0B-\\x1F\\x7F-\\x9F${NOT_CC}`, 'gu');
const HIDDEN_IN_JSON = new RegExp(`[\\0-\\x09\\x0B-\\x1F\\x7F-\\x9F${NOT_CC}`, 'gu');

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The escape for one character, as a JavaScript string literal writes it. */
export function escapeChar(c: string): string {
  if (SHORT[c]) return SHORT[c];
  const cp = c.codePointAt(0)!;
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** Whether a character is one the display escapes (newline and tab included). */
export function isHidden(c: string): boolean {
  return HIDDEN.test(c);
}

/** Multi-line text: every hidden character escaped except newline and tab; CRLF shown as a line end. */
export function showText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(HIDDEN_IN_TEXT, escapeChar);
}

/** One line: newlines and tabs escaped too, so the text cannot start a line of its own. */
export function showLine(text: string): string {
  return text.replace(HIDDEN_ALL, escapeChar);
}

/**
 * A path (or a link's target, or any name): as it is when it holds only plain printable characters;
 * otherwise quoted like a JSON string (`"pkg\nCreate x.md"`), with `"` and `\` escaped too. So no
 * name can start a line, and a quoted name cannot be taken for a plain one.
 */
export function showPath(p: string): string {
  if (p !== '' && !HIDDEN.test(p) && !/["\\]/.test(p) && p.trim() === p) return p;
  return `"${p.replace(/["\\]/g, (c) => `\\${c}`).replace(HIDDEN_ALL, escapeChar)}"`;
}

/** Paths joined for a sentence: `a, "b\nc", d`. */
export function showPaths(paths: readonly string[], separator = ', '): string {
  return paths.map(showPath).join(separator);
}

/**
 * JSON for a terminal: the same value when parsed, with every hidden character written as a
 * `\uHHHH` escape (JSON.stringify already escapes C0 controls, but not DEL, C1, bidi or zero-width).
 */
export function showJson(value: unknown, indent = 2): string {
  const unit = (c: string, i: number) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return JSON.stringify(value, null, indent).replace(HIDDEN_IN_JSON, (c) => (c.length === 2 ? unit(c, 0) + unit(c, 1) : unit(c, 0)));
}

/** At most `max` characters (code points, so no surrogate pair is split), with "..." when cut; then shown as one line. */
export function showExcerpt(text: string, max: number): string {
  const chars = [...text];
  return showLine(chars.length > max ? `${chars.slice(0, max - 3).join('')}...` : text);
}

/** What nearly every line holds: one list for all of them, not an empty list per line. */
const NONE_HIDDEN: readonly string[] = Object.freeze([]);

/** The hidden characters in a line of text (a rule), each once, in order of first appearance. */
export function hiddenIn(line: string): readonly string[] {
  if (!HIDDEN.test(line)) return NONE_HIDDEN;
  const found = new Set<string>();
  for (const m of line.matchAll(HIDDEN_ALL)) if (m[0] !== '\t') found.add(m[0]);
  return [...found];
}

const NAMES: Record<number, string> = {
  0x00: 'NUL',
  0x07: 'BEL (bell)',
  0x08: 'BACKSPACE',
  0x0a: 'LINE FEED',
  0x0d: 'CARRIAGE RETURN (moves back to the start of the line)',
  0x1b: 'ESCAPE (starts a terminal control sequence)',
  0x7f: 'DELETE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0xad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (byte order mark)',
};

/** A hidden character for a person: `U+200B ZERO WIDTH SPACE`, `U+0007 BEL (bell)`, `U+E0041 tag character`. */
export function charName(c: string): string {
  const cp = c.codePointAt(0)!;
  const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name =
    NAMES[cp] ??
    (cp < 0x20 || (cp >= 0x80 && cp < 0xa0)
      ? 'control character'
      : cp >= 0xe0000 && cp <= 0xe007f
        ? 'tag character (invisible)'
        : cp >= 0xd800 && cp <= 0xdfff
          ? 'unpaired surrogate'
          : 'invisible character');
  return `${code} ${name}`;
}
